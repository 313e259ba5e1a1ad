"""The mail of correspondence life: reminders, timeout notices, each player's choice of how often they hear from
the referee (every move, only their turn, a daily digest), and the welcome of a player who takes over a seat.

Preferences (secrets.yaml, `notify`): `every` gets a report after every move, their own included; `turn` (a new
game's default) a mail when it becomes their turn, telling what happened since their last mail; `daily` one digest a
day, sent by `pbem tick`, of what they have not heard of. A `turn` or `daily` player's accepted move is answered
only when the answer asks for their next decision (a turn of several decisions, or a new one at once): otherwise
their next mail says it was played. Whatever the preference, a player always gets the answer to a mail that was not
applied and to their commands, their reminders and timeout notices, a takeback the tick refused, and the end of
the game. What each mail tells is what its player has not been told yet (pbem.mail.news): every move once.
"""
from __future__ import annotations

import datetime
import json
from email.message import EmailMessage

from ..clock import notices
from ..clock.correspondence import notify_of
from ..contract import PbemError
from ..digests import sha256
from ..engine import engine
from ..messages import N_, _, gettext, ngettext
from ..play.turns import TAKEBACK_REFUSED, TAKEBACK_REQUEST
from ..text import phrases, times
from . import compose, helptext, news, spectators
from .outgoing import Letter, Mailer
from .readers import reading_as


# ---------------------------------------------------------------- what a player hears of

def wants_report(player: dict, mover: str | None, doc: dict, answer: bool = False) -> bool:
    """Does this player get a mail about a move (`mover`'s, or the referee's after a tick)? `answer`: the mover's
    must be answered (a resignation)."""
    name, preference = player["name"], notify_of(player)
    if preference == "every" or doc["finished"]:
        return True
    if name == mover:  # a quiet player's move is answered when it asks for their next one
        return answer or doc["to_act"] == name
    return preference == "turn" and doc["to_act"] == name


def takeback_refused(entries: list[dict]) -> bool:
    """Do a tick's moves hold a takeback it refused (its deadline passed)? Every player with an address is told
    of it at once, as of every step of a takeback (pbem.mail.takeback), the one who asked above all."""
    return any(entry["moves"] == [TAKEBACK_REFUSED] for entry in entries)


def takeback_requests(mailer: Mailer, gd: engine.GameDir, entries: list[dict]) -> dict[str, str]:
    """{player: the Message-ID of the mail that asked their takeback} for each takeback refused among `entries`
    that was asked by mail (its request the player's last in the log): the mail that tells them answers it."""
    if not takeback_refused(entries):
        return {}
    asked = {entry["player"]: entry["number"] for entry in engine.read_log(gd)["entries"] or []
             if entry["moves"] == [TAKEBACK_REQUEST]}  # (the last of each player's)
    found = {}
    for entry in entries:
        record = mailer.ledger.get(compose.asked_key(gd.id, asked[entry["player"]])) \
            if entry["moves"] == [TAKEBACK_REFUSED] and entry["player"] in asked else None
        if record:
            found[entry["player"]] = record["message_id"]
    return found


# ---------------------------------------------------------------- after a tick

def tick_messages(mailer: Mailer, gd: engine.GameDir, result: dict, now: datetime.datetime) -> list:
    """The mails a tick's events call for, each telling the tick's moves (play by git: pbem.git.mails), with
    Message-IDs made from what the tick did (`tick_key`): a tick made again on the same position (a referee in CI
    killed before its push) makes the same mails, to send once (Mailer.send_owed)."""
    return [msg for _, msg in tick_mails(mailer, gd, result, now, key=tick_key(result))]


def tick_key(result: dict) -> str:
    """What a tick's mails are about, as a key of their Message-IDs (compose.owed_id): its events (each with its
    kind, player, move number and deadline) and the moves it played, never the time it ran at. A later tick that
    reminds anew (a new deadline) or plays other moves has another key."""
    about = json.dumps({"events": result["events"], "entries": result["entries"]}, sort_keys=True,
                       ensure_ascii=False)
    return sha256(about.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def tick_mails(mailer: Mailer, gd: engine.GameDir, result: dict, now: datetime.datetime, key: str | None = None,
               book: news.Bookmarks | None = None) -> list[tuple[str | None, EmailMessage]]:
    """The mails a tick's events call for, each with the player it goes to (None: the organiser): one to each
    player an event is about (their reminders, lateness, timeouts, said together), the reports of the moves the
    referee played to the others (as each one's preference says). `book` (pbem.mail.news): each tells what its
    player has not heard of, and the bookmark moves past it; without one, each tells the tick's moves. `key` (an
    owed record's id, pbem.clock.notices): each gets a Message-ID made from it, its recipient and its kind, the same
    however often it is made again. A mail that asks its player to act carries the picture of the position it
    tells, from that player's view (compose.picture_if_asked)."""
    secrets = mailer.reads.secrets(gd)
    roster = {p["name"]: p for p in secrets["players"]}
    doc = engine.status(gd)
    moment = news.Moment(gd, result["entries"], last=doc["move_number"] - 1)
    mails: list[tuple[str | None, EmailMessage]] = []
    answers = takeback_requests(mailer, gd, result["entries"])

    def mail(to, subject, body, name, kind, seen=None):
        message_id = compose.owed_id(gd, mailer.referee_address(gd), key, name or "organiser", kind) if key else None
        msg = mailer.mail(gd, None, Letter(to, subject, body, thread=name, message_id=message_id,
                                           answers=answers.get(name)))
        mails.append((name, compose.picture_if_asked(msg, seen, roster[name]) if seen else msg))

    def told(player):
        return news.tell(book, moment, player) if book is not None else result["entries"]
    events_of: dict[str, list[dict]] = {}
    for event in result["events"]:
        events_of.setdefault(event["player"], []).append(event)
    for name, events in events_of.items():
        player = roster[name]
        if player.get("email"):
            seen = engine.status(gd, name)
            with reading_as(gd, player):
                mail(player["email"], *_notice(gd, events, seen, now, told(player), notify_of(player)), name,
                     "notice", seen)
    if result["entries"]:
        everyone = takeback_refused(result["entries"])  # as every takeback mail, whatever their preference
        for name, player in roster.items():
            if not player.get("email") or name in events_of or not (everyone or wants_report(player, None, doc)):
                continue  # a player an event is about heard of the moves in its notice
            seen = engine.status(gd, name)
            with reading_as(gd, player):
                mail(player["email"], *compose.player_report(gd, name, compose.news_text(told(player),
                                                                                         game_type=gd.game.id),
                                                             now=now, preference=notify_of(player), doc=seen),
                     name, "report", seen)
        organiser = secrets.get("organiser")
        if organiser and doc["finished"]:
            with reading_as(gd):
                mail(organiser, *compose.public_report(gd, compose.news_text(result["entries"], game_type=gd.game.id)),
                     None, "report")
        mails += [(None, msg) for msg in spectators.reports(mailer, gd, result["entries"], key)]
    return mails


def _event_text(gd: engine.GameDir, event: dict, record: dict, now: datetime.datetime) -> tuple[str, str]:
    """(the subject's words, the paragraph) of one event of a tick, to the player it is about. A reminder and a
    late move leave the due time and what happens then to the turn's first lines (compose.turn_head), which say
    them once."""
    number, due, strikes = event["move_number"], times.readable(event["due"]), event.get("strikes", 0)
    limit = record.get("timeouts")
    if event["kind"] == "remind":
        return (_("move {number}, reminder, due {when}", number=number, when=due),
                _("Reminder: the referee is still waiting for your move {number}.", number=number) + "\n\n"
                + _queued_text(gd, event["player"]))
    if event["kind"] == "late":
        said = ngettext("Your move (move {number}) was due by {when} and has not arrived: that is {count} deadline "
                        "missed in a row.", "Your move (move {number}) was due by {when} and has not arrived: that "
                        "is {count} deadlines missed in a row.", strikes, number=number, when=due, count=strikes)
        if limit:
            said += " " + _("After {count} in a row you count as resigned.", count=limit)
        return (_("move {number}, your move is overdue", number=number),
                said + " " + _("The referee waits, with a new deadline."))
    if event["kind"] == "timeout":
        policy = gettext(TIMED_OUT.get(record.get("on_timeout", "wait"), TIMED_OUT["wait"]), number=number, when=due)
        missed = ngettext("You have missed {count} deadline in a row.", "You have missed {count} deadlines in a row.",
                          strikes, count=strikes)
        if limit:
            missed = ngettext("You have missed {count} deadline in a row (after {limit} in a row you count as "
                              "resigned).", "You have missed {count} deadlines in a row (after {limit} in a row you "
                              "count as resigned).", strikes, count=strikes, limit=limit)
        return (_("move {number}, timeout: the referee moved for you", number=number), policy + " " + missed)
    return (_("move {number}, you count as resigned", number=number),
            _("Your move (move {number}) was due by {when}: that is {count} deadlines missed in a row, so you count "
              "as resigned. The referee plays your seat from now on (the move that changes the game least for the "
              "others) and ranks it last. Ask the organiser if you want to come back: they can hand the seat on "
              "(pbem replace).", number=number, when=due, count=strikes))


# what the referee did when a move did not come in time, by the clock's on_timeout (a whole sentence each)
TIMED_OUT = {"wait": N_("Your move (move {number}) was due by {when} and has not arrived, so the referee reminds you "
                        "again and waits."),
             "first-legal": N_("Your move (move {number}) was due by {when} and has not arrived, so the referee plays "
                               "your first legal move for that decision."),
             "bot": N_("Your move (move {number}) was due by {when} and has not arrived, so the referee's bot plays "
                       "that decision for you.")}


def _notice(gd: engine.GameDir, events: list[dict], seen: dict, now: datetime.datetime, told: list[dict],
            preference: str) -> tuple[str, str]:
    """(subject, body) of the one mail to the player a tick's events are about: each event said, then what they
    have not heard of, from their seat (`seen`: their view; their turn first, if it is theirs)."""
    record = seen.get("clock") or {}
    said = [_event_text(gd, event, record, now) for event in events]
    lead, *rest = [paragraph for _words, text in said for paragraph in text.split("\n\n")]  # what happened, first
    news_text = compose.news_text(told, game_type=gd.game.id)
    _subject, body = compose.player_report(gd, events[0]["player"], news_text, lead=lead,
                                           intro="\n\n".join(rest) or None, now=now, preference=preference, doc=seen)
    return compose.subject_for(gd, said[-1][0]), body


def _queued_text(gd: engine.GameDir, name: str) -> str:
    """What a reminder says of the player's queue: it did not answer this decision (a queue that does is played at
    once, so it is never reminded nor timed out), and what it holds for later."""
    lines = phrases.queue_lines(engine.status(gd, name).get("queue"), game_type=gd.game.id)
    if not lines:
        return _("Nothing is queued for you. Steps written after your move wait in your queue and are played when "
                 "their decisions come, so fewer mails are needed (see `help`).")
    return "\n".join([_("Your queue does not answer this decision; it holds, for later:"), *lines])


def tell_owed(mailer: Mailer, gd: engine.GameDir) -> tuple[list[str], str | None]:
    """Mail what the game's changes owe its players (pbem.clock.notices: recorded with each change by `pbem tick`),
    then take it off. Each mail is sent once however often this runs (send_told): a run killed after sending
    some of them sends the others the next time. What they told is written in the players' bookmarks before the
    records are taken off (in a batch, at its flush). Holds the game's mail lock."""
    with mailer.ledger.locked(gd.id):
        owed = notices.owed(gd)
        if not owed:
            return [], None
        book = mailer.bookmarks(gd)
        mailed, warnings = [], []
        for item in owed:
            result = {"events": item["events"], "entries": item["entries"]}
            before = book.snapshot()
            sent, warning = send_told(mailer, gd, book, before, tick_mails(
                mailer, gd, result, times.parse_time(item["at"]), key=item["id"], book=book))
            mailed += [address for address in sent if address not in mailed]
            warnings += [warning] if warning else []
        mailer.save_bookmarks()
        told = [item["id"] for item in owed]
        mailer.after(lambda: notices.settle(gd, told))  # in a batch: once its mails and bookmarks are on disk
    return mailed, "; ".join(warnings) or None


def send_told(mailer: Mailer, gd: engine.GameDir, book: news.Bookmarks, before: dict,
              mails: list[tuple[str | None, EmailMessage]]) -> tuple[list[str], str | None]:
    """Send mails that go once (Mailer.send_owed: a Message-ID that is the same when made again), each recorded
    with how far it told its player. One an earlier run sent already (killed before it wrote the bookmarks) is not
    sent again, and its player's bookmark is where that mail left it, never past what it told (`before`: the
    bookmarks before these mails were made)."""
    records = {str(msg["Message-ID"]): {"player": name, "through": book.through(name)}
               for name, msg in mails if name is not None}
    sent, warning = mailer.send_owed(gd.id, [msg for _, msg in mails], records)
    for mid, record in records.items():
        told = (mailer.ledger.get(compose.sent_key(mid)) or {}).get("through")
        if told != record["through"]:  # an earlier run's mail
            book.rewind(record["player"], max(before.get(record["player"]) or 0, told or 0))
    return sent, warning


def send_tick(mailer: Mailer, gd: engine.GameDir, now: datetime.datetime) -> tuple[list[str], str | None]:
    """Mail what the tick (and any run killed before) owes the players, then the daily digests that are due.
    Under the game's mail lock, so no mail run tells the same players meanwhile."""
    with mailer.ledger.locked(gd.id):
        mailer.forget_bookmarks()
        mailed, warning = tell_owed(mailer, gd)
        digested, digest_warning = send_digests(mailer, gd, now)
        mailer.save_bookmarks()
    return mailed + [a for a in digested if a not in mailed], warning or digest_warning


# ---------------------------------------------------------------- daily digests

def send_digests(mailer: Mailer, gd: engine.GameDir, now: datetime.datetime) -> tuple[list[str], str | None]:
    """One digest a day (UTC) for each `daily` player, of the moves they have not heard of (the answers to their
    own mail told them some): at the first tick of the day that finds any. Each is sent once (send_told: its
    Message-ID is its game, player and the bookmark it starts from); a run killed before the bookmarks were written
    finds it sent and leaves the bookmark where that digest did."""
    daily = [p for p in mailer.reads.secrets(gd)["players"] if notify_of(p) == "daily" and p.get("email")]
    book = mailer.bookmarks(gd)
    before = book.snapshot()
    watching = spectators.digests_due(mailer, gd, now)  # the public report, to the daily spectators
    if not daily and not watching:
        return [], None
    today, moment, messages = now.date().isoformat(), news.Moment(gd), watching
    for player in daily:
        name = player["name"]
        if book.day(name) >= today or not news.untold(book, moment, player):
            continue
        told = news.tell(book, moment, player)
        book.tell(name, told[-1]["number"], day=today)
        seen = engine.status(gd, name)
        with reading_as(gd, player):
            messages.append((name, _digest(mailer, gd, player, told, seen, now)))
    if not messages:
        return [], None
    return send_told(mailer, gd, book, before, messages)


def _digest(mailer: Mailer, gd: engine.GameDir, player: dict, told: list[dict], seen: dict,
            now: datetime.datetime):
    """One player's daily digest of `told`, from their view `seen` (their turn first, if it is theirs)."""
    name, today = player["name"], now.date().isoformat()
    heading = _("Your daily digest of {game} ({day}):", game=gd.id, day=today)
    _subject, body = compose.player_report(gd, name, compose.news_text(told, heading, gd.game.id), now=now,
                                           preference="daily", doc=seen)
    if compose.asks_to_act(seen):
        # TRANSLATORS: a subject: {count} moves told; {turn}: "move 5, your turn, due …".
        words = ngettext("daily digest, {count} move; {turn}", "daily digest, {count} moves; {turn}", len(told),
                         count=len(told), turn=compose.turn_words(seen))
    else:
        words = ngettext("daily digest, {count} move", "daily digest, {count} moves", len(told), count=len(told))
    message_id = compose.owed_id(gd, mailer.referee_address(gd), f"digest-{told[0]['number']}", name, "digest")
    letter = Letter(player["email"], compose.subject_for(gd, words), body, thread=name, message_id=message_id)
    return compose.picture_if_asked(mailer.mail(gd, None, letter), seen, player)


# ---------------------------------------------------------------- a seat handed on

def handover_welcome(gd: engine.GameDir, result: dict, book: news.Bookmarks, now=None,
                     referee_address: str | None = None):
    """The welcome of a player who takes over a seat: their password, the seat, what the seat has not heard of (the
    hand-over included), their turn and its whole new deadline first if it is theirs (then with the picture of
    their view, compose.picture_if_asked), how to move, the position."""
    secrets = engine.load_secrets(gd)
    referee_address = referee_address or secrets.get("organiser")
    if not referee_address:
        raise PbemError(f"{gd.id} has no organiser address: the welcome mail needs one to come from")
    seat = result["seat"]
    doc = engine.status(gd, seat)
    player = next(p for p in secrets["players"] if p["name"] == seat)
    told = news.tell(book, news.Moment(gd, last=doc["move_number"] - 1), player)
    with reading_as(gd, player):
        intro = "\n\n".join([
            _("Welcome to {title}, game {game}. You take over the seat {seat} from move {number}; in the game, the "
              "reports and your moves it keeps its name, {seat}.", title=helptext.title(gd), game=gd.id, seat=seat,
              number=result["number"]),
            _("Your password (keep it private; the seat's earlier password no longer works):") + "\n\n"
            + helptext.password_line(result["secret"]),
            *([] if doc["to_act"] == seat else [helptext.how_to_move(gd, None)]),
            helptext.notation_help(gd)])
        _subject, body = compose.player_report(gd, seat, compose.news_text(told, _("Before you took the seat:"),
                                                                           gd.game.id),
                                               intro=intro, now=now, preference=notify_of(player), doc=doc)
        return compose.picture_if_asked(compose.message(
            referee_address, result["email"], compose.subject_for(gd, _("welcome, you play {seat}", seat=seat)), body,
            game=gd.id, move_number=doc["move_number"],
            redact=[p["secret"] for p in secrets["players"] if p["name"] != seat]), doc, player)


def send_handover(gd: engine.GameDir, result: dict, transport, now) -> tuple[list[str], str | None]:
    """Mail the new holder of a seat their welcome (`pbem replace`), under the game's mail lock, and record
    what it told them. A mail that cannot be sent is a warning: the seat is handed on already."""
    from .ledger import Ledger
    ledger = Ledger(gd.path.parent)
    with ledger.locked(gd.id):
        book = news.Bookmarks(news.folder(ledger.base) / f"{gd.id}.json", engine.load_secrets(gd)["players"])
        message = handover_welcome(gd, result, book, now)
        try:
            sent = transport.send([message])
        except PbemError as exc:  # (the organiser's)
            return [], f"the welcome mail was not sent ({exc}): give {result['holder']} the secret yourself"
        news.save([book])
    return sent, None
