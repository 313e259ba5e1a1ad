"""A seeded random bot: picks uniformly among the legal moves, and a value inside a range."""
from __future__ import annotations

import random


def instantiate(entry: dict, rnd: random.Random) -> dict:
    return {key: rnd.randint(value["min"], value["max"]) if isinstance(value, dict) else value
            for key, value in entry.items()}


def choose(legal: list[dict], rnd: random.Random) -> dict:
    return instantiate(legal[rnd.randrange(len(legal))], rnd)


def first_legal(legal: list[dict]) -> dict:
    """The referee's choice for a player who resigned: the first legal move, the lowest value of a range."""
    return {key: value["min"] if isinstance(value, dict) else value for key, value in legal[0].items()}
