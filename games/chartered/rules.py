"""Chartered: The Golden Age (Jolly Dutch, 2019): the engine's contract (pbem/contract.py) over the game's modules.

setup.py checks the components and deals; turn.py holds every decision of a turn (legal moves and their effect);
merger.py builds, founds and merges; shares.py keeps money, shares and flags; scoring.py ends the game; views.py
says what each player may see. Pending decisions are frames on `state["stack"]` (the top is last). Rulings and
the reasons for every designed number are in rules.md.
"""
from __future__ import annotations

from pbem import decisions

from . import scoring, setup as setting_up, turn, views

RULES_VERSION = setting_up.RULES_VERSION


def setup(players: list[str], options: dict, components: dict, rng) -> dict:
    state = setting_up.setup(players, options, components, rng)
    # ruling: the first player is drawn at random (the French rules do not say who starts).
    turn.begin_turn(state, rng.choice(list(players), what="first player", public=True))
    return state


def pending(state: dict) -> dict | None:
    return decisions.pending(state["stack"], state["over"])


def legal_moves(state: dict, player: str) -> list[dict]:
    frame = decisions.frame_for(state["stack"], state["over"], player)
    if frame is None:
        return []
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
