"""Takeback by consent, as pure functions of a game and its log (no files): which decision a player may take back,
and whether anything was revealed by it or after it, which forbids it.

A takeback is never a rewrite of the log: a request, each other player's answer and the referee's outcome are
entries of their own (pbem.play.turns.TAKEBACK_WORDS). A granted one puts the game back to the position before the
decision taken back; every move after it is undone too (the others agreed to it). What forbids it is what the
rules know: a chance record (a card drawn by the generator, a die rolled, a deck shuffled), a decision that showed
its player new hidden information (`fresh_info`), a resignation or a seat handed on in between, and a part of the
state the game declares hidden (meta.yaml `takeback: hidden:`, paths such as `deck` or `hands.*`: a deck drawn
from, a hand a card left or joined) that changed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..messages import Message, lazy
from .turns import ADMIN_WORDS, TAKEBACK_GRANTED, TAKEBACK_REFUSED, TAKEBACK_REQUEST

if TYPE_CHECKING:
    from ..store.registry import Game


def is_decision(entry: dict, player: str) -> bool:
    """Is this log entry a decision of `player`: moves of the game they sent (by themselves, by their queue, or
    entered by the referee on their word), not one the referee or a bot played for them, nor an entry of the
    engine's own (resign, replace, a takeback's)?"""
    if entry["player"] != player or any(text in ADMIN_WORDS for text in entry["moves"]):
        return False
    return entry["by"] == "player" or (entry["by"] == "referee" and "reason" not in entry)


def last_decision(entries: list[dict], player: str) -> int | None:
    """The number of `player`'s last decision in the log, None when they have made none since the start or since
    the last takeback granted (a takeback never reaches back past another: what that one undid is not theirs)."""
    for entry in reversed(entries):
        if entry["moves"] == [TAKEBACK_GRANTED]:
            return None
        if is_decision(entry, player):
            return entry["number"]
    return None


def granted_targets(entries: list[dict]) -> dict[int, int]:
    """For each takeback the log grants, the decision it takes back: {the grant's number: the decision's}, read
    from the entries alone (a request names its player's last decision before it), so that a replay knows which
    positions to keep before it reaches them."""
    targets, asked = {}, None
    for index, entry in enumerate(entries):
        word = entry["moves"][0] if len(entry["moves"]) == 1 else None
        if word == TAKEBACK_REQUEST:
            asked = last_decision(entries[:index], entry["player"])
        elif word == TAKEBACK_REFUSED:
            asked = None
        elif word == TAKEBACK_GRANTED:
            if asked is not None:
                targets[entry["number"]] = asked
            asked = None
    return targets


def hidden_parts(game: Game, state: dict) -> list:
    """The parts of the state the game declares hidden from someone (meta.yaml `takeback: hidden:`, dotted paths;
    `*` stands for every value of a mapping or item of a list), as they stand."""
    return [_values(state, path.split(".")) for path in (game.meta.get("takeback") or {}).get("hidden", [])]


def _values(data, keys: list[str]):
    if not keys:
        return data
    head, rest = keys[0], keys[1:]
    if head == "*":
        items = data.values() if isinstance(data, dict) else data
        return [_values(item, rest) for item in items]
    return _values(data.get(head) if isinstance(data, dict) else None, rest)


def revealed(game: Game, before: dict, steps: list[tuple[dict, dict]]) -> Message | None:
    """Why the moves of `steps` ((log entry, the state after it), in order, from the position `before`) cannot
    be taken back, in the player's words; None when none of them revealed anything."""
    hidden = hidden_parts(game, before)
    for entry, state in steps:
        number = entry["number"]
        if any(text in ADMIN_WORDS and not text.startswith("takeback") for text in entry["moves"]):
            return lazy("a seat resigned or was handed on at move {number}: a takeback cannot undo that",
                        number=number)
        if entry["chance"]:
            return lazy("move {number} drew from a shuffled deck or rolled dice: what it showed cannot be unseen",
                        number=number)
        pending = game.rules.pending(state)
        if pending is not None and pending.get("fresh_info") and not _is_takeback(entry):
            return lazy("after move {number} {player} was shown hidden information: it cannot be unseen",
                        number=number, player=pending["player"])
        if hidden_parts(game, state) != hidden:
            return lazy("move {number} drew or showed cards hidden from a player (a deck, a hand): what it showed "
                        "cannot be unseen", number=number)
    return None


def _is_takeback(entry: dict) -> bool:
    return all(text.startswith("takeback") for text in entry["moves"])


def waiting_for(players: list[str], requester: str, resigned: list[str], bots: dict | None) -> list[str]:
    """Who must agree to a takeback: every other player still in the game (a resigned seat and a bot's seat have
    no say: the referee plays them, and the move undone is played again for them as it comes)."""
    return [name for name in players if name != requester and name not in resigned and name not in (bots or {})]
