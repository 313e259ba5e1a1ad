"""La Fièvre de l'Or's queue words (meta.yaml `queues:`): the choice forms, the conditions and the events that
disarm a standing order. Everything at this table but the deck's order is public, so each reads the public view,
never the state."""
from __future__ import annotations


def bid_up_to(view: dict, legal: list[dict], limit: int) -> dict | None:
    """`bid up to N`: the lowest bid allowed, while it is at most N (above, the next alternative: `else pass`)."""
    bid = next((move for move in legal if move["action"] == "bid"), None)
    if bid is None or bid["amount"]["min"] > limit:
        return None
    return {"action": "bid", "amount": bid["amount"]["min"]}


def take_best(view: dict, legal: list[dict]) -> dict | None:
    """`take best`: the concession on offer with most nuggets, the first of them by slot; None when only events
    are left."""
    offer = {slot["slot"]: slot["card"] for slot in view["turn"]["offer"] if slot["card"]}
    concessions = [move for move in legal if move["action"] == "take"
                   and offer.get(move["slot"], {}).get("type") == "concession"]
    return max(concessions, key=lambda move: offer[move["slot"]]["nuggets"]) if concessions else None


def offered(view: dict, card: str) -> bool:
    return any(slot["card"] and slot["card"]["id"] == card for slot in view["turn"]["offer"])


def gold(view: dict, player: str, amount: int) -> bool:
    return any(p["name"] == player and p["gold"] >= amount for p in view["players"])


def mayor(view: dict, player: str, town: str) -> bool:
    return any(t["id"] == town and t["mayor"] == player for t in view["towns"])


def high_bid(view: dict, amount: int) -> bool:
    return view["turn"]["high_bid"] is None or view["turn"]["high_bid"] <= amount


def new_offer(view: dict) -> int:
    return view["turn"]["number"]


def turn(view: dict) -> int:
    """The turn under way: its number (the cards on offer, the auction, the choices and the events all in it)."""
    return view["turn"]["number"]


def names(view: dict, move: dict) -> dict:
    """`take new-london-12`: the slot the card of that name lies in (the log records the slot); unchanged when it is
    not on offer (taken, or not revealed: then it is not legal) or the move names nothing by another name."""
    if move["action"] != "take_card":
        return move
    return next(({"action": "take", "slot": slot["slot"]} for slot in view["turn"]["offer"]
                 if slot["card"] and slot["card"]["id"] == move["card"]), move)
