"""What the referee tells each player in answer to a message: the moves they have not heard of (pbem.mail.news
bookmarks), the reports a turn calls for as each one's preference says, the answer to a notify switch, a
command's answer and the legal moves. Plain functions of the Mailer (what was read of the game, who was told
what) and the message being handled (`Handling`)."""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from functools import cached_property
from email.message import EmailMessage

from ..clock import clock, correspondence
from ..contract import PbemError
from ..engine import engine
from ..messages import N_, Words, _, gettext, lazy
from ..text import report, times
from . import clockmail, compose, helptext, news, spectators
from .outcome import Reject
from .outgoing import Letter, Mailer
from .parse import Incoming
from .readers import reading_as

PROMISES = {"every": N_("Your mail preference is now `every`. You will get a report after every move."),
            "turn": N_("Your mail preference is now `turn`. You will get a mail when it is your turn, telling what "
                       "happened since your last mail (and the end of the game)."),
            "daily": N_("Your mail preference is now `daily`. You will get one digest a day of the moves you have not "
                        "heard of, sent by the referee's first round of the day that has any (and the end of the "
                        "game, your reminders and the answers to your mail).")}


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
    said: list = field(default_factory=list)  # the talk of the message: (recipient or None, text) each

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
    lead: object = None  # a str or a Message (pbem.messages), rendered in the mover's language


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
            with reading_as(gd, player):
                messages.append(_report(mailer, handling, told, player, book, moment))
    organiser = secrets.get("organiser")
    if organiser and doc["finished"]:
        with reading_as(gd):  # the organiser reads the game's language
            subject, body = compose.public_report(gd, compose.news_text(told.entries, game_type=gd.game.id))
            messages.append(mailer.mail(gd, handling.incoming, Letter(organiser, subject, body, thread=None)))
    return messages + spectators.reports(mailer, gd, told.entries)


def _report(mailer: Mailer, handling: Handling, told: Told, player: dict, book: news.Bookmarks,
            moment: news.Moment) -> EmailMessage:
    """One player's report of the turn: what they have not heard of (`book`, from `moment` on), from their own
    view; the picture when it asks them to act."""
    gd, name = handling.gd, player["name"]
    items = news.tell(book, moment, player)
    heading = _("Since your last mail:") if items and items[0]["number"] < moment.first else None
    seen = engine.status(gd, name)
    lead = str(told.lead) if told.lead is not None and name == told.mover else None  # a Message: the mover's words
    subject, body = compose.player_report(gd, name, compose.news_text(items, heading, gd.game.id),
                                          lead=lead, now=handling.moment,
                                          preference=correspondence.notify_of(player), doc=seen)
    letter = Letter(player["email"], subject, body, reply=name == told.mover, thread=name)
    return compose.picture_if_asked(mailer.mail(gd, handling.incoming, letter), seen, player)


def switched(mailer: Mailer, handling: Handling, before: dict, preference: str) -> tuple[str, str]:
    """The answer to `notify`: what the player will get from now on, and what they have not been told yet (with
    their turn, if it is theirs): a switch loses nothing, whenever it comes."""
    gd = handling.gd
    moment = news.Moment(gd, last=mailer.reads.public(gd)["move_number"] - 1)
    items = news.tell(mailer.bookmarks(gd), moment, before)  # counted as the old preference had told them
    doc = engine.status(gd, before["name"])
    subject, body = compose.player_report(gd, before["name"],
                                          compose.news_text(items, _("Since your last mail:"), gd.game.id),
                                          intro=gettext(PROMISES[preference]), now=handling.moment,
                                          preference=preference, doc=doc)
    if compose.asks_to_act(doc):
        # TRANSLATORS: {preference} is the word the player wrote (every, turn or daily): keep it as it is.
        return compose.subject_for(gd, _("notify {preference} recorded, your turn", preference=preference)), body
    return compose.subject_for(gd, _("notify {preference} recorded", preference=preference)), body


def command_body(mailer: Mailer, handling: Handling, name: str, command: str) -> str:
    """The answer to `help`, `moves` or `status`."""
    gd = handling.gd
    if command == "help":
        return "\n\n".join([helptext.how_to_move(gd, mailer.reads.public(gd)["move_number"]),
                            helptext.notation_help(gd)])
    legal = engine.legal(gd, name)
    if command == "moves":
        if legal["to_act"] is None:
            return _("The game is over.")
        if legal["to_act"] != name:
            return _("It is {player}'s turn (move {number}); you have no move now.", player=legal["to_act"],
                     number=legal["move_number"])
        return "\n\n".join([compose.turn_head(mailer.reads.public(gd), handling.moment, gd.game.id),
                            compose.legal_block(legal, gd.game.id, decision_told=True),
                            helptext.how_to_move(gd, legal["move_number"])])
    player = next(p for p in mailer.reads.secrets(gd)["players"] if p["name"] == name)
    _subject, body = compose.player_report(gd, name, None, legal if legal["to_act"] == name else None,
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
        return [_("The game is over.")]
    if legal["to_act"] != name:
        return [_("It is {player}'s turn (move {number}): {decision}. You will get a mail when it is yours.",
                  player=legal["to_act"], number=legal["move_number"],
                  decision=report.game_text(gd.game.id, legal["decision"]["description"]))]
    return [compose.turn_head(mailer.reads.public(gd), handling.moment, gd.game.id),
            compose.legal_block(legal, gd.game.id, decision_told=True), helptext.how_to_move(gd, legal["move_number"])]


def played_key(game_id: str, number: int) -> str:
    """The ledger's key of the mail that made move `number` of a game (its player and when it came)."""
    return f"played {game_id} {number}"


def not_played_yet(mailer: Mailer, handling: Handling, name: str, number: int | None) -> int | None:
    """`number`, the move a mail answers, unless its own sender already made that move: then the mail is refused
    as their earlier mail (or move) played already. A stale answer to someone else's move is the engine's to
    refuse."""
    gd = handling.gd
    current = mailer.reads.public(gd)["move_number"]
    if number is None or number >= current:
        return number
    entry = next((e for e in engine.read_log(gd)["entries"] or [] if e["number"] == number), None)
    if entry is None or entry["player"] != name or entry["by"] != "player":
        return number
    played = mailer.ledger.get(played_key(gd.id, number))
    if played and played.get("player") == name:
        # TRANSLATORS: a refused mail; {date}: when the earlier mail came; {number}, {current}: move numbers.
        why = lazy("your mail of {date} was already played as move {number}. This mail answers move {number} too, "
                   "so it was not applied: the game is at move {current} now.", date=times.readable(played["at"]),
                   number=number, current=current)
    else:
        # TRANSLATORS: a refused mail; {moves}: the move as it was played, in the player's words.
        why = lazy("your move {number} ({moves}) was already played. This mail answers move {number} too, so it was "
                   "not applied: the game is at move {current} now.", number=number,
                   moves=Words(gd.game.package, "; ".join(entry["moves"])), current=current)
    raise Reject(why, legal_extra(mailer, handling, name))


def record_accepted(mailer: Mailer, handling: Handling, told: Told) -> None:
    """The ledger's records of an accepted move: its message, and the move it made (a stale mail names it)."""
    number = told.entries[0]["number"]
    mailer.ledger.put(handling.incoming.message_id, handling.record("accepted", player=told.mover, move=number))
    mailer.ledger.put(played_key(handling.gd.id, number), {"state": "done", "player": told.mover,
                                                            "at": times.iso(handling.moment),
                                                            "message_id": handling.incoming.message_id})


def games_named(root, incoming: Incoming) -> list[str]:
    """The games a message names (its Game: line, its subject's tags), else those whose own Message-IDs it refers
    to: a reply whose subject lost the game's tag."""
    return incoming.game_candidates() or thread_games(root, incoming.references)


def thread_games(root, references: list[str]) -> list[str]:
    """The games whose own Message-IDs a mail refers to (In-Reply-To, References): a reply whose subject lost its
    [game] tag still belongs to the game whose mail it answers. An ID counts only as one of that game's own
    (compose.thread_root, compose.owed_id: its id, then the tail of its seed commitment); the mail is then
    authenticated like any other."""
    found = []
    for reference in reversed(references):
        game_id = reference[len("<pbem."):].partition(".")[0] if reference.startswith("<pbem.") else ""
        if not engine.ID_PATTERN.match(game_id) or game_id in found or not (root / game_id).is_dir():
            continue
        try:
            commitment = engine.open_game(root / game_id).meta["seed_commitment"]
        except PbemError:
            continue
        if f".{commitment[-16:]}@" in reference or f".{commitment[-8:]}@" in reference:
            found.append(game_id)
    return found
