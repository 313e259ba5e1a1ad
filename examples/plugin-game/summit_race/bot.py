"""A greedy climber, deciding from the mover's view only (it never sees another hand or the deck).

Its point of the game: win when a card reaches the summit exactly; send a rival sliding when it can; far from the
summit, climb with the highest card; near it, draw to find the card that lands exactly rather than creep up."""
from __future__ import annotations

import random

NEAR = 5  # within this of the summit, a card that does not land exactly is kept back


def choose(view: dict, legal: list[dict], rnd: random.Random) -> dict:
    hand = view["private"]["hand"]
    me = next(c for c in view["players"] if c["name"] == view["private"]["player"])
    room = view["summit"] - me["height"]
    if legal[0]["action"] == "discard":
        # keep what may still be played, the highest first: throw away a card too big, else the smallest
        too_big = [card for card in hand if card > room]
        return {"action": "discard", "card": max(too_big) if too_big else min(hand)}
    climbs = [move["card"] for move in legal if move["action"] == "climb"]
    rivals = {c["height"] for c in view["players"] if c["name"] != me["name"] and c["height"] > 0}
    if room in climbs:
        return {"action": "climb", "card": room}
    bumping = [card for card in climbs if me["height"] + card in rivals]
    if bumping:
        return {"action": "climb", "card": max(bumping)}
    if climbs and room > NEAR:
        return {"action": "climb", "card": max(climbs)}
    return {"action": "draw"}
