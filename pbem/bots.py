"""The random bot: picks uniformly among the legal moves, then a value inside a form (a range, a choice of words).

A move made here may not be canonical yet (a `set` field's words in the order drawn): callers pass it through
`Game.normalise` (its text and back) before applying it, as the engine does with a submitted move.
"""
from __future__ import annotations

import random


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


def playout_choice(game, state: dict, player: str, legal: list[dict], rnd: random.Random) -> dict:
    """The move of a play-out or demo bot: uniformly random, except in a game whose uniformly random play cannot
    reach its end (meta.yaml `playouts: {greedy: share}`), where that share of the moves is chosen by the game's own
    greedy bot (from the player's view). Games without the key draw exactly as `choose` does."""
    share = game.meta.get("playouts", {}).get("greedy", 0)
    if share and rnd.random() < share:
        return game.bot.choose(game.rules.view(state, player), legal, rnd)
    return choose(legal, rnd)


def _lowest(value):
    if not isinstance(value, dict):
        return value
    return value["from"][: value["min"]] if "from" in value else value["min"]


def first_legal(legal: list[dict]) -> dict:
    """The referee's choice for a player who resigned: the first legal move, the least of each form (the lowest
    value of a range, the first words of a choice, as few as allowed)."""
    return {key: _lowest(value) for key, value in legal[0].items()}
