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

LONGEST_KEPT = 998  # longer values (a hostile header) are parsed every time, never kept
ID_HEADERS = frozenset({"message-id", "in-reply-to", "references"})
_ATOMS = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"  # RFC 5322 dot-atom-text
_ID = f"<{_ATOMS}@{_ATOMS}>"
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
