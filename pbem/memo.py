"""Results worked out once and kept, up to a bound. A search's rollouts ask the same questions thousands of times a
decision (a board's placing, a map's routes, a move's parse, a game's printed spaces); what answers them never
changes within a game, so each answer is kept. The bound keeps a long batch's memory flat: full, the store is
emptied whole, which costs one decision's questions again and is as good as dropping the oldest where a process
works on one game at a time."""
from __future__ import annotations

from typing import Callable, Hashable


class Bounded:
    """At most `most` answers, each made by its `make` the first time its key is asked."""

    __slots__ = ("most", "known")

    def __init__(self, most: int):
        self.most, self.known = most, {}

    def get(self, key: Hashable, make: Callable[[], object]):
        found = self.known.get(key)
        if found is None:
            found = self._put(key, make())
        return found

    def of(self, thing: object, make: Callable[[], object], *context: Hashable):
        """The answer for `thing` itself (a game's components, which a state shares and a rollout copies), kept by
        its id with the thing, so an id used again by a new object once the old one is gone is not taken for it;
        `context`: what else the answer depends on, compared by value."""
        found = self.known.get(id(thing))
        if found is None or found[0] is not thing or found[1] != context:
            found = self._put(id(thing), (thing, context, make()))
        return found[2]

    def _put(self, key: Hashable, value):
        if len(self.known) >= self.most:
            self.known.clear()
        self.known[key] = value
        return value
