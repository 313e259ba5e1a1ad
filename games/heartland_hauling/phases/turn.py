"""The course of the game between decisions: the setup decisions, then each turn's phases in order (drive, buy,
act, refill), then the next turn. `state["turn"]["phase"]` says which part of the turn comes next once the stack
is empty."""
from __future__ import annotations

from .. import setup as setup_phase
from ..scoring import is_over
from . import actions, cards, ending
from .common import push


def advance(state, rng):
    """Until someone must decide: the setup decisions, then each turn's phases in order, then the next turn."""
    while not state["stack"] and not is_over(state):
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
