"""Summit Race's decisions, by the names of meta.yaml `decisions`: each one's legal moves and their effect
(pbem.decisions.Handler). pbem builds the engine's contract from this table, setup.py, views.py and scoring.py."""
from __future__ import annotations

from pbem.decisions import Handler

from .phases import turn

HANDLERS = {
    "turn": Handler(turn.legal_turn, turn.apply_turn),
    "discard": Handler(turn.legal_discard, turn.apply_discard),
}
