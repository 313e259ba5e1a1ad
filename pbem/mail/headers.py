"""The email package's header registry, made cheap for a batch of mail.

The stock registry builds a new class for every header of every mail, parses every value each time it is set or
read, and folds every header each time a mail is written. A batch writes the same addresses, game tags and thread
roots into many mails and reads the same Content-Type in every message: here each header's class is made once,
each (name, value) is parsed once, and each parsed header remembers how it folds. A parsed header is immutable,
so one object can serve every mail that carries it; the output is the email package's own, byte for byte (a test
compares).
"""
from __future__ import annotations

import functools
from email.headerregistry import BaseHeader, HeaderRegistry

LONGEST_KEPT = 998  # longer values (a hostile header) are parsed every time, never kept


class _FoldsOnce(BaseHeader):
    """A header that folds once per policy (policies are immutable: the same object folds the same way)."""

    def fold(self, *, policy):
        folded = self.__dict__.get("_folded")
        if folded is None or folded[0] is not policy:
            folded = (policy, super().fold(policy=policy))
            self._folded = folded
        return folded[1]


class Headers(HeaderRegistry):
    def __init__(self):
        super().__init__(base_class=_FoldsOnce)

    @functools.lru_cache(maxsize=None)
    def __getitem__(self, name):
        return super().__getitem__(name)

    def __call__(self, name, value):
        if type(value) is str and len(value) <= LONGEST_KEPT:
            return self._parsed(name, value)
        return super().__call__(name, value)

    @functools.lru_cache(maxsize=4096)
    def _parsed(self, name, value):
        return super().__call__(name, value)
