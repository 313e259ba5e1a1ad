"""Short phrases the command line and the transports share (counts, the moves the referee played, a queue, the
legal moves), and what the command line answers as text (a game made, the legal moves, a turn accepted, a queue, a
verify: from the data the engine answered, what `--format json` prints); in the language being read
(pbem.text.language), the moves in the reader's words.

Nothing beyond the standard library and pbem.messages: `pbem move` prints them and must stay fast. The time, where
one is said ("in 2 days"), is given by the caller (time enters at the edges).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..messages import Domain, Words, _, ngettext
from .botwords import reason_text
from .queuenotes import shown

if TYPE_CHECKING:
    import datetime

REFEREE_MOVES_LISTED = 6
WIDTH = 78  # the reports' width (pbem.tables.WIDTH): every answer keeps to it
NARROWEST = 16  # a description beside its move has at least this many columns, or goes below it


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 move`, `2 moves`, `0 moves` (`many`: an irregular plural). English only: a message a player reads counts
    with ngettext (pbem.messages)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def _domain(game_type: str | None) -> str:
    return game_type.replace("-", "_") if game_type else "pbem"


def moves_text(moves: list[str], game_type: str | None) -> str:
    """Moves of one turn, `; ` between them, in the reader's words."""
    return "; ".join(Words(_domain(game_type), move).render() for move in moves)


def referee_move(entry: dict, game_type: str | None = None) -> str:
    """`move 25 for carol (only legal move): take 2`; a player's queued move: `move 26 by dave (queued): draw`"""
    moves, number, player = moves_text(entry["moves"], game_type), entry["number"], entry["player"]
    reason = reason_text(entry)
    if reason:
        if entry.get("by") == "player":
            return _("move {number} by {player} ({reason}): {moves}", number=number, player=player, reason=reason,
                     moves=moves)
        return _("move {number} for {player} ({reason}): {moves}", number=number, player=player, reason=reason,
                 moves=moves)
    if entry.get("by") == "player":
        return _("move {number} by {player}: {moves}", number=number, player=player, moves=moves)
    return _("move {number} for {player}: {moves}", number=number, player=player, moves=moves)


def queue_lines(queue: dict | None, indent: str = "  ", game_type: str | None = None) -> list[str]:
    """A player's queue as their view shows it (pbem.play.queues.shown), a line each and written as it is sent (`next`
    between turns, so the lines may be sent back changed), then the notices; [] when nothing is queued."""
    if not queue:
        return []
    steps = [step for index, turn in enumerate(queue["turns"]) for step in (["next"] if index else []) + turn]
    domain = _domain(game_type)
    return [f"{indent}{Words(domain, line).render()}" for line in steps + queue["standing"]] + \
        [indent + _("(note: {notice})", notice=shown(notice, domain)) for notice in queue["notices"]]


def referee_moves(entries: list[dict], game_type: str | None = None) -> str:
    """One sentence saying which moves the referee played and why, or "" when it played none."""
    if not entries:
        return ""
    listed = "; ".join(referee_move(entry, game_type) for entry in entries[:REFEREE_MOVES_LISTED])
    more = len(entries) - REFEREE_MOVES_LISTED
    if more > 0:
        return ngettext("The referee played {moves}; and {count} more move (see `pbem log`).",
                        "The referee played {moves}; and {count} more moves (see `pbem log`).", more,
                        moves=listed, count=more)
    return _("The referee played {moves}.", moves=listed)


def resign_choice() -> dict:
    """`resign`, which every player may send at any time, as a legal move listed last."""
    return {"move": Words("pbem", "resign").render(),
            "description": _("(at any time) leave the game: the referee plays your seat, you rank last")}


DESCRIPTION_COLUMN = 32


def legal_lines(choices: list[dict], indent: str = "  ", game_type: str | None = None,
                columns: int = WIDTH) -> list[str]:
    """Each legal move on a line (in the reader's words) with what it does, then `resign` (allowed at any time);
    the descriptions in one column (a long move pushes its own description along, not everyone's), wrapped at
    their words under that column to keep within `columns`. A move's own text is never broken: it is what the
    player copies."""
    from ..tables import ljust, wide, width, wrap
    domain = _domain(game_type)
    shown = [{"move": Words(domain, choice["move"]).render(), "description": choice["description"]}
             for choice in choices] + [resign_choice()]
    column = min(max(width(choice["move"]) for choice in shown), DESCRIPTION_COLUMN)
    hang = " " * (width(indent) + column + 2)
    lines = []
    def fold(text: str, first: str, then: str, whole: bool = False) -> list[str]:
        return wrap(text, columns, initial_indent=first, subsequent_indent=then,
                    break_long_words=not whole and wide(text))
    for choice in shown:
        head = f"{indent}{ljust(choice['move'], column)}  "
        if width(head) <= columns - NARROWEST:
            lines += fold(choice["description"], head, hang) or [head.rstrip()]
        else:  # a move as long as the line (a form's list goes on at its words), its description below it
            lines += fold(choice["move"], indent, indent + "    ", whole=True) + fold(choice["description"], hang, hang)
    return lines


# ---------------------------------------------------------------- the command line's answers

def created(data: dict) -> str:
    """`pbem new`: the game, each player's secret (and address), the referee's first moves, the welcomes sent."""
    bots = data.get("bots") or {}
    lines = [f"Created {data['game']} ({data['game_type']}) in {data['dir']}.",
             "Give each player their secret (it signs their moves; keep it private):"]
    lines += [f"  {p['name']}: {p['secret']}" + (f"  <{p['email']}>" if p["email"] else "")
              for p in data["players"] if p["name"] not in bots]
    lines += bot_seat_lines(bots)
    if data["referee_moves"]:
        lines.append(referee_moves(data["referee_moves"]))
    if data.get("welcomed"):
        lines.append(f"Welcome mailed to {', '.join(data['welcomed'])}.")
    return "\n".join(lines) + "\n"


def bot_seat_lines(bots: dict[str, str]) -> list[str]:
    """The organiser's lines of `pbem new` and `pbem git init` for the seats given to a bot, in place of a secret."""
    return [f"  {seat}: played by the {level} bot (the referee plays its every move)" for seat, level in bots.items()]


def legal_text(d: dict, now: datetime.datetime | None = None) -> str:
    """`pbem moves` (engine.legal's answer): who must act (and by when, how far from `now`), and each legal move
    with what it does."""
    if d["to_act"] is None:
        return _("The game is over.") + "\n"
    what = Domain(_domain(d.get("game_type"))).stored(d["decision"]["description"])
    head = [_("Move {number}: {player} to act — {decision}", number=d["move_number"], player=d["to_act"],
              decision=what)]
    if d.get("due"):
        from .times import due_phrase  # (a game with deadlines only: `pbem moves` need not import datetime)
        head.append(_("{due}.", due=due_phrase(d["to_act"], d["due"], now)))
    if d["player"] != d["to_act"]:
        return wrapped([*head, _("{player} has no move now (and may resign at any time: `{resign}`).",
                                 player=d["player"], resign=Words("pbem", "resign"))])
    return wrapped(head) + "\n".join(legal_lines(d["choices"], game_type=d.get("game_type"))) + "\n"


def wrapped(lines: list[str]) -> str:
    """Sentences a line each, wrapped at their words within WIDTH columns (a continuation not indented: under
    them, an indented line is a move)."""
    from ..tables import wide, wrap
    return "".join(line + "\n" for sentence in lines for line in wrap(sentence, WIDTH, break_long_words=wide(sentence)))


def after_turn(r: dict) -> str:
    """Who is next after a turn, or how the game ended."""
    if r.get("ended"):
        return _("The game is over: {reason}.", reason=r["ended"])
    if r["finished"]:
        return _("The game is over.")
    return _("Next: {player} (move {number}).", player=r["to_act"], number=r["move_number"])


def accepted(r: dict) -> str:
    """`pbem move`: the turn accepted, what the referee played after it, who is next; the mover's queue."""
    game_type = r.get("game_type")
    played = referee_moves(r["referee_moves"], game_type)
    queued = queue_lines(r.get("queue"), game_type=game_type)
    turn = _("Accepted move {number} by {player}: {moves}.", number=r["number"], player=r["player"],
             moves=moves_text(r["moves"], game_type))
    sentence = " ".join(filter(None, [turn, played, after_turn(r)]))
    return sentence + "\n" + "".join(f"{line}\n" for line in ([_("Your queue:")] + queued if queued else []))


def queue_text(r: dict) -> str:
    """`pbem queue`: the player's queue, and what it played at once."""
    lines = queue_lines(r.get("queue"), game_type=r.get("game_type"))
    head = _("{player}'s queue:", player=r["player"]) if lines else _("{player} has nothing queued.",
                                                                       player=r["player"])
    played = referee_moves(r.get("moves_played", []), r.get("game_type"))
    return "\n".join([head, *lines] + ([played] if played else [])) + "\n"


def verified(d: dict) -> str:
    """`pbem verify`: the moves replayed, the files found identical, the seed's check, and the notes."""
    # TRANSLATORS: {files} lists the game's files (public.yaml, log.yaml…), which keep their names
    if d["seed_checked"]:
        said = ngettext("{game}: verified, {count} move replayed; identical to the replay: {files}; the seed matches "
                        "its published commitment.", "{game}: verified, {count} moves replayed; identical to the "
                        "replay: {files}; the seed matches its published commitment.", d["moves"], game=d["game"],
                        count=d["moves"], files=d["checked"])
    else:
        said = ngettext("{game}: verified, {count} move replayed; identical to the replay: {files}; seed not yet "
                        "revealed.", "{game}: verified, {count} moves replayed; identical to the replay: {files}; "
                        "seed not yet revealed.", d["moves"], game=d["game"], count=d["moves"], files=d["checked"])
    lines = [said] + ["  " + _("note: {note}", note=note) for note in d["notes"]]
    return "\n".join(lines) + "\n"
