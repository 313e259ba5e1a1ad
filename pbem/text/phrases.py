"""Short phrases the command line and the transports share (counts, the moves the referee played, a queue, the
legal moves), and what the command line answers as text (a game made, the legal moves, a turn accepted, a queue, a
verify: from the data the engine answered, what `--format json` prints).

No imports beyond the standard library: `pbem move` prints them and must stay fast. The time, where one is said
("in 2 days"), is given by the caller (time enters at the edges).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import datetime

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


# ---------------------------------------------------------------- the command line's answers

def created(data: dict) -> str:
    """`pbem new`: the game, each player's secret (and address), the referee's first moves, the welcomes sent."""
    bots = data.get("bots") or {}
    lines = [f"Created {data['game']} ({data['game_type']}) in {data['dir']}.",
             "Give each player their secret (it signs their moves; keep it private):"]
    lines += [f"  {p['name']}: {p['secret']}" + (f"  <{p['email']}>" if p["email"] else "")
              for p in data["players"] if p["name"] not in bots]
    lines += [f"  {seat}: played by the {level} bot (the referee plays its every move)" for seat, level in bots.items()]
    if data["referee_moves"]:
        lines.append(referee_moves(data["referee_moves"]))
    if data.get("welcomed"):
        lines.append(f"Welcome mailed to {', '.join(data['welcomed'])}.")
    return "\n".join(lines) + "\n"


def legal_text(d: dict, now: datetime.datetime | None = None) -> str:
    """`pbem moves` (engine.legal's answer): who must act (and by when, how far from `now`), and each legal move
    with what it does."""
    if d["to_act"] is None:
        return "The game is over.\n"
    head = f"Move {d['move_number']}: {d['to_act']} to act — {d['decision']['description']}\n"
    if d.get("due"):
        from .times import due_phrase  # (a game with deadlines only: `pbem moves` need not import datetime)
        head += due_phrase(d["to_act"], d["due"], now) + ".\n"
    if d["player"] != d["to_act"]:
        return head + f"{d['player']} has no move now (and may resign at any time: `resign`).\n"
    return head + "\n".join(legal_lines(d["choices"])) + "\n"


def accepted(r: dict) -> str:
    """`pbem move`: the turn accepted, what the referee played after it, who is next; the mover's queue."""
    after = f"The game is over: {r['ended']}." if r.get("ended") else "The game is over." if r["finished"] \
        else f"Next: {r['to_act']} (move {r['move_number']})."
    played = referee_moves(r["referee_moves"])
    queued = queue_lines(r.get("queue"))
    sentence = " ".join(filter(None, [f"Accepted move {r['number']} by {r['player']}: {'; '.join(r['moves'])}.",
                                      played, after]))
    return sentence + "\n" + "".join(f"{line}\n" for line in (["Your queue:"] + queued if queued else []))


def queue_text(r: dict) -> str:
    """`pbem queue`: the player's queue, and what it played at once."""
    lines = queue_lines(r.get("queue"))
    head = f"{r['player']}'s queue:" if lines else f"{r['player']} has nothing queued."
    played = referee_moves(r.get("moves_played", []))
    return "\n".join([head, *lines] + ([played] if played else [])) + "\n"


def verified(d: dict) -> str:
    """`pbem verify`: the moves replayed, the files found identical, the seed's check, and the notes."""
    seed = "the seed matches its published commitment" if d["seed_checked"] else "seed not yet revealed"
    lines = [f"{d['game']}: verified, {plural(d['moves'], 'move')} replayed; identical to the replay: "
             f"{', '.join(d['checked'])}; {seed}."]
    lines += [f"  note: {note}" for note in d["notes"]]
    return "\n".join(lines) + "\n"
