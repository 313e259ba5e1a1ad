"""What the command line answers, as text: a game made, the legal moves, a turn accepted, a queue, a verify.

Each takes the data the engine answered (what `--format json` prints) and says it in sentences; the time, where
one is said ("in 2 days"), is given by the caller (time enters at the edges).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import phrases

if TYPE_CHECKING:
    import datetime


def created(data: dict) -> str:
    """`pbem new`: the game, each player's secret (and address), the referee's first moves, the welcomes sent."""
    lines = [f"Created {data['game']} ({data['game_type']}) in {data['dir']}.",
             "Give each player their secret (it signs their moves; keep it private):"]
    lines += [f"  {p['name']}: {p['secret']}" + (f"  <{p['email']}>" if p["email"] else "")
              for p in data["players"]]
    if data["referee_moves"]:
        lines.append(phrases.referee_moves(data["referee_moves"]))
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
    return head + "\n".join(phrases.legal_lines(d["choices"])) + "\n"


def accepted(r: dict) -> str:
    """`pbem move`: the turn accepted, what the referee played after it, who is next; the mover's queue."""
    after = f"The game is over: {r['ended']}." if r.get("ended") else "The game is over." if r["finished"] \
        else f"Next: {r['to_act']} (move {r['move_number']})."
    played = phrases.referee_moves(r["referee_moves"])
    queued = phrases.queue_lines(r.get("queue"))
    sentence = " ".join(filter(None, [f"Accepted move {r['number']} by {r['player']}: {'; '.join(r['moves'])}.",
                                      played, after]))
    return sentence + "\n" + "".join(f"{line}\n" for line in (["Your queue:"] + queued if queued else []))


def queue_text(r: dict) -> str:
    """`pbem queue`: the player's queue, and what it played at once."""
    lines = phrases.queue_lines(r.get("queue"))
    head = f"{r['player']}'s queue:" if lines else f"{r['player']} has nothing queued."
    played = phrases.referee_moves(r.get("moves_played", []))
    return "\n".join([head, *lines] + ([played] if played else [])) + "\n"


def verified(d: dict) -> str:
    """`pbem verify`: the moves replayed, the files found identical, the seed's check, and the notes."""
    seed = "the seed matches its published commitment" if d["seed_checked"] else "seed not yet revealed"
    lines = [f"{d['game']}: verified, {phrases.plural(d['moves'], 'move')} replayed; identical to the replay: "
             f"{', '.join(d['checked'])}; {seed}."]
    lines += [f"  note: {note}" for note in d["notes"]]
    return "\n".join(lines) + "\n"
