"""A bot's level, as a club chooses it for a seat the referee plays: `random`, `greedy` (the game's own heuristic
player) or `search` (pbem.play.search: a few moves weighed by playing each on in positions imagined from the view),
with a budget of simulations a decision (`search:200`; `search` alone: the game's own, meta.yaml `search`).

Every level decides from what its seat may see: the player's view and the legal moves (and, for the search, the
game's components, which are public), never the position.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import bots
from ..contract import PbemError

if TYPE_CHECKING:  # the generators are passed in: random is imported by whoever makes one
    import random

KINDS = ("random", "greedy", "search")
MAX_BUDGET = 100_000  # simulations a decision: far beyond any sensible search (a decision would take hours)


class Level:
    """A bot's level: its kind and, for the search, its budget of simulations a decision (None: the game's own
    default). Written `random`, `greedy`, `search` or `search:N`."""

    __slots__ = ("kind", "budget")

    def __init__(self, kind: str, budget: int | None = None):
        self.kind, self.budget = kind, budget

    def __str__(self) -> str:
        return f"{self.kind}:{self.budget}" if self.budget is not None else self.kind

    def __repr__(self) -> str:
        return f"Level({str(self)!r})"

    def played(self, game) -> Level:
        """The level as it plays in this game: the search with its budget named (a log entry records it, so the
        move is recomputed with that very budget whatever the default becomes), or the greedy bot for a game the
        search cannot play (a plug-in without an `unseen` module)."""
        if self.kind != "search":
            return self
        if game.unseen is None:
            return Level("greedy")
        from .search import default_budget
        return Level("search", self.budget or default_budget(game))


def parse_level(text: str) -> Level:
    """`random`, `greedy`, `search` or `search:N` (N simulations a decision, 1 to MAX_BUDGET); anything else is
    refused with a message naming the levels (PbemError, exit 2)."""
    kind, colon, budget = str(text).strip().lower().partition(":")
    shown = str(text)[:40]
    if kind not in KINDS:
        raise PbemError(f"there is no bot level {shown!r}: the levels are random, greedy and search (search:N for N "
                        f"simulations a decision)")
    if not colon:
        return Level(kind)
    if kind != "search":
        raise PbemError(f"{shown!r}: only the search bot takes a budget (search:N)")
    if not budget.isdigit() or not 1 <= int(budget) <= MAX_BUDGET:
        raise PbemError(f"{shown!r}: the search's budget is a number of simulations a decision, from 1 to "
                        f"{MAX_BUDGET} (search:200)")
    return Level(kind, int(budget))


def decide(game, level: str | Level, view: dict, legal: list[dict], rnd: random.Random,
           components=None) -> dict:
    """The move a bot of this level (a Level or its text) makes, in canonical form. `game` is a registry.Game;
    `view` the mover's view; `components` the ones the game was set up with, or a function that reads them (the
    search imagines positions from them, and reads them only when it searches; default: the game's own)."""
    level = (level if isinstance(level, Level) else parse_level(level)).played(game)
    if level.kind != "search":
        return bots.decide(game, level.kind, view, legal, rnd)
    greedy = bots.decide(game, "greedy", view, legal, rnd)
    from . import search
    move = search.choose(game, view, legal, rnd, level.budget, components or (lambda: game.own_components), greedy)
    return greedy if move is None else move


def seat_levels(specs, players: list[str], game, before: dict[str, str] | None = None) -> dict[str, str]:
    """Each seat's level from `[PLAYER=]LEVEL` specs (a level without a player: every seat, before the named ones),
    the others as `before` (default: every seat's search); each as it plays in `game` (the search with its budget
    named). A player who does not play, a level that is none or a seat named twice is refused (PbemError, exit
    2)."""
    chosen = dict(before) if before else dict.fromkeys(players, "search")
    named = set()
    for spec in sorted(specs, key=lambda text: "=" in text):
        player, equals, level = spec.rpartition("=") if "=" in spec else ("", "", spec)
        player = player.strip()
        if equals and player not in chosen:
            raise PbemError(f"{spec[:60]!r}: {player[:32]!r} does not play (players: {', '.join(players)})")
        if player in named:
            raise PbemError(f"{spec[:60]!r}: {player}'s bot level is given twice: give it once")
        named.add(player)
        for seat in [player] if equals else players:
            chosen[seat] = level
    return {seat: str(parse_level(level).played(game)) for seat, level in chosen.items()}


def greedy_instead(game, texts) -> str | None:
    """The note for an organiser who chose the search (`texts`: the levels chosen) in a game it cannot play (a
    game without unseen.py): its greedy bot plays those seats. None otherwise."""
    if game.unseen is not None or not any(parse_level(text).kind == "search" for text in texts):
        return None
    return (f"{game.title} cannot be searched (the game has no unseen.py): its greedy bot plays the seats given the "
            f"search")
