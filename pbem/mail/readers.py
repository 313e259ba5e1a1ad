"""Whose language a mail is written in: each mail has one reader, a player (their own choice in the referee's
secrets, else the game's language), the organiser (the game's language) or a stranger writing about a game (the
game's language; about no game: English). What a mail says is rendered inside `reading_as` (pbem.text.language)."""
from __future__ import annotations

import contextlib

from ..contract import PbemError
from ..engine import engine
from ..text import language

CONTENT_LANGUAGE = {"en": "en", "fr": "fr", "zh-Hant": "zh-Hant-TW", "zh-Hans": "zh-Hans-CN"}  # BCP 47 tags
# Besides UTF-8, the charset every mail program reads that writes a language's letters in fewer bytes: an accented
# letter in one byte (two in UTF-8), a Chinese character in two (three). pbem.mail.encodings takes the shorter.
NARROWER = {"fr": "windows-1252", "zh-Hant": "big5", "zh-Hans": "gb18030"}


def code_of(gd: engine.GameDir | None, player: dict | None = None) -> str:
    """The language code of a mail's reader: `player` (their entry in secrets.yaml) or, without one, the game's.
    A code that is not one pbem speaks (a hand-edited file) is read as the game's, then English: a mail always
    goes."""
    for code in ((player or {}).get("language"), gd.meta.get("language") if gd is not None else None):
        if code:
            try:
                return language.check(code)
            except PbemError:
                continue
    return language.DEFAULT


@contextlib.contextmanager
def reading_as(gd: engine.GameDir | None, player: dict | None = None):
    """Render what is written inside in the language of the reader `player` of `gd` (code_of)."""
    with language.reading(code_of(gd, player)):
        yield


def content_language() -> str:
    """The Content-Language of the mail being written (RFC 3282): the language being read now."""
    return CONTENT_LANGUAGE.get(language.current_code(), language.current_code())


def charsets() -> tuple[str, ...]:
    """The charsets the mail being written may go in, UTF-8 first: its reader's language's own (NARROWER) too."""
    own = NARROWER.get(language.current_code())
    return ("utf-8", own) if own else ("utf-8",)
