"""The only source of chance a game may use.

Each submission (and the setup, number 0) gets its own generator derived from the game's secret seed, so a move can
be applied without replaying earlier ones, and the whole game stays a pure function of (seed, log). Every outcome
is recorded as it happens; the engine writes the record to the log and `pbem verify` compares it on replay.
"""
from __future__ import annotations

from functools import cached_property

from .digests import sha256


def commitment(seed: str) -> str:
    """The SHA-256 commitment published at `new`; the seed itself is revealed only when the game ends."""
    return sha256(("pbem-seed:" + seed).encode()).hexdigest()


class Rng:
    """A recording random source. `public=True` marks outcomes every player sees (dice), the rest stay private."""

    def __init__(self, seed: str, game_id: str, number: int):
        self._key = f"{seed}\x00{game_id}\x00{number}"
        self.outcomes: list[dict] = []

    @cached_property
    def _random(self):
        """The generator, made at the first draw: a move that draws nothing (most) does not import `random`."""
        import random
        return random.Random(int.from_bytes(sha256(self._key.encode()).digest(), "big"))

    def _record(self, what: str, result, public: bool):
        self.outcomes.append({"what": what, "result": result, "public": public})
        return result

    def shuffle(self, items: list, what: str, public: bool = False) -> list:
        """A shuffled copy of `items` (the input is left alone)."""
        shuffled = list(items)
        self._random.shuffle(shuffled)
        return self._record(what, shuffled, public)

    def randint(self, low: int, high: int, what: str, public: bool = True) -> int:
        return self._record(what, self._random.randint(low, high), public)

    def roll(self, dice: int = 2, sides: int = 6, what: str = "dice", public: bool = True) -> list[int]:
        return self._record(what, [self._random.randint(1, sides) for _ in range(dice)], public)

    def choice(self, items: list, what: str, public: bool = False):
        return self._record(what, items[self._random.randrange(len(items))], public)
