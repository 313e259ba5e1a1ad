"""Requests as records: the keywords an entry point of the engine takes (how a turn came, what a commit writes
besides the position, a new game, a change of deadlines), gathered in one typed object.

A plain class with slots, not a dataclass or a NamedTuple: defining one of those costs a command a few tenths of a
millisecond to a millisecond at every start (see pbem.store.gamedir), and these are on every move's way.
"""
from __future__ import annotations


class Request:
    """A record of keywords: each field of DEFAULTS (declared in __slots__, with its type as an annotation) is
    the keyword given or its default; an unknown keyword is a TypeError, as for a function."""

    __slots__ = ()
    DEFAULTS: dict = {}

    def __init__(self, **given):
        unknown = sorted(given.keys() - self.DEFAULTS.keys())
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(unknown)}")
        for name, default in self.DEFAULTS.items():
            setattr(self, name, given.get(name, default))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.DEFAULTS)
        return f"{type(self).__name__}({fields})"
