"""The Great Heartland Hauling Co.: its decisions, by the names of meta.yaml `decisions`, each one's legal moves and
their effect (pbem.decisions.Handler): the setup decisions (setup.py), then a turn's phases (phases/): movement
(route, payment, towing), actions (truck-stop upgrade, load / unload / discard), cards (refill); `advance` runs the
course of the game between decisions (phases/turn.py: the setup decisions, each turn's phases in order, the end).
pbem builds the engine's contract from this table, setup.py, views.py and scoring.py. See rules.md for every
ruling.
"""
from __future__ import annotations

from pbem.decisions import Handler

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

advance = turn.advance
