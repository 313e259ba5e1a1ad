"""The order draft before shift 1 (the Chinese rules)."""
from __future__ import annotations

from pbem.decisions import push

from .common import new_order, refill_display
from .shifts import begin_shift


def start_draft(state):
    """The Chinese rules: reveal 3 x players + 1 orders; from the start player's right, counter-clockwise, one card
    at a time until each holds 3."""
    players, comp = state["players"], state["components"]
    n = len(players)
    count = comp["draft"]["cards_per_player"] * n + comp["draft"]["extra_cards"]
    revealed, state["order_deck"] = state["order_deck"][:count], state["order_deck"][count:]
    s = players.index(state["start_player"])
    queue = [players[(s - 1 - k) % n] for k in range(comp["draft"]["cards_per_player"] * n)]
    state["draft"] = {"revealed": revealed, "queue": queue[1:]}
    push(state, "draft_orders", queue[0])


def finish_draft(state):
    """The Chinese rules: the leftover cards, then the deck, fill the order spaces (the leftover space first, then
    the others in board order). Leftovers that find no space go back on top of the deck: every card stays in the
    game. Then shift 1 begins."""
    leftover = state["draft"]["revealed"]
    state["draft"] = None
    first = state["components"]["draft"]["leftover_space"]
    spaces = sorted((s for s in state["display"] if state["components"]["spaces"][s]["kind"] == "order"),
                    key=lambda s: s != first)  # stable: the other spaces keep their board order
    for space in spaces:
        if leftover and state["display"][space] is None:
            state["display"][space] = leftover.pop(0)
    state["order_deck"] = leftover + state["order_deck"]
    refill_display(state)
    begin_shift(state)


def legal_draft(state, frame):
    return [{"action": "draft", "order": o} for o in state["draft"]["revealed"]]


def draft_orders(state, frame, move, rng):
    state["draft"]["revealed"].remove(move["order"])
    state["pits"][frame["player"]]["orders"].append(new_order(state, move["order"]))
    queue = state["draft"]["queue"]
    if queue:
        push(state, "draft_orders", queue.pop(0))
    else:
        finish_draft(state)
