"""A player's lines read as the referee reads them: a turn's steps (`;` between them), a queue set without a move,
and whether a line is for the referee at all (a move, a step, a command) or a greeting to leave out."""
from __future__ import annotations

from ..engine import engine
from ..notation import split_steps
from ..play import plans
from . import parse


def parses(gd: engine.GameDir, text: str) -> bool:
    """Is the line a move, a queued step or a command (not a greeting or a sign-off)?"""
    if text.strip().lower() in parse.COMMANDS or queue_only([text]) is not None:
        return True
    return bool(split_steps(text)) and plans.reads_as_item(gd.game, text, gd.players)


def queue_only(texts: list[str]) -> list[str] | None:
    """The queue a mail sets without a move: the lines after a `queue` line (`queue cancel`: none, and standing
    orders withdrawn), or standing orders alone; None for a move."""
    words = [" ".join(text.lower().split()) for text in texts]
    if words and words[0] == "queue cancel":
        return ["cancel", "standing cancel"] + texts[1:]
    if words and words[0].split(" ", 1)[0] == "queue":
        first = texts[0].strip()[len("queue"):].strip()
        return ([first] if first else []) + texts[1:]
    if words and all(word.startswith(("standing ", "standing:")) or word == "cancel" for word in words):
        return texts
    return None
