"""Chartered: The Golden Age (Jolly Dutch, 2019): the engine's contract (pbem/contract.py) over the game's modules.

setup.py checks the components and deals; the phases (phases/) are a turn's decisions (turn.py), building,
founding and merging (merger.py), money, shares and flags (shares.py) and the board (board.py); scoring.py ends
the game; views.py says what each player may see. Pending decisions are frames on `state["stack"]` (the top is
last), each decided by its handler below. Rulings and the reasons for every designed number are in rules.md.
"""
from __future__ import annotations

from pbem import decisions
from pbem.decisions import Handler

from . import scoring, views
from . import setup as setting_up
from .phases import turn

HANDLERS = {
    "take_turn": Handler(turn.legal_take_turn, turn.apply_take_turn),
    "buy_card": Handler(turn.legal_buy_card, turn.apply_buy_card),
    "raise_funds": Handler(turn.legal_raise_funds, turn.apply_raise_funds),
    "found_company": Handler(turn.legal_found_company, turn.apply_found_company),
    "choose_survivor": Handler(turn.legal_choose_survivor, turn.apply_choose_survivor),
    "trade_shares": Handler(turn.legal_trade_shares, turn.apply_trade_shares),
}


def setup(players: list[str], options: dict, components: dict, rng) -> dict:
    state = setting_up.setup(players, options, components, rng)
    # ruling: the first player is drawn at random (the French rules do not say who starts).
    turn.begin_turn(state, rng.choice(list(players), what="first player", public=True))
    return state


def pending(state: dict) -> dict | None:
    return decisions.pending(state["stack"], scoring.is_over(state))


def legal_moves(state: dict, player: str) -> list[dict]:
    return decisions.legal_moves(HANDLERS, state, player, scoring.is_over(state))


def apply(state: dict, player: str, move: dict, rng) -> dict:
    decisions.apply(HANDLERS, state, move, rng)
    return state


def view(state: dict, player: str | None) -> dict:
    return views.view(state, player)


def result(state: dict) -> list[dict]:
    return scoring.result(state)
