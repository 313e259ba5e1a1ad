"""The bots: `random` picks uniformly among the legal moves, then a value inside a form (a range, a choice of words);
`greedy` is the game's own heuristic player (games/<package>/bot.py), which plays the game's point.

Every bot decides from what its seat may see: the player's view and the legal moves, never the full state (a bot
may play for a real player who timed out, and must not peek at hidden cards).
A move made here may not be canonical yet (a `set` field's words in the order drawn): callers pass it through
`Game.normalise` (its text and back) before applying it, as the engine does with a submitted move.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the generators are passed in: random is imported by whoever makes one
    import random

KINDS = ("greedy", "random")


def _pick(value, rnd: random.Random):
    if not isinstance(value, dict):
        return value
    if "from" in value:
        return rnd.sample(value["from"], rnd.randint(value["min"], value["max"]))
    return rnd.randint(value["min"], value["max"])


def instantiate(entry: dict, rnd: random.Random) -> dict:
    return {key: _pick(value, rnd) for key, value in entry.items()}


def choose(legal: list[dict], rnd: random.Random) -> dict:
    return instantiate(legal[rnd.randrange(len(legal))], rnd)


def _lowest(value):
    if not isinstance(value, dict):
        return value
    return value["from"][: value["min"]] if "from" in value else value["min"]


def first_legal(legal: list[dict]) -> dict:
    """The first legal move (a `first-legal` timeout; a resigned seat's last resort), the least of each form (the lowest
    value of a range, the first words of a choice, as few as allowed)."""
    return {key: _lowest(value) for key, value in legal[0].items()}


def resigned_move(game, view: dict, legal: list[dict]) -> dict:
    """The move the referee plays for a seat whose player resigned: the one that changes the game least for the
    others — `pass` where passing is legal, else the game's own choice for the decision (its bot.py `resigned`,
    declared in its rules.md), else the first legal move (the least of each form). Nothing random: a resigned seat
    makes no lucky moves."""
    if {"action": "pass"} in legal:
        return {"action": "pass"}
    chooser = getattr(game.bot, "resigned", None)
    move = chooser(view, legal) if chooser is not None else None
    return first_legal(legal) if move is None else move


def all_random_kind(game, rnd: random.Random) -> str:
    """The bot for a move of a table where every seat is random: `random`, except in a game whose uniformly random
    play cannot reach its end (meta.yaml `playouts: {greedy: share}`: Heartland's random trucks go broke), where the
    greedy bot makes that share of the moves. With a greedy seat at the table such a game ends anyway and the random
    seats stay purely random. Other games draw nothing here, so their seeded games stay as they were."""
    share = game.meta.get("playouts", {}).get("greedy", 0)
    return "greedy" if share and rnd.random() < share else "random"


def decide(game, kind: str, view: dict, legal: list[dict], rnd: random.Random) -> dict:
    """The move a bot of `kind` makes, in canonical form. `game` is a registry.Game; `view` the mover's view."""
    if kind == "greedy":
        return game.normalise(game.bot.choose(view, legal, rnd))
    if kind == "random":
        return game.normalise(choose(legal, rnd))
    raise ValueError(f"no bot {kind!r} (bots: {', '.join(KINDS)})")
