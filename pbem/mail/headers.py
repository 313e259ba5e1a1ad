"""The email package's header registry, made cheap for a batch of mail.

The stock registry builds a new class for every header of every mail, parses every value each time it is set or
read, and folds every header each time a mail is written. A batch writes the same addresses, game tags and thread
roots into many mails and reads the same Content-Type in every message: here each header's class is made once,
each (name, value) is parsed once, and each parsed header remembers how it folds. A parsed header is immutable,
so one object can serve every mail that carries it. A short list of message ids (Message-ID, In-Reply-To,
References), new in every mail, is not parsed at all: it is written as it is, which is what the parser and the
folder make of it. The output is the email package's own, byte for byte (a test compares).
"""
from __future__ import annotations

import functools
import re
from email.headerregistry import BaseHeader, HeaderRegistry

from ..clock.addresses import ADDRESS, DOT_ATOMS, ENCODED_WORD, is_writable

LONGEST_KEPT = 998  # longer values (a hostile header) are parsed every time, never kept
ID_HEADERS = frozenset({"message-id", "in-reply-to", "references"})
_ID = f"<{DOT_ATOMS}@{DOT_ATOMS}>"
SHORT_IDS = re.compile(f"{_ID}(?: {_ID})*")  # well-formed ids, one space apart (anything else is parsed)
SHORTEST_FOLD = 78  # no policy folds a line shorter than this (RFC 5322's recommended length)


class _FoldsOnce(BaseHeader):
    """A header that folds once per policy (policies are immutable: the same object folds the same way)."""

    def fold(self, *, policy):
        folded = self.__dict__.get("_folded")
        if folded is None or folded[0] is not policy:
            folded = (policy, super().fold(policy=policy))
            self._folded = folded
        return folded[1]


class _Ids(str):
    """Message ids on a line too short to fold: the header as the email package would parse and fold it."""

    defects = ()

    def __new__(cls, name: str, value: str):
        self = super().__new__(cls, value)
        self._name = name
        return self

    @property
    def name(self) -> str:
        return self._name

    def fold(self, *, policy) -> str:
        return f"{self._name}: {self}{policy.linesep}"


class Headers(HeaderRegistry):
    def __init__(self):
        super().__init__(base_class=_FoldsOnce)

    @functools.lru_cache(maxsize=None)
    def __getitem__(self, name):
        return super().__getitem__(name)

    def __call__(self, name, value):
        if type(value) is not str or len(value) > LONGEST_KEPT:
            return super().__call__(name, value)
        if len(name) + 2 + len(value) < SHORTEST_FOLD and name.lower() in ID_HEADERS and SHORT_IDS.fullmatch(value):
            return _Ids(name, value)
        return self._parsed(name, value)

    @functools.lru_cache(maxsize=4096)
    def _parsed(self, name, value):
        return super().__call__(name, value)


# ---------------------------------------------------------------- values read from a mail, values written
#
# The email package decodes RFC 2047 encoded words (`=?utf-8?q?...?=`) wherever it parses a header, inside a
# message id or an address too, and Python reads U+2028 and NEL as line ends. A value read from a mail and written
# into an answer could so become header lines of the attacker's choosing. So what the referee takes from a mail's
# header is taken from its raw text in strict forms (ids and addresses of RFC 5322's dot-atoms, never an encoded
# word), what it shows of free text is made plain, and `writable` checks every header value at the point of
# writing: a value the email package would not write back as it is never reaches a mail.

MAX_ID = 250  # characters of a message id taken from a mail (RFC 5322 sets none; a line holds 998)
UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]|=\?")  # controls, line ends of any kind, an encoded word
_NAME = r"[^\x00-\x1f\x7f-\x9f\u2028\u2029\"<>\\,;:@()\[\]]+"  # a display name that needs no quoting
NAMED_ADDRESS = re.compile(f"({_NAME}) <({ADDRESS.pattern})>")
_ANGLED = re.compile(r"<[^<>\s]*>")


def is_id(text: str) -> bool:
    """A message id the referee may take from a mail and write into another: `<dot-atoms@dot-atoms>`, at most
    MAX_ID characters, no encoded word."""
    return len(text) <= MAX_ID and ENCODED_WORD not in text and re.fullmatch(_ID, text) is not None


def ids(raw: str) -> list[str]:
    """The message ids of a header's raw text that the referee may write back (see `is_id`); the rest are left out."""
    return [found for found in _ANGLED.findall(raw or "") if is_id(found)]


def plain(text: str, limit: int | None = None) -> str:
    """Free text from a mail (a subject) as it may be shown in a header: control characters and line ends of any
    kind made spaces, an encoded word's opening broken (`= ?`), spaces collapsed."""
    text = " ".join(UNSAFE.sub(lambda m: "= ?" if m.group() == ENCODED_WORD else " ", text).split())
    return text[:limit] if limit is not None else text


def writable(name: str, value: str) -> str:
    """`value`, if the email package writes it as it is and reads back the same; ValueError otherwise."""
    kind = name.lower()
    if kind in ID_HEADERS:
        fine = bool(value) and all(is_id(part) for part in value.split(" "))
    elif kind in ("from", "to"):
        named = NAMED_ADDRESS.fullmatch(value)
        fine = is_writable(value) or (named is not None and is_writable(named.group(2))
                                     and UNSAFE.search(named.group(1)) is None
                                     and named.group(1) == named.group(1).strip())
    else:
        fine = UNSAFE.search(value) is None and value == " ".join(value.split())
    if not fine:
        raise ValueError(f"the {name} header {value[:80]!r} cannot be written as it is")
    return value
