"""The names a player may write for the notation's own words: every name a report prints for a thing a move takes
can be written in that move (a card for the slot it lies in, a company's code for its id), and the move is read as
the notation records it, so the log keeps one canonical form.

A game declares its names in meta.yaml (`queues: names:`, which read the public view) and says them in its
conditions module's `names(view, move) -> move`: the move as the notation records it, or the move unchanged when
it names nothing by another name. A name is read when the decision comes, from the view of that moment (a card's
slot is the one it lies in then), so a queued step written with a name does not depend on the order of slots.
"""
from __future__ import annotations

from .. import notation
from .plans import vocabulary


def spelled(game, move: dict, sight) -> dict:
    """`move` as the notation records it (pbem.play.queues.Sight gives the views)."""
    spec = vocabulary(game).names
    if spec is None:
        return move
    return game.normalise(game.conditions.names(sight.view("public"), move))


class Table:
    """A sight of one public view only (the names read the public view): a transport's copy of the position."""

    def __init__(self, view: dict):
        self._view = view

    def view(self, reads: str) -> dict:
        return self._view


def spelled_text(game, text: str, view: dict) -> str:
    """One move's text as the notation records it in the position of the public `view` (a git move file in the
    clear must say what the log will); a text that is no plain move of the notation is left as written."""
    try:
        move = game.parse_move(text)
    except notation.NotationError:
        return text
    return game.format_move(spelled(game, move, Table(view)))
