"""Chartered: The Golden Age (Jolly Dutch, 2019): its decisions, by the names of meta.yaml `decisions`, each one's
legal moves and their effect (pbem.decisions.Handler): a turn's (phases/turn.py), building, founding and merging
(merger.py), money, shares and flags (shares.py) on the board (board.py). pbem builds the engine's contract from
this table, setup.py, views.py and scoring.py. Rulings and the reasons for every designed number are in rules.md.
"""
from __future__ import annotations

from pbem.decisions import Handler

from .phases import turn

HANDLERS = {
    "take_turn": Handler(turn.legal_take_turn, turn.apply_take_turn),
    "buy_card": Handler(turn.legal_buy_card, turn.apply_buy_card),
    "raise_funds": Handler(turn.legal_raise_funds, turn.apply_raise_funds),
    "found_company": Handler(turn.legal_found_company, turn.apply_found_company),
    "choose_survivor": Handler(turn.legal_choose_survivor, turn.apply_choose_survivor),
    "trade_shares": Handler(turn.legal_trade_shares, turn.apply_trade_shares),
}
