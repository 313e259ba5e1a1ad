"""Summit Race: the engine's contract (pbem/contract.py) over the game's modules.

setup.py deals; phases/turn.py holds the decisions of a turn and phases/deck.py the deck; scoring.py says when the
game is over and who won; views.py what each player may see. The pending decision is the top frame of
`state["stack"]`, decided by its handler below. The rules and every ruling are in rules.md.
"""
from __future__ import annotations

from pbem import decisions
from pbem.decisions import Handler

from . import scoring, views
from . import setup as setting_up
from .phases import turn

HANDLERS = {
    "turn": Handler(turn.legal_turn, turn.apply_turn),
    "discard": Handler(turn.legal_discard, turn.apply_discard),
}


def setup(players: list[str], options: dict, components: dict, rng) -> dict:
    state = setting_up.setup(players, options, components, rng)
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
