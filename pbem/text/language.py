"""The languages players read, their catalogues and the translators that render pbem.messages in them.

A reader's language is a code of LANGUAGES; English (`en`) is the msgids themselves and has no catalogue, so an
English reader costs nothing: no catalogue is opened, gettext is not imported. Any other language renders through
a Translator, which opens, once per process and domain, the compiled catalogue (`.mo`, the standard gettext
module) of each domain a message comes from: `pbem` (pbem/text/locale) or a game's package
(`<package>/locale`, found through the registry). A catalogue that is missing or cannot be read leaves that
domain in English; a translation that does not fit its message is skipped by pbem.messages (English for that
message). Nothing here ever refuses to render.

A transport chooses the language of each reader: `reading(code)` around what it writes to one reader (a mail),
`use(code)` for a command whose one reader is the person who runs it. Dates are CLDR's (Babel, imported only
when a reader other than an English one needs a date).

The pseudo-locale (PSEUDO) is for tests only: with PBEM_PSEUDO_LOCALE=1 in the environment every reader reads it,
whatever their language; it is never offered to players. Each message is rendered marked, ⟦ and ⟧ around its
text with accented letters (placeholders filled as they are), from the msgid at run time, so it needs no
catalogue; pbem.text.pseudo checks that a text is made of such messages.
"""
from __future__ import annotations

import contextlib
import os
import re

from .. import messages
from ..contract import PbemError

DEFAULT = "en"
# code -> (the language's own name, the CLDR locale, its catalogue folder's name, the width of a date in a sentence)
LANGUAGES = {
    "en": ("English", "en", None, None),
    "fr": ("français", "fr", "fr", "full"),
    "zh-Hant": ("繁體中文", "zh_Hant_TW", "zh_Hant", "long"),
    "zh-Hans": ("简体中文", "zh_Hans_CN", "zh_Hans", "long"),
}
ALIASES = {"zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh_hant": "zh-Hant",
           "zh_hans": "zh-Hans"}
# French elides `de`, `que` (and the words ending in it) before a vowel: a name put after them in a sentence ("coup
# 2 de {player}") reads "coup 2 d'alice", never "de alice". A translator does this as it fills a placeholder. (The
# patterns are compiled by the French translator when it is made: an English command never compiles them.)
ELIDED = {"fr": (r"(?:^|(?<=[\s(«]))(d|[a-z]*qu)e $", r"[aeiouàâäéèêëîïôöûüœæ]")}
PSEUDO = "qps-ploc"
PSEUDO_ENV = "PBEM_PSEUDO_LOCALE"
LOCALE_DIR = "locale"


def supported() -> str:
    """`en (English), fr (français), …` for a message listing them."""
    return ", ".join(f"{code} ({name})" for code, (name, *_) in LANGUAGES.items())


def check(code: str) -> str:
    """A language code as a player or organiser writes it (any case; zh-TW for zh-Hant), or a PbemError listing the
    supported ones."""
    text = str(code).strip()
    for known in LANGUAGES:
        if text.lower() == known.lower():
            return known
    if text.lower() in ALIASES:
        return ALIASES[text.lower()]
    raise PbemError(messages.lazy("language {code}: not a language pbem speaks; the languages are: {languages}",
                                  code=repr(text[:20]), languages=supported()))


def pseudo() -> bool:
    return os.environ.get(PSEUDO_ENV) == "1"


_translators: dict[str, object] = {}


def translator(code: str | None):
    """The translator of a language (None for English: the msgids are the English text)."""
    if pseudo():
        code = PSEUDO
    if code is None or code == DEFAULT:
        return None
    if code not in _translators:
        if code == PSEUDO:
            from .pseudo import PseudoTranslator
            _translators[code] = PseudoTranslator()
        else:
            _translators[code] = Translator(check(code))
    return _translators[code]


def use(code: str | None) -> None:
    """The language of every message rendered from now on in this process (a command's one reader)."""
    messages.use(translator(code))


@contextlib.contextmanager
def reading(code: str | None):
    """Render the messages written inside in `code` (what one reader gets: a mail, a report)."""
    token = messages.use(translator(code))
    try:
        yield
    finally:
        messages.restore(token)


def current_code() -> str:
    """The code of the language being rendered now."""
    active = messages.current()
    return DEFAULT if active is None else active.code


class Translator:
    """A language's catalogues, one a domain, each opened when a message of that domain is first rendered."""

    def __init__(self, code: str):
        self.code = code
        self.folder = LANGUAGES[code][2]
        self.locale = LANGUAGES[code][1]
        self._catalogues: dict[str, object] = {}
        self._terms: dict[str, dict[str, set[str]]] = {}
        if code in ELIDED:
            self.elide = elision(*(re.compile(pattern, re.IGNORECASE) for pattern in ELIDED[code]))

    def catalogue(self, domain: str):
        """The domain's compiled catalogue (a gettext.GNUTranslations), or None: missing or damaged."""
        if domain not in self._catalogues:
            self._catalogues[domain] = load(domain, self.folder)
        return self._catalogues[domain]

    def translate(self, message: messages.Message) -> str | None:
        """The translation's template, or None when the catalogue has none (English stands in)."""
        catalogue = self.catalogue(message.domain)
        if catalogue is None:
            return None
        key = message.singular if message.context is None else f"{message.context}\x04{message.singular}"
        try:
            if message.plural is None:
                found = catalogue._catalog.get(key)
            else:
                found = catalogue._catalog.get((key, catalogue.plural(message.count)))
        except Exception:  # a damaged Plural-Forms expression: English
            return None
        return found or None


    def term_names(self, domain: str) -> dict[str, set[str]]:
        """Each glossary id in the domain's catalogue, with its names in this language (one a kind it is of): what
        shows a move in the reader's words without reading the glossary's YAML (PyYAML's import alone is a fifth
        of a move)."""
        if domain not in self._terms:
            catalogue, found = self.catalogue(domain), {}
            for key, name in (catalogue._catalog.items() if catalogue is not None else ()):
                if isinstance(key, str) and key.startswith(messages.TERM) and "\x04" in key and name:
                    found.setdefault(key.partition("\x04")[2], set()).add(name)
            self._terms[domain] = found
        return self._terms[domain]

    def words(self, domain: str, text: str) -> str:
        """A text of the notation in this language's words (pbem.text.glossary)."""
        from .glossary import shown_words
        return shown_words(domain, text, self)


def elision(before, vowel):
    """The function that elides the word before a placeholder's value (`before`, at the end of what is written so
    far, `de ` or `que `) when the value begins with a vowel: `out` is the text written so far, in pieces."""

    def elide(out: list[str], value: str) -> str:
        if value[:1] and vowel.match(value[:1]) and out:
            found = before.search(out[-1])
            if found is not None:
                out[-1] = out[-1][:found.end(1)] + "'"
        return value

    return elide


def load(domain: str, folder: str):
    """A domain's compiled catalogue in one language, or None when there is none or it cannot be read."""
    try:
        data = catalogue_bytes(domain, folder)
    except (OSError, PbemError, LookupError, ImportError):
        return None
    import gettext
    import io
    try:
        return gettext.GNUTranslations(io.BytesIO(data))
    except Exception:  # a damaged .mo (bad magic, truncated, a broken header): that domain stays in English
        return None


def catalogue_bytes(domain: str, folder: str) -> bytes:
    """The `.mo` of a domain: pbem's own, or the game whose package is named `domain`."""
    from ..store import packaged
    name = f"{LOCALE_DIR}/{folder}/LC_MESSAGES/{domain}.mo"
    if domain == messages.PBEM.name:
        return packaged.read_bytes("pbem.text", name)
    from ..store import registry
    return packaged.read_bytes(registry.get(domain.replace("_", "-")).module, name)


class When:
    """A moment as a message's parameter: said in the language of the message's reader when it is rendered, so a
    refusal raised with a date (`lazy("... from {start}", start=When(moment))`) reads in English in the logs."""

    __slots__ = ("moment",)

    def __init__(self, moment):
        self.moment = moment

    def render_for(self, translator) -> str:
        return when(self.moment, DEFAULT if translator is None else translator.code)

    def __str__(self) -> str:
        return when(self.moment)


def when(moment, code: str | None = None) -> str:
    """A moment (an aware datetime) as a sentence says it in the language being read: 'Tue 1 Dec 2026 17:20 UTC',
    'mardi 1 décembre 2026 à 17:20 UTC', '2026年12月1日 17:20 UTC' (CLDR's date and time formats, Babel; the
    two joined by the catalogue's message, CLDR's "atTime" pattern that Babel does not read)."""
    code = current_code() if code is None else code
    english = f"{moment:%a} {moment.day} {moment:%b %Y %H:%M} UTC"
    if code == PSEUDO:
        return f"⟦{english}⟧"
    if code not in LANGUAGES or code == DEFAULT:
        return english
    from babel import dates  # a date for a reader of another language: only then
    _, locale, _, width = LANGUAGES[code]
    date = dates.format_date(moment, width, locale=locale)
    time = dates.format_time(moment, "HH:mm", tzinfo=dates.UTC, locale=locale) + " UTC"
    # TRANSLATORS: a date and its time in a sentence, as CLDR's "atTime" pattern joins them (Babel gives only
    # the plain one, "mardi 1 décembre 2026, 17:20"): French "{date} à {time}", Chinese "{date} {time}".
    return messages.plazy("date at time", "{date} at {time}", date=date, time=time).render(translator(code))
