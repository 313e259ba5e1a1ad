"""What players read of the referee's bots: a bot by its level, a bot seat's move marked as the bot's, and the
reasons the log keeps in English for the moves the referee and its bots make (a bot seat's `greedy bot`, a seat
handed on), in the language being read.

A log entry's reason is stored English, as the engine wrote it: a bot seat's names its level (`search:16 bot`,
pbem.play.botmoves), a seat handed on names its new holder (`seat handed to zoe`, `seat handed to the greedy bot`,
pbem.clock.handover). They are read back here and said as whole messages; any other reason is a marked text
(`NP_("reason", ...)`) rendered from the catalogue.
"""
from __future__ import annotations

import re

from ..messages import PBEM, _, ngettext

BY_BOT = "bot"  # the `by` of a bot seat's log entries (pbem.play.botmoves writes it)
REPLACE = "replace"  # the move of a seat handed on (pbem.play.turns)
BOT_REASON = r"(?P<level>(?:random|greedy|search(?::[0-9]+)?)) bot"  # (both compiled at their first use)
HANDED = r"seat handed to (?:the (?P<level>\S+) bot|(?P<holder>[a-z][a-z0-9_-]{0,31}))"


def bot_name(level: str) -> str:
    """The referee's bot of `level` (`random`, `greedy`, `search`, `search:16`) as a player reads it."""
    kind, _colon, budget = level.partition(":")
    if kind == "search" and budget.isdigit():
        # TRANSLATORS: the referee's bot that weighs moves by playing them on; {count}: its simulations a decision.
        return ngettext("search bot ({count} simulation a decision)", "search bot ({count} simulations a decision)",
                        int(budget), count=int(budget))
    if kind == "search":
        return _("search bot")
    if kind == "random":
        # TRANSLATORS: the referee's bot that plays a legal move drawn at random.
        return _("random bot")
    # TRANSLATORS: the referee's bot that plays the game's own heuristic, one move ahead.
    return _("greedy bot")


def entry_level(entry: dict) -> str:
    """The level a bot seat's entry played at: its `bot` field (the referee's log), else what its reason names
    (a public entry)."""
    found = re.fullmatch(BOT_REASON, entry.get("reason") or "")
    return entry.get("bot") or (found.group("level") if found else "greedy")


def reason_text(entry: dict) -> str | None:
    """Why the referee or its bot made an entry's move, in the language being read; None when the entry names no
    reason."""
    reason = entry.get("reason")
    if not reason:
        return None
    if entry.get("by") == BY_BOT:
        return bot_name(entry_level(entry))
    handed = re.fullmatch(HANDED, reason) if entry.get("moves") == [REPLACE] else None
    if handed and handed.group("level"):
        # TRANSLATORS: a seat given to one of the referee's bots; {bot}: the bot ("greedy bot").
        return _("seat handed to the referee's {bot}", bot=bot_name(handed.group("level")))
    if handed:
        return _("seat handed to {holder}", holder=handed.group("holder"))
    return PBEM.stored(reason, "reason")


def player_cell(entry: dict) -> str:
    """Who made an entry's move, as a table of moves names them: the player, `bob (referee)` for a move the
    referee made for the seat, `bob (bot)` for a bot seat's."""
    if entry.get("by") == "referee":
        return _("{player} (referee)", player=entry["player"])
    if entry.get("by") == BY_BOT:
        # TRANSLATORS: a seat the referee's bot plays, in a table of moves.
        return _("{player} (bot)", player=entry["player"])
    return entry["player"]
