"""A player's lines read as the referee reads them: a turn's steps (`;` between them), a queue set without a move,
and whether a line is for the referee at all (a move, a step, a command) or a greeting to leave out."""
from __future__ import annotations

from ..contract import PbemError
from ..engine import engine
from ..notation import plain, split_steps
from ..play import plans, words
from . import parse


def parses(gd: engine.GameDir, text: str) -> bool:
    """Is the line a move, a queued step or a command (not a greeting or a sign-off)?"""
    if text.strip().lower() in parse.COMMANDS or queue_only(gd.game, gd.players, [text]) is not None:
        return True
    return bool(split_steps(text)) and plans.reads_as_item(gd.game, text, gd.players)


def queue_only(game, players: list[str], texts: list[str]) -> list[str] | None:
    """The queue a mail sets without a move: the lines after a `queue` line (`queue cancel`: none, and standing
    orders withdrawn), or standing orders alone (and `cancel`); None for a move. The queue's words may be any
    language's, as the help gives them (`queue annuler`, `permanent télégraphe: passer`, `常設 電報: 跳過`)."""
    if not texts:
        return None
    head, _, rest = " ".join(texts[0].split()).partition(" ")
    if head.lower() == "queue":
        if rest and _notation(game, players, rest) == plans.CANCEL:
            return [plans.CANCEL, f"{plans.STANDING} {plans.CANCEL}"] + texts[1:]
        return ([rest] if rest else []) + texts[1:]
    if all(_is_queue_order(_notation(game, players, text)) for text in texts):
        return texts
    return None


def _is_queue_order(line: str) -> bool:
    """A standing order, its withdrawal, or `cancel` (the queue dropped)."""
    return line == plans.CANCEL or line.replace(":", " ").split(" ", 1)[0] == plans.STANDING


def _notation(game, players: list[str], text: str) -> str:
    """The line in the notation's words, lower case and single-spaced (as it is when it reads so already); as
    written when its words name more than one thing (read as a move, its refusal then says why)."""
    line = " ".join(plain(text).lower().split())
    if not line or _is_queue_order(line):
        return line
    try:
        return " ".join(words.canonical(game, text, players).lower().split())
    except PbemError:
        return line
