"""Coal Baron: the engine's contract (pbem/contract.py) over the game's modules.

setup.py copies the components and starts the order draft; the phases (phases/) are the draft, the shifts and
their turns (and the phase-card variant's rounds), placing workers, tiles and the draw-5 choices, and mining;
scoring.py scores the shifts and the end; views.py says what each player may see. Pending decisions are frames
on `state["stack"]` (the top is last), each decided by its handler below. Rulings are in rules.md.
"""
from __future__ import annotations

from pbem import decisions
from pbem.decisions import Handler

from . import scoring, views
from . import setup as setting_up
from .phases import draft, mining, placement, shifts, tiles

HANDLERS = {
    "draft_orders": Handler(draft.legal_draft, draft.draft_orders),
    "pick_phase_card": Handler(shifts.legal_pick, shifts.pick_phase_card),
    "place_workers": Handler(placement.legal_place, placement.place),
    "place_or_pass": Handler(placement.legal_place, placement.place),
    "mine": Handler(mining.legal_mine, mining.mine),
    "keep_tile": Handler(tiles.legal_keep, tiles.keep_card),
    "keep_order": Handler(tiles.legal_keep, tiles.keep_card),
    "return_tiles": Handler(tiles.legal_return, tiles.return_cards),
    "return_orders": Handler(tiles.legal_return, tiles.return_cards),
    "choose_cube": Handler(tiles.legal_cube, tiles.choose_cube),
    "choose_substitutes": Handler(mining.legal_substitutes, mining.substitute_cubes),
}


def setup(players, options, components, rng):
    return setting_up.setup(players, options, components, rng)


def pending(state):
    return decisions.pending(state["stack"], scoring.is_over(state))


def legal_moves(state, player):
    return decisions.legal_moves(HANDLERS, state, player, scoring.is_over(state))


def apply(state, player, move, rng):
    decisions.apply(HANDLERS, state, move, rng)
    if not state["stack"] and not scoring.is_over(state):
        shifts.end_turn(state)
    return state


def view(state, player):
    return views.view(state, player)


def result(state):
    return scoring.result(state)
