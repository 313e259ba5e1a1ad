"""Summit Race's queue words (meta.yaml `queues:`): a choice form and two conditions. Each reads the view its
declaration names (the climber's own for a hand), never the state; this module imports nothing."""
from __future__ import annotations


def highest(view: dict, legal: list[dict]) -> dict | None:
    """`climb highest`: the highest card the player may climb with; None when no card fits."""
    climbs = [move for move in legal if move["action"] == "climb"]
    return max(climbs, key=lambda move: move["card"]) if climbs else None


def holds(view: dict, player: str, card: int) -> bool:
    return view["private"]["player"] == player and card in view["private"]["hand"]


def height(view: dict, player: str, height: int) -> bool:
    return any(c["name"] == player and c["height"] >= height for c in view["players"])
