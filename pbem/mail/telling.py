"""What the referee tells each player in answer to a message: the moves they have not heard of (pbem.mail.news
bookmarks), the reports a turn calls for as each one's preference says, the answer to a notify switch, a
command's answer and the legal moves. Plain functions of the Mailer (what was read of the game, who was told
what) and the message being handled (`Handling`)."""
from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import cached_property
from email.message import EmailMessage

from ..clock import clock, correspondence
from ..contract import PbemError
from ..engine import engine
from . import clockmail, compose, news
from .outgoing import Letter, Mailer
from .parse import Incoming

PROMISES = {"every": "You will get a report after every move.",
            "turn": "You will get a mail when it is your turn, telling what happened since your last mail (and the "
                    "end of the game).",
            "daily": "You will get one digest a day of the moves you have not heard of, sent by the referee's first "
                     "round of the day that has any (and the end of the game, your reminders and the answers to "
                     "your mail)."}


@dataclass
class Handling:
    """One message being handled: the message, where it came from in a mailbox (`source`, None for one message
    alone), the time moves are accepted at (`now`: None, the system clock), the game it names, once opened, and
    the id of that game (`where`: Referee.where, None when it names none of the root's)."""
    incoming: Incoming
    source: str | None
    now: object = None
    gd: engine.GameDir | None = None
    where: str | None = None

    @cached_property
    def moment(self) -> datetime.datetime:
        """`now` as a time, the same for every mail of the message."""
        return clock.moment(self.now)

    def record(self, result: str, **more) -> dict:
        """The message's ledger record once handled."""
        return {"state": "done", "source": self.source, "game": self.gd.id if self.gd else None, **more,
                "result": result}


@dataclass(frozen=True)
class Told:
    """What a turn made, to tell: the mover, the public log entries (the mover's, then what the referee and the
    queues played), whether the mover is answered whatever their preference (`answer`: a resignation, a queue
    set by command) and the answer's first line (`lead`)."""
    mover: str
    entries: list[dict]
    answer: bool = False
    lead: str | None = None


def reports(mailer: Mailer, handling: Handling, told: Told) -> list[EmailMessage]:
    """The mails a turn calls for: the answer to the mover and the reports to the others, each as their
    preference says (clockmail.wants_report), each telling what that player has not heard of yet; the public
    report to the organiser at the end of the game."""
    gd = handling.gd
    secrets, doc = mailer.reads.secrets(gd), mailer.reads.public(gd)
    moment, book = news.Moment(gd, told.entries), mailer.bookmarks(gd)
    messages = []
    for player in secrets["players"]:
        if player["email"] and clockmail.wants_report(player, told.mover, doc, answer=told.answer):
            messages.append(_report(mailer, handling, told, player, book, moment))
    organiser = secrets.get("organiser")
    if organiser and doc["finished"]:
        subject, body = compose.public_report(gd, compose.news_text(told.entries))
        messages.append(mailer.mail(gd, handling.incoming, Letter(organiser, subject, body, thread=None)))
    return messages


def _report(mailer: Mailer, handling: Handling, told: Told, player: dict, book: news.Bookmarks,
            moment: news.Moment) -> EmailMessage:
    """One player's report of the turn: what they have not heard of (`book`, from `moment` on), from their own
    view; the picture when it asks them to act."""
    gd, name = handling.gd, player["name"]
    items = news.tell(book, moment, player)
    heading = "Since your last mail:" if items and items[0]["number"] < moment.first else None
    seen = engine.status(gd, name)
    subject, body = compose.player_report(gd, name, compose.news_text(items, heading),
                                          lead=told.lead if name == told.mover else None, now=handling.moment,
                                          preference=correspondence.notify_of(player), doc=seen)
    letter = Letter(player["email"], subject, body, reply=name == told.mover, thread=name)
    return compose.picture_if_asked(mailer.mail(gd, handling.incoming, letter), seen, player)


def switched(mailer: Mailer, handling: Handling, before: dict, preference: str) -> tuple[str, str]:
    """The answer to `notify`: what the player will get from now on, and what they have not been told yet (with
    their turn, if it is theirs): a switch loses nothing, whenever it comes."""
    gd = handling.gd
    moment = news.Moment(gd, last=mailer.reads.public(gd)["move_number"] - 1)
    items = news.tell(mailer.bookmarks(gd), moment, before)  # counted as the old preference had told them
    subject, body = compose.player_report(gd, before["name"], compose.news_text(items, "Since your last mail:"),
                                          intro=f"Your mail preference is now `{preference}`. "
                                                f"{PROMISES[preference]}",
                                          now=handling.moment, preference=preference)
    turn = ", your turn" if "your turn" in subject else ""
    return compose.subject_for(gd, f"notify {preference} recorded{turn}"), body


def command_body(mailer: Mailer, handling: Handling, name: str, command: str) -> str:
    """The answer to `help`, `moves` or `status`."""
    gd = handling.gd
    if command == "help":
        return "\n\n".join([compose.how_to_move(gd, mailer.reads.public(gd)["move_number"]), compose.notation_help(gd)])
    legal = engine.legal(gd, name)
    if command == "moves":
        if legal["to_act"] is None:
            return "The game is over."
        if legal["to_act"] != name:
            return f"It is {legal['to_act']}'s turn (move {legal['move_number']}); you have no move now."
        return "\n\n".join([compose.turn_head(mailer.reads.public(gd), handling.moment),
                            compose.legal_block(legal), compose.how_to_move(gd, legal["move_number"])])
    player = next(p for p in mailer.reads.secrets(gd)["players"] if p["name"] == name)
    _, body = compose.player_report(gd, name, None, legal if legal["to_act"] == name else None,
                                    now=handling.moment, preference=correspondence.notify_of(player))
    return body


def legal_extra(mailer: Mailer, handling: Handling, name: str) -> list[str]:
    """What a refusal adds for a player of the game: whose turn it is, or theirs with their legal moves."""
    gd = handling.gd
    try:
        legal = engine.legal(gd, name)
    except PbemError:
        return []
    if legal["to_act"] is None:
        return ["The game is over."]
    if legal["to_act"] != name:
        return [f"It is {legal['to_act']}'s turn (move {legal['move_number']}): "
                f"{legal['decision']['description']}. You will get a mail when it is yours."]
    return [compose.turn_head(mailer.reads.public(gd), handling.moment), compose.legal_block(legal),
            compose.how_to_move(gd, legal["move_number"])]
