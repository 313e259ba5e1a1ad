"""Short phrases the command line and the transports share: counts, the moves the referee played, a queue.

No imports beyond the standard library: `pbem move` prints them and must stay fast.
"""
from __future__ import annotations

REFEREE_MOVES_LISTED = 6


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 move`, `2 moves`, `0 moves` (`many`: an irregular plural)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def referee_move(entry: dict) -> str:
    """`move 25 for carol (only legal move): take 2`; a player's queued move: `move 26 by dave (queued): draw`"""
    reason = f" ({entry['reason']})" if entry.get("reason") else ""
    by = "by" if entry.get("by") == "player" else "for"
    return f"move {entry['number']} {by} {entry['player']}{reason}: {'; '.join(entry['moves'])}"


def queue_lines(queue: dict | None, indent: str = "  ") -> list[str]:
    """A player's queue as their view shows it (pbem.play.queues.shown), a line each and written as it is sent (`next`
    between turns, so the lines may be sent back changed), then the notices; [] when nothing is queued."""
    if not queue:
        return []
    steps = [step for index, turn in enumerate(queue["turns"]) for step in (["next"] if index else []) + turn]
    return [f"{indent}{line}" for line in steps + queue["standing"]] + \
        [f"{indent}(note: {notice})" for notice in queue["notices"]]


def referee_moves(entries: list[dict]) -> str:
    """One sentence saying which moves the referee played and why, or "" when it played none."""
    if not entries:
        return ""
    listed = "; ".join(referee_move(entry) for entry in entries[:REFEREE_MOVES_LISTED])
    more = len(entries) - REFEREE_MOVES_LISTED
    rest = f"; and {plural(more, 'more move')} (see `pbem log`)" if more > 0 else ""
    return f"The referee played {listed}{rest}."


RESIGN = {"move": "resign", "description": "(at any time) leave the game: the referee plays your seat, you rank last"}
DESCRIPTION_COLUMN = 32


def legal_lines(choices: list[dict], indent: str = "  ") -> list[str]:
    """Each legal move on a line with what it does, then `resign` (allowed at any time); the descriptions in one
    column (a long move pushes its own description along, not everyone's)."""
    width = min(max(len(choice["move"]) for choice in [*choices, RESIGN]), DESCRIPTION_COLUMN)
    return [f"{indent}{choice['move'].ljust(width)}  {choice['description']}".rstrip() for choice in [*choices, RESIGN]]
