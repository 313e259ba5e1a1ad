"""The Great Heartland Hauling Co.: the contract (pbem/contract.py) over the phase modules.

setup.py lays out the map and asks for the setup decisions; a turn is movement.py (route, payment, towing),
actions.py (truck-stop upgrade, load / unload / discard), cards.py (refill), ending.py (end trigger, score).
Pending decisions are a stack of frames in state["stack"]; state["turn"]["phase"] says which part of the turn
comes next once the stack is empty. legal_moves() is the only place legality is decided; apply() trusts it.
See rules.md for every ruling.
"""
from __future__ import annotations

from pbem import decisions

from . import actions, cards, ending, movement
from . import setup as setup_phase
from .common import push
from .views import view  # noqa: F401  (part of the contract)

GAME = "heartland-hauling"
RULES_VERSION = 1

LEGAL = {
    "place_location": setup_phase.legal_place_location,
    "place_truck_stop": setup_phase.legal_place_truck_stop,
    "drive": movement.legal_drive,
    "pay": movement.legal_pay,
    "buy_upgrade": actions.legal_buy,
    "act": actions.legal_act,
    "refill": cards.legal_refill,
}

APPLY = {
    "place": setup_phase.place_location,
    "stop": setup_phase.place_truck_stop,
    "move": movement.choose_route,
    "tow": movement.tow_truck,
    "cash": movement.pay_for_route,
    "mixed": movement.pay_for_route,
    "fuel": movement.pay_for_route,
    "buy": actions.buy_upgrade,
    "pass": actions.pass_upgrade,
    "load": actions.load_goods,
    "unload": actions.unload_goods,
    "discard": actions.discard_action,
    "towed": actions.tow_and_discard,
    "draw": cards.draw_from_deck,
    "take": cards.take_face_up,
    "salvage": cards.salvage_card,
}


def setup(players, options, components, rng):
    state = setup_phase.setup(players, options, components, rng)
    advance(state, rng)
    return state


def pending(state):
    return decisions.pending(state["stack"], state["over"])


def legal_moves(state, player):
    frame = decisions.frame_for(state["stack"], state["over"], player)
    return [] if frame is None else LEGAL[frame["decision"]](state, frame)


def apply(state, player, move, rng):
    frame = state["stack"].pop()
    APPLY[move["action"]](state, frame, move, rng)
    advance(state, rng)
    return state


def advance(state, rng):
    """Until someone must decide: the setup decisions, then each turn's phases in order, then the next turn."""
    while not state["stack"] and not state["over"]:
        if state["setup"] is not None:
            if not setup_phase.next_setup_decision(state, rng):
                state["turn"] = ending.new_turn(state["start_player"])
            continue
        turn = state["turn"]
        player, phase = turn["player"], turn["phase"]
        if phase == "drive":
            push(state, "drive", player)
        elif phase == "buy":
            if not actions.begin_buy(state, player):
                turn["phase"] = "act"
        elif phase == "act":
            push(state, "act", player)
        elif phase == "refill":
            if not cards.begin_refill(state, player):
                turn["phase"] = "end"
        else:
            ending.end_turn(state)


def result(state):
    return ending.result(state)
