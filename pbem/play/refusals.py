"""Refusals that help: a move not legal now says why and what is, a word the game does not know gets the nearest
legal moves ("did you mean"), and a decision is named by what it asks of the player, never by its internal name.

Each sentence is a whole message of pbem.messages, with named placeholders, rendered in its reader's language. Why a
move is not legal comes from two layers: the game's own `explain_refusal(view, move)` in its report module, when it
has one and can say more from the player's view ("you hold 9 gold"; pbem.contract), and the generic one here: a
move whose word is legal now with other values is told those values ("bid takes 4 to 14 now"), a word legal now
with no value at all is told so.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..contract import PbemError
from ..messages import Message, Words, lazy, nlazy
from .plans import decision_text

if TYPE_CHECKING:
    from ..store.registry import Game

MAX_LEGAL_SHOWN = 40
MAX_GUESSES = 3
RANGE = r"^(-?\d+)\.\.(-?\d+)$"  # compiled at its first use


def legal_list(game: Game, legal_moves: list[dict]):
    """The legal moves in the reader's words (at most MAX_LEGAL_SHOWN, then how many more)."""
    shown = [Words(game.package, game.format_move(m)) for m in legal_moves[:MAX_LEGAL_SHOWN]]
    more = len(legal_moves) - MAX_LEGAL_SHOWN
    if more <= 0:
        return shown
    # TRANSLATORS: {moves}: a list of moves; {count}: how many more are legal besides.
    return nlazy("{moves} and {count} more", "{moves} and {count} more", more, moves=shown, count=more)


def values_phrase(values: list[str]) -> Message | str:
    """`4 to 14` for a range (written 4..14), whole numbers from the lowest to the highest when they run on, else
    the values one by one."""
    if len(values) == 1 and re.match(RANGE, values[0]):
        low, high = re.match(RANGE, values[0]).groups()
        return lazy("{low} to {high}", low=low, high=high)
    numbers = sorted(int(v) for v in values if re.fullmatch(r"-?\d+", v))
    if len(numbers) == len(values) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return lazy("{low} to {high}", low=numbers[0], high=numbers[-1])
    if len(values) == 1:
        return values[0]
    # TRANSLATORS: the values a move takes now: {values} a list of all but the last one.
    return lazy("{values} or {last}", values=values[:-1], last=values[-1])


def why_not(game: Game, text: str, legal_moves: list[dict], view: dict | None, move: dict | None):
    """Why the move `text` is not legal: the game's own reason from the player's view, else the generic one."""
    explain = getattr(game.report, "explain_refusal", None)
    said = explain(view, move) if explain and view is not None and move is not None else None
    if said:
        return said
    word = text.split()[0] if text.split() else text
    values = [m.split(None, 1)[1] for m in map(game.format_move, legal_moves)
              if m.split()[0] == word and len(m.split()) > 1]
    shown = Words(game.package, word)
    if values:
        # TRANSLATORS: {word}: a move's word ("bid"); {values}: what it takes now ("4 to 14").
        return lazy("{word} takes {values} now", word=shown, values=values_phrase(values))
    if any(game.format_move(m) == word for m in legal_moves):
        return lazy("{word} is legal now without a value: write {word} alone", word=shown)
    return lazy("no {word} move is legal now", word=shown)


def illegal(game: Game, step: Message, decision: str, legal_moves: list[dict], *, text: str,
            view: dict | None = None, move: dict | None = None) -> PbemError:
    """The refusal of a move not legal now (`step`: how the refusal names it; `text`: the move as written)."""
    why = why_not(game, text, legal_moves, view, move)
    # TRANSLATORS: {step}: the move refused; {why}: why; {decision}: what the player is asked; {legal}: moves.
    error = PbemError(lazy("{step} is not legal now: {why}. Your decision: {decision}. Legal now: {legal}.",
                           step=step, why=why, decision=decision_text(game, decision),
                           legal=legal_list(game, legal_moves)))
    error.legal = [game.format_move(m) for m in legal_moves]  # as data, for transports that list them their way
    return error


def unknown(game: Game, text: str, legal_moves: list[dict]) -> PbemError:
    """The refusal of words that are no move of the game: the legal moves nearest them, and all legal now."""
    import difflib  # only for words that are no move: a move's start does without it
    shown = [game.format_move(m) for m in legal_moves]
    guesses = difflib.get_close_matches(text, shown, n=MAX_GUESSES, cutoff=0.5)
    if not guesses:  # a misspelt word: its nearest word of a legal move, whatever follows it
        words = {move.split()[0]: move for move in shown}
        guesses = [words[w] for w in difflib.get_close_matches(text.split()[0], list(words), n=MAX_GUESSES)]
    legal, title = legal_list(game, legal_moves), Message(game.package, game.title, {})
    if not guesses:
        return PbemError(lazy("{text} is not a move of {title}. Legal now: {legal}.", text=repr(text),
                              title=title, legal=legal))
    quoted = [lazy("'{move}'", move=Words(game.package, guess)) for guess in guesses]
    # TRANSLATORS: {guesses}: the nearest legal moves, each quoted, to choose from.
    return PbemError(lazy("{text} is not a move of {title}. Did you mean {guesses}? Legal now: {legal}.",
                          text=repr(text), title=title, legal=legal, guesses=_either(quoted)))


def _either(items: list):
    """One item, or the items as alternatives ("'a' or 'b'")."""
    if len(items) == 1:
        return items[0]
    return lazy("{values} or {last}", values=items[:-1], last=items[-1])
