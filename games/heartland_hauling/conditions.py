"""The Great Heartland Hauling Co.'s queue words (meta.yaml `queues:`): the choice forms, the conditions and the
event that disarms a standing order. Each reads a view (the public one, or the player's own where meta.yaml says
`private`: the hand), never the state."""
from __future__ import annotations


def _most(legal: list[dict], action: str, good: str) -> dict | None:
    entry = next((move for move in legal if move["action"] == action and move["good"] == good), None)
    return None if entry is None else {"action": action, "good": good, "crates": entry["crates"]["max"]}


def load_most(view: dict, legal: list[dict], good: str) -> dict | None:
    """`load most corn`: as many crates as may be loaded here (bills, room, crates on the location)."""
    return _most(legal, "load", good)


def unload_most(view: dict, legal: list[dict], good: str) -> dict | None:
    return _most(legal, "unload", good)


def pay_fuel(view: dict, legal: list[dict]) -> dict | None:
    """`pay fuel`: fuel cards only, the first way listed (the fewest spaces' worth, then by card)."""
    return next((move for move in legal if move["action"] == "fuel"), None)


def take_fuel(view: dict, legal: list[dict]) -> dict | None:
    """`take fuel`: the face-up fuel card worth most spaces."""
    spaces = {card["id"]: card["spaces"] for card in view["fuel"]}
    fuel = [move for move in legal if move["action"] == "take" and move["card"] in spaces]
    return max(fuel, key=lambda move: spaces[move["card"]]) if fuel else None


def holds(view: dict, player: str, card: str) -> bool:
    return view["private"]["player"] == player and card in view["private"]["hand"]


def money(view: dict, player: str, amount: int) -> bool:
    return any(p["name"] == player and p["money"] >= amount for p in view["players"])


def face_up(view: dict, card: str) -> bool:
    return card in view["face_up"]


def carries(view: dict, player: str, good: str) -> bool:
    return any(p["name"] == player and p["cargo"].get(good, 0) > 0 for p in view["players"])


def endgame(view: dict) -> str | None:
    return view["end"]["triggered_by"]
