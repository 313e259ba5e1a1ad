"""Coal Baron's decisions, by the names of meta.yaml `decisions`: each one's legal moves and their effect
(pbem.decisions.Handler), and the end of a turn once nothing is left to decide in it. pbem builds the engine's
contract from this table, setup.py, views.py and scoring.py."""
from __future__ import annotations

from pbem.decisions import Handler

from .phases import draft, mining, placement, shifts, tiles
from .scoring import is_over

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


def advance(state: dict, rng) -> None:
    """A player's turn is over when its last decision leaves the stack empty: the next player's comes."""
    if not state["stack"] and not is_over(state):
        shifts.end_turn(state)
