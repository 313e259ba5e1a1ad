"""The mayors: who holds a town's Maire card, and the fee a new concession pays them."""
from __future__ import annotations

from .common import discard, owned, transfer


def mayor_fee(state: dict, town: str) -> int:
    """The French rules: the mayor receives as much as he has concessions of his town; a Governor doubles it."""
    mayor = state["mayors"][town]
    if mayor is None:
        return 0
    fee = len(owned(state, mayor, town))
    governor = state["governor"]
    if governor and governor["town"] == town:
        fee *= state["cards"][governor["card"]]["factor"]
    return fee


def pay_mayor_fee(state: dict, taker: str, town: str) -> None:
    mayor = state["mayors"][town]
    if mayor is not None and mayor != taker:
        paid = transfer(state, taker, mayor, mayor_fee(state, town))
        state["turn"]["fees"].append({"player": taker, "mayor": mayor, "town": town, "amount": paid})


def appoint_mayor(state: dict, town: str) -> None:
    """The French rules: the Maire card goes to the player with the most concessions of the town, at least 2.
    ruling: the mayor keeps it while nobody has more (the English rules: only MORE mines take it); when others
    have more and the most is tied between them, or the mayor has no concession there left, it goes back aside
    until one player alone has the most. A Governor leaves with the mayorship (the English rules)."""
    counts = {player: len(owned(state, player, town)) for player in state["players"]}
    best = max(counts.values())
    leaders = [player for player in state["players"] if counts[player] == best]
    mayor = state["mayors"][town]
    if mayor is not None and 0 < counts[mayor] == best:
        new = mayor
    elif best >= 2 and len(leaders) == 1:
        new = leaders[0]
    else:
        new = None
    if new != mayor:
        state["mayors"][town] = new
        governor = state["governor"]
        if governor and governor["town"] == town:
            discard(state, governor["card"])
            state["governor"] = None
