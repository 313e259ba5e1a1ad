"""Refusals that help: a move not legal now says why and what is, a word the game does not know gets the nearest
legal moves ("did you mean"), and a decision is named by what it asks of the player, never by its internal name.

Each sentence is whole, with named placeholders (a translation layer turns them into catalogue messages). Why a
move is not legal comes from two layers: the game's own `explain_refusal(view, move)` in its report module, when it
has one and can say more from the player's view ("you hold 9 gold"; pbem.contract), and the generic one here: a
move whose word is legal now with other values is told those values ("bid takes 4 to 14 now"), a word legal now
with no value at all is told so.
"""
from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING

from ..contract import PbemError

if TYPE_CHECKING:
    from ..store.registry import Game

MAX_LEGAL_SHOWN = 40
MAX_GUESSES = 3
NOT_LEGAL = "{step} is not legal now: {why}. Your decision: {decision}. Legal now: {legal}."
OTHER_VALUES = "{word} takes {values} now"
NOT_NOW = "no {word} move is legal now"
ALONE = "{word} is legal now without a value: write {word} alone"
UNKNOWN = "{text} is not a move of {title}. Did you mean {guesses}? Legal now: {legal}."
UNKNOWN_NO_GUESS = "{text} is not a move of {title}. Legal now: {legal}."
NOT_YOUR_TURN = "it is {player}'s turn ({decision}), not {other}'s"
RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)$")


def decision_words(game: Game, decision: str) -> str:
    """A decision as the player reads it: its description in meta.yaml."""
    return game.meta.get("decisions", {}).get(decision) or decision.replace("_", " ")


def legal_list(game: Game, legal_moves: list[dict]) -> str:
    shown = [game.format_move(m) for m in legal_moves[:MAX_LEGAL_SHOWN]]
    more = len(legal_moves) - MAX_LEGAL_SHOWN
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def values_phrase(values: list[str]) -> str:
    """`4 to 14` for a range (written 4..14), whole numbers from the lowest to the highest when they run on, else
    the values one by one."""
    if len(values) == 1 and RANGE.match(values[0]):
        low, high = RANGE.match(values[0]).groups()
        return f"{low} to {high}"
    numbers = sorted(int(v) for v in values if re.fullmatch(r"-?\d+", v))
    if len(numbers) == len(values) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]} to {numbers[-1]}"
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + f" or {values[-1]}"


def why_not(game: Game, text: str, legal_moves: list[dict], view: dict | None, move: dict | None) -> str:
    """Why the move `text` is not legal: the game's own reason from the player's view, else the generic one."""
    explain = getattr(game.report, "explain_refusal", None)
    said = explain(view, move) if explain and view is not None and move is not None else None
    if said:
        return said
    word = text.split()[0] if text.split() else text
    values = [m.split(None, 1)[1] for m in map(game.format_move, legal_moves)
              if m.split()[0] == word and len(m.split()) > 1]
    if values:
        return OTHER_VALUES.format(word=word, values=values_phrase(values))
    if any(game.format_move(m) == word for m in legal_moves):
        return ALONE.format(word=word)
    return NOT_NOW.format(word=word)


def illegal(game: Game, step: str, decision: str, legal_moves: list[dict], *, text: str | None = None,
            view: dict | None = None, move: dict | None = None) -> PbemError:
    """The refusal of a move not legal now (`step`: how the refusal names it; `text`: the move as written)."""
    why = why_not(game, text or step.strip("'"), legal_moves, view, move)
    error = PbemError(NOT_LEGAL.format(step=step, why=why, decision=decision_words(game, decision),
                                       legal=legal_list(game, legal_moves)))
    error.legal = [game.format_move(m) for m in legal_moves]  # as data, for transports that list them their way
    return error


def unknown(game: Game, text: str, legal_moves: list[dict]) -> PbemError:
    """The refusal of words that are no move of the game: the legal moves nearest them, and all legal now."""
    shown = [game.format_move(m) for m in legal_moves]
    guesses = difflib.get_close_matches(text, shown, n=MAX_GUESSES, cutoff=0.5)
    if not guesses:  # a misspelt word: its nearest word of a legal move, whatever follows it
        words = {move.split()[0]: move for move in shown}
        guesses = [words[w] for w in difflib.get_close_matches(text.split()[0], list(words), n=MAX_GUESSES)]
    legal = legal_list(game, legal_moves)
    if not guesses:
        return PbemError(UNKNOWN_NO_GUESS.format(text=repr(text), title=game.title, legal=legal))
    return PbemError(UNKNOWN.format(text=repr(text), title=game.title, legal=legal,
                                    guesses=" or ".join(f"'{guess}'" for guess in guesses)))
