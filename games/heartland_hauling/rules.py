"""The Great Heartland Hauling Co.: the engine's contract (pbem/contract.py) over the game's modules.

setup.py lays out the map and asks for the setup decisions; a turn's phases (phases/) are movement (route,
payment, towing), actions (truck-stop upgrade, load / unload / discard), cards (refill) and ending (end trigger);
phases/turn.py runs them in order; scoring.py scores the end; views.py says what each player may see. Pending
decisions are a stack of frames in state["stack"], each decided by its handler below. legal_moves() is the only
place legality is decided; apply() trusts it. See rules.md for every ruling.
"""
from __future__ import annotations

from pbem import decisions
from pbem.decisions import Handler

from . import scoring, views
from . import setup as setup_phase
from .phases import actions, cards, movement, turn

HANDLERS = {
    "place_location": Handler(setup_phase.legal_place_location, setup_phase.place_location),
    "place_truck_stop": Handler(setup_phase.legal_place_truck_stop, setup_phase.place_truck_stop),
    "drive": Handler(movement.legal_drive, movement.drive),
    "pay": Handler(movement.legal_pay, movement.pay_for_route),
    "buy_upgrade": Handler(actions.legal_buy, actions.decide_upgrade),
    "act": Handler(actions.legal_act, actions.act),
    "refill": Handler(cards.legal_refill, cards.refill),
}


def setup(players, options, components, rng):
    state = setup_phase.setup(players, options, components, rng)
    turn.advance(state, rng)
    return state


def pending(state):
    return decisions.pending(state["stack"], scoring.is_over(state))


def legal_moves(state, player):
    return decisions.legal_moves(HANDLERS, state, player, scoring.is_over(state))


def apply(state, player, move, rng):
    decisions.apply(HANDLERS, state, move, rng)
    turn.advance(state, rng)
    return state


def view(state, player):
    return views.view(state, player)


def result(state):
    return scoring.result(state)
