"""Chartered: The Golden Age (Jolly Dutch, 2019): the engine's contract (pbem/contract.py) over the game's modules.

setup.py checks the components and deals; turn.py holds every decision of a turn (legal moves and their effect);
merger.py builds, founds and merges; shares.py keeps money, shares and flags; scoring.py ends the game; views.py
says what each player may see. Pending decisions are frames on `state["stack"]` (the top is last). Rulings and
the reasons for every designed number are in rules.md.
"""
from __future__ import annotations

from . import scoring, setup as setting_up, turn, views

def setup(players: list[str], options: dict, components: dict, rng) -> dict:
    state = setting_up.setup(players, options, components, rng)
    # ruling: the first player is drawn at random (the French rules do not say who starts).
    turn.begin_turn(state, rng.choice(list(players), what="first player", public=True))
    return state


def pending(state: dict) -> dict | None:
    if state["over"] or not state["stack"]:
        return None
    frame = state["stack"][-1]
    return {"player": frame["player"], "decision": frame["decision"], "fresh_info": frame["fresh_info"]}


def legal_moves(state: dict, player: str) -> list[dict]:
    decision = pending(state)
    if decision is None or decision["player"] != player:
        return []
    frame = state["stack"][-1]
    name = frame["decision"]
    if name == "found_company":
        return turn.legal_found_company(state, player, frame["plot"])
    if name == "choose_survivor":
        return turn.legal_choose_survivor(state, player, frame["tied"])
    return LEGAL[name](state, player)


LEGAL = {
    "take_turn": turn.legal_take_turn,
    "buy_card": turn.legal_buy_card,
    "raise_funds": turn.legal_raise_funds,
    "trade_shares": turn.legal_trade_shares,
}
APPLY = {
    "take_turn": turn.apply_take_turn,
    "buy_card": turn.apply_buy_card,
    "raise_funds": turn.apply_raise_funds,
    "trade_shares": turn.apply_trade_shares,
}


def apply(state: dict, player: str, move: dict, rng) -> dict:
    frame = state["stack"].pop()
    name = frame["decision"]
    if name == "found_company":
        turn.apply_found_company(state, player, move, frame["plot"])
    elif name == "choose_survivor":
        turn.apply_choose_survivor(state, player, move, frame)
    else:
        APPLY[name](state, player, move, rng)
    return state


def view(state: dict, player: str | None) -> dict:
    return views.view(state, player)


def result(state: dict) -> list[dict]:
    return scoring.result(state)
