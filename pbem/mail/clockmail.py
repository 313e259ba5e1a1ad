"""The mail of correspondence life: reminders, timeout notices, each player's choice of how often they hear from
the referee (every move, only their turn, a daily digest), and the welcome of a player who takes over a seat.

Preferences (secrets.yaml, `notify`): `every` (the default) gets a report after every move; `turn` only when it
becomes their turn, with everything that happened since their own last move; `daily` one digest a day, sent by
`pbem tick`, of what happened since the last one. Whatever the preference, a player always gets the answer to
their own mail, their reminders and timeout notices, and the end of the game.

The daily digests' bookmarks (the day of the last digest and the last move it told) are the transport's own
record, kept beside the mail ledger: ROOT/.pbem-mail/digests/<game>.json.
"""
from __future__ import annotations

import datetime
import json

from .. import clock, engine, notices, phrases, safefiles
from ..contract import PbemError
from ..correspondence import notify_of
from ..phrases import plural
from . import compose

DIGESTS = "digests"


# ---------------------------------------------------------------- what a player hears of

def wants_report(player: dict, mover: str | None, doc: dict) -> bool:
    """Does this player get the report of a move (or of the referee's moves after a tick)?"""
    name, preference = player["name"], notify_of(player)
    if preference == "every" or name == mover or doc["finished"]:
        return True
    return preference == "turn" and doc["to_act"] == name


def entry_line(entry: dict) -> str:
    """One public log entry in words, with who made it and why."""
    moves = "; ".join(entry["moves"])
    if entry["moves"] == [engine.REPLACE]:
        return f"Move {entry['number']}: {entry.get('reason', 'the seat changed hands')} (seat {entry['player']})."
    if entry["moves"] == [engine.RESIGN]:
        why = f" ({entry['reason']})" if entry.get("reason") else ""
        return f"Move {entry['number']}: {entry['player']} resigned{why}."
    if engine.is_end(entry):
        return f"Move {entry['number']}: the referee ended the game: {entry['reason']}."
    if entry["by"] == "referee":
        why = entry.get("reason") or "played by the referee"
        line = f"Move {entry['number']}: the referee played {moves} for {entry['player']} ({why})."
    else:
        line = f"Move {entry['number']}: {entry['player']} played {moves}."
    if entry["chance"]:
        line += "\n  " + "; ".join(f"{c['what']}: {c['result']}" for c in entry["chance"])
    return line


def since_own_move(gd: engine.GameDir, name: str) -> list[dict]:
    """The public log entries after `name`'s last own move: what a `turn` player has not heard of."""
    entries = engine.read_log(gd)["entries"] or []
    last = max((e["number"] for e in entries if e["player"] == name and e["by"] == "player"), default=0)
    return [e for e in entries if e["number"] > last]


def catch_up(gd: engine.GameDir, player: dict, summary: str | None) -> str | None:
    """The summary a player's report starts with: for a `turn` player, everything since their own last move."""
    if notify_of(player) != "turn":
        return summary
    missed = since_own_move(gd, player["name"])
    if not missed:
        return summary
    return "Since your last move:\n" + "\n".join(entry_line(e) for e in missed)


# ---------------------------------------------------------------- after a tick

def _due_text(due: str | None, now: datetime.datetime) -> str:
    return f"{clock.readable(due)} ({clock.until(due, now)})" if due else "no deadline"


def tick_messages(referee, gd: engine.GameDir, result: dict, now: datetime.datetime, key: str | None = None
                  ) -> list:
    """The mails a tick's events call for: reminders, notices to late players, the reports of the moves the
    referee played (each player as their preference says). `key` (an owed record's id, pbem.notices): each mail
    gets a Message-ID made from it, its recipient and its kind, the same however often it is made again."""
    secrets = referee._secrets(gd)
    roster = {p["name"]: p for p in secrets["players"]}
    doc = engine.status(gd)
    messages = []
    summary = "\n".join(entry_line(e) for e in result["entries"])

    def mail(to, subject, body, name, kind):
        message_id = compose.owed_id(gd, referee.referee_address(gd), key, name or "organiser", kind) if key else None
        return referee._mail(gd, None, to, subject, body, reply=False, player=name, message_id=message_id)
    for event in result["events"]:
        player = roster[event["player"]]
        if not player.get("email"):
            continue
        subject, body = _notice(gd, event, doc, now, summary)
        messages.append(mail(player["email"], subject, body, player["name"], f"{event['kind']}-{event['move_number']}"))
    if result["entries"]:
        told = {e["player"] for e in result["events"]}
        for name, player in roster.items():
            if not player.get("email") or (name in told and not doc["finished"]):
                continue  # a late player's notice already says what was played for them
            if not wants_report(player, None, doc):
                continue
            legal = engine.legal(gd, name) if doc["to_act"] == name else None
            subject, body = compose.player_report(gd, name, catch_up(gd, player, summary), legal)
            messages.append(mail(player["email"], subject, body, name, "report"))
        organiser = secrets.get("organiser")
        if organiser and doc["finished"]:
            subject, body = compose.public_report(gd, summary)
            messages.append(mail(organiser, subject, body, None, "report"))
    return messages


def _notice(gd: engine.GameDir, event: dict, doc: dict, now: datetime.datetime, summary: str
            ) -> tuple[str, str]:
    """(subject, body) of the mail to the player an event is about."""
    name, number = event["player"], event["move_number"]
    record = doc.get("clock") or {}
    policy = clock.POLICY_TEXT.get(record.get("on_timeout", "wait"), "")
    if event["kind"] == "remind":
        subject = compose.subject_for(gd, f"move {number}, reminder: your move is due {clock.readable(event['due'])}")
        parts = [f"Reminder: your move (move {number}) is due by {_due_text(event['due'], now)}. "
                 f"If it has not arrived by then, {policy}.", _queued_text(gd, name)]
    elif event["kind"] == "late":
        subject = compose.subject_for(gd, f"move {number}, your move is overdue")
        allowed = f" After {record['timeouts']} in a row you count as resigned." if record.get("timeouts") else ""
        parts = [f"Your move (move {number}) was due by {clock.readable(event['due'])} and has not arrived: "
                 f"that is {plural(event['strikes'], 'deadline')} missed in a row.{allowed} The referee waits; your move "
                 f"is now due by {_due_text(record.get('due'), now)}."]
    elif event["kind"] == "timeout":
        subject = compose.subject_for(gd, f"move {number}, timeout: the referee moved for you")
        allowed = f" (after {record['timeouts']} in a row you count as resigned)" if record.get("timeouts") else ""
        parts = [f"Your move (move {number}) was due by {clock.readable(event['due'])} and has not arrived, so "
                 f"{policy}. You have missed {plural(event['strikes'], 'deadline')} in a row{allowed}.", summary]
    else:
        subject = compose.subject_for(gd, f"move {number}, you count as resigned")
        parts = [f"Your move (move {number}) was due by {clock.readable(event['due'])}: that is {event['strikes']} "
                 f"deadlines missed in a row, so you count as resigned. The referee plays your seat from now on "
                 f"(the move that changes the game least for the others) and ranks it last. Ask the organiser if "
                 f"you want to come back: they can hand the seat on (pbem replace).", summary]
    legal = engine.legal(gd, name) if doc["to_act"] == name and event["kind"] != "resigned" else None
    _, report = compose.player_report(gd, name, "\n".join(parts), legal)
    return subject, report


def _queued_text(gd: engine.GameDir, name: str) -> str:
    """What a reminder says of the player's queue: it did not answer this decision (a queue that does is played at
    once, so it is never reminded nor timed out), and what it holds for later."""
    lines = phrases.queue_lines(engine.status(gd, name).get("queue"))
    if not lines:
        return ("Nothing is queued for you. Steps written after your move wait in your queue and are played when "
                "their decisions come, so fewer mails are needed (see `help`).")
    return "\n".join(["Your queue does not answer this decision; it holds, for later:", *lines])


def tell_owed(referee, gd: engine.GameDir) -> tuple[list[str], str | None]:
    """Mail what the game's changes owe its players (pbem.notices: recorded with each change by `pbem tick`),
    then take it off. Each mail is sent once however often this runs (Referee.send_owed): a run killed after
    sending some of them sends the others the next time. Holds the root's mail lock."""
    with referee.ledger.locked():
        owed = notices.owed(gd)
        if not owed:
            return [], None
        mailed, warnings = [], []
        for item in owed:
            result = {"events": item["events"], "entries": item["entries"]}
            sent, warning = referee.send_owed(tick_messages(referee, gd, result, clock.parse_time(item["at"]),
                                                            key=item["id"]))
            mailed += [address for address in sent if address not in mailed]
            warnings += [warning] if warning else []
        told = [item["id"] for item in owed]
        referee.after(lambda: notices.settle(gd, told))  # in a batch: once its mails are on disk
    return mailed, "; ".join(warnings) or None


def send_tick(referee, gd: engine.GameDir, now: datetime.datetime) -> tuple[list[str], str | None]:
    """Mail what the tick (and any run killed before) owes the players, then the daily digests that are due."""
    mailed, warning = tell_owed(referee, gd)
    digested, digest_warning = send_digests(referee, gd, now)
    return mailed + [a for a in digested if a not in mailed], warning or digest_warning


# ---------------------------------------------------------------- daily digests

def _bookmarks_path(referee, gd: engine.GameDir):
    folder = referee.ledger.base / DIGESTS
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder / f"{gd.id}.json"


def _read_bookmarks(path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise PbemError(f"{path}: unreadable digest record ({exc})") from None
    return data if isinstance(data, dict) else {}


def send_digests(referee, gd: engine.GameDir, now: datetime.datetime) -> tuple[list[str], str | None]:
    """One digest a day (UTC) for each `daily` player, of the moves since their last digest. Each is sent once
    (its Message-ID is its game, player and day: Referee.send_owed) before its bookmark moves on; a run killed in
    between finds it sent and moves the bookmark to what that digest told."""
    daily = [p for p in referee._secrets(gd)["players"] if notify_of(p) == "daily" and p.get("email")]
    if not daily:
        return [], None
    entries = engine.read_log(gd)["entries"] or []
    today = now.date().isoformat()
    path = _bookmarks_path(referee, gd)
    messages, through, doc = [], {}, None
    with referee.ledger.locked():
        marks = _read_bookmarks(path)
        for player in daily:
            mark = marks.get(player["name"], {"day": "", "through": 0})
            fresh = [e for e in entries if e["number"] > mark["through"]]
            if not fresh or mark["day"] >= today:
                continue
            doc = doc or engine.status(gd)  # read once, and only when a digest is due
            legal = engine.legal(gd, player["name"]) if doc["to_act"] == player["name"] else None
            summary = f"Your daily digest of {gd.id} ({today}):\n" + "\n".join(entry_line(e) for e in fresh)
            _, body = compose.player_report(gd, player["name"], summary, legal)
            subject = compose.subject_for(gd, f"daily digest, {plural(len(fresh), 'move')}"
                                              + (", your turn" if legal else ""))
            message_id = compose.owed_id(gd, referee.referee_address(gd), f"digest-{today}", player["name"], "digest")
            messages.append(referee._mail(gd, None, player["email"], subject, body, reply=False,
                                          player=player["name"], message_id=message_id))
            through[message_id] = (player["name"], fresh[-1]["number"])
        if not messages:
            return [], None
        sent, warning = referee.send_owed(messages, {mid: {"through": n} for mid, (_, n) in through.items()})
        for message_id, (name, number) in through.items():
            told = referee.ledger.get(compose.sent_key(message_id)) or {}
            marks[name] = {"day": today, "through": told.get("through", number)}
        safefiles.write_atomic(path, json.dumps(marks, sort_keys=True, indent=1) + "\n", 0o600)
    return sent, warning


# ---------------------------------------------------------------- a seat handed on

def handover_welcome(gd: engine.GameDir, result: dict, referee_address: str | None = None):
    """The welcome of a player who takes over a seat: their password, the seat, how to move, the position."""
    secrets = engine.load_secrets(gd)
    referee_address = referee_address or secrets.get("organiser")
    if not referee_address:
        raise PbemError(f"{gd.id} has no organiser address: the welcome mail needs one to come from")
    seat = result["seat"]
    doc = engine.status(gd, seat)
    legal = engine.legal(gd, seat) if doc["to_act"] == seat else None
    intro = "\n\n".join([
        f"Welcome to {gd.game.title}, game {gd.id}. You take over the seat {seat} from move {result['number']}; "
        f"in the game, the reports and your moves it keeps its name, {seat}.",
        "Your password (keep it private; the seat's earlier password no longer works):\n\n"
        f"    Password: {result['secret']}",
        compose.how_to_move(gd, doc["move_number"] if legal else None),
        compose.notation_help(gd)])
    _, body = compose.player_report(gd, seat, intro, legal)
    return compose.message(referee_address, result["email"], compose.subject_for(gd, f"welcome, you play {seat}"),
                           body, game=gd.id, move_number=doc["move_number"],
                           redact=[p["secret"] for p in secrets["players"] if p["name"] != seat])
