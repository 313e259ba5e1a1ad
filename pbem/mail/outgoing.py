"""The referee's mail going out: the Mailer holds the games root's mail ledger and the transport, addresses and
threads each mail (compose.message), sends it, or keeps it for `pbem mail resend` when the transport fails; sends
exactly once the mails that must go once; and, in a batch, makes the replies of many messages durable together
with the ledger's records and the players' bookmarks (what each was told, pbem.mail.news).

What it reads of a game (its secrets, its public status) is read once per message handled (`Reads`).
"""
from __future__ import annotations

import contextlib
import email
import os
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Callable

from ..contract import PbemError, UsageError
from ..engine import engine
from ..text.phrases import plural
from . import compose, headers, news
from .ledger import Ledger
from .locks import UNSENT
from .parse import Incoming

BATCH = 50  # messages of a mailbox whose replies and ledger records are made durable together
NO_THREAD = ""  # a Letter's `thread` for a mail about no player's thread (the game's own is None)


@dataclass(frozen=True)
class Letter:
    """One mail of the referee's: to whom, its subject and body; `reply`: it answers the message being handled
    (In-Reply-To and References follow it); `thread`: the player whose thread of the game it continues (None: the
    game's public thread, the organiser's; NO_THREAD: none); `redact`: texts never shown (default: the game's
    secrets); `message_id`: its Message-ID when it must be the same each time the mail is made (default: a new
    one); `answers`: the Message-ID of an earlier mail of the player's that it answers (a takeback request the tick
    refused), when it is no reply to the message being handled."""
    to: str
    subject: str
    body: str
    reply: bool = False
    thread: str | None = NO_THREAD
    redact: list[str] | None = None
    message_id: str | None = None
    answers: str | None = None


class Reads:
    """What the referee read of each game while it handles one message: its secrets (the roster, the organiser)
    and its public status, each read once, the status again after a move (`moved`)."""

    def __init__(self):
        self._cache: dict[tuple[str, str], dict] = {}

    def clear(self) -> None:
        self._cache = {}

    def secrets(self, gd: engine.GameDir) -> dict:
        key = ("secrets", gd.id)
        if key not in self._cache:
            self._cache[key] = engine.load_secrets(gd)
        return self._cache[key]

    def public(self, gd: engine.GameDir) -> dict:
        key = ("public", gd.id)
        if key not in self._cache:
            self._cache[key] = engine.status(gd)
        return self._cache[key]

    def moved(self, gd: engine.GameDir) -> None:
        self._cache.pop(("public", gd.id), None)

    def secrets_changed(self, gd: engine.GameDir) -> None:
        self._cache.pop(("secrets", gd.id), None)
        self.moved(gd)


class Mailer:
    """The referee's mail desk for one games root: its ledger (each message once, the mails sent once), the
    transport (SMTP or an outbox), the From address for mail about no game, what was read of each game and told
    each player. `kept_in`: where the warning says a mail the transport could not send is kept (default: the
    unsent Maildir, for `pbem mail resend`; a referee in CI carries it in its archive instead)."""

    def __init__(self, root: str | Path, transport, default_from: str | None = None, kept_in: str | None = None):
        self.root = Path(root)
        self.kept_in = kept_in
        if not self.root.is_dir():
            raise PbemError(f"--games {self.root}: not a directory")
        self.ledger = Ledger(self.root)
        self.transport = transport
        self.transport.prepare()  # a bad outbox is refused before any mail is handled (no move left unreported)
        self.default_from = default_from or os.environ.get("PBEM_FROM") or _default_address()
        try:
            headers.writable("From", self.default_from)
        except ValueError:
            raise UsageError(f"--from / PBEM_FROM {self.default_from[:80]!r}: write a plain address "
                             f"(pbem@club.example) or a name and one (Club referee <pbem@club.example>)") from None
        self.reads = Reads()
        self._books: dict[str, news.Bookmarks] = {}  # what each game's players were told, while the lock is held
        self._after: list[Callable[[], None]] | None = None  # in a batch: what waits for the next flush

    # ------------------------------------------------------------ a batch

    @contextlib.contextmanager
    def batch(self):
        """Handle many messages, their replies and `done` records made durable together every BATCH messages and at
        the end (one fsync pass for many, see ledger.py); `after` keeps what must wait for that (moving a message
        aside). A move is on disk before its replies are written, as always. The mail lock of each game handled is
        kept until then (pbem.mail.locks), and let go at each flush."""
        self.transport.hold()
        self.ledger.begin_batch()
        self.ledger.locks.before_wait = self.flush
        self._after = []
        self._books = {}
        try:
            yield self
        finally:
            self._end_batch()

    def _end_batch(self) -> None:
        try:
            self.flush()
        finally:
            self._after = None
            self._books = {}
            self.ledger.locks.before_wait = None
            try:
                self.ledger.end_batch()
            finally:
                self.transport.release()

    def in_batch(self) -> bool:
        return self._after is not None

    def after(self, callback: Callable[[], None]) -> None:
        """Run `callback` once what the messages handled so far changed is on disk: now, or at the next flush
        (between two messages: every BATCH callbacks)."""
        if self._after is None:
            callback()
            return
        self._after.append(callback)
        if len(self._after) >= BATCH and self.ledger.locks.depth == 0:
            self.flush()

    def flush(self) -> None:
        """The replies held, then the done records (so a record never names replies that are not on disk), then
        what waited for them; then the games' mail locks let go (their bookmarks are read again under the next).
        Replies that could not be put on disk take their done records with them: the journal's pending records
        answer those messages in the next run."""
        try:
            self.transport.flush()
        except BaseException:
            self.ledger.drop_done()
            self._after = [] if self._after is not None else None
            self._books = {}  # what they told is not told: read again from the records on disk
            raise
        self.ledger.flush()
        news.save(list(self._books.values()))
        waiting = self._after or []
        if self._after is not None:
            self._after = []
        for callback in waiting:
            callback()
        self._books = {}
        self.ledger.locks.release()

    # ------------------------------------------------------------ what each player was told

    def bookmarks(self, gd: engine.GameDir) -> news.Bookmarks:
        """What each player of the game was told (pbem.mail.news), read once while the game's mail lock is held."""
        if gd.id not in self._books:
            self._books[gd.id] = news.Bookmarks(news.folder(self.ledger.base) / f"{gd.id}.json",
                                                self.reads.secrets(gd)["players"])
        return self._books[gd.id]

    def forget_bookmarks(self) -> None:
        """The lock is taken anew: read the bookmarks again (in a batch, they are the batch's)."""
        if self._after is None:
            self._books = {}

    def save_bookmarks(self) -> None:
        """Write what the players were told, once the mails that told them are sent and recorded: now, or in a
        batch at its flush (`flush`: a bookmark is never ahead of the mails)."""
        if self._after is None:
            news.save(list(self._books.values()))

    # ------------------------------------------------------------ a mail

    def referee_address(self, gd: engine.GameDir | None) -> str:
        """A game's mail comes from its organiser; mail about no game (or a game whose secrets cannot be read)
        from the default address."""
        if gd is not None:
            try:
                organiser = self.reads.secrets(gd).get("organiser")
            except PbemError:
                organiser = None
            if organiser:
                return organiser
        return self.default_from

    def mail(self, gd: engine.GameDir | None, incoming: Incoming | None, letter: Letter) -> EmailMessage:
        """The letter as a mail of the game `gd` (None: about no game), threaded, answering `incoming` when it is
        a reply, with every secret of the game and every password the message showed redacted."""
        referee = self.referee_address(gd)
        references, in_reply_to = self._threading(gd, incoming, letter, referee)
        redact = letter.redact
        if gd is not None and redact is None:
            redact = [p["secret"] for p in self.reads.secrets(gd)["players"]]
        redact = (redact or []) + (incoming.passwords_seen if incoming is not None else [])
        move_number = None
        if gd is not None:
            with contextlib.suppress(PbemError):
                move_number = self.reads.public(gd)["move_number"]
        return compose.message(referee, letter.to, letter.subject, letter.body, game=gd.id if gd else None,
                               move_number=move_number, in_reply_to=in_reply_to, references=references,
                               redact=redact, answer=letter.reply and incoming is not None,
                               message_id=letter.message_id)

    @staticmethod
    def _threading(gd, incoming: Incoming | None, letter: Letter, referee: str) -> tuple[list[str], str | None]:
        """(References, In-Reply-To): a reply follows the message it answers; any mail of a game's thread follows
        that thread's root."""
        references, in_reply_to = [], None
        threaded = gd is not None and letter.thread != NO_THREAD
        if threaded:
            references.append(compose.thread_root(gd, letter.thread, referee))
        if letter.reply and incoming is not None and incoming.has_message_id:
            references += incoming.references
            in_reply_to = incoming.references[-1] if incoming.references else None
        elif letter.answers:
            references.append(letter.answers)
            in_reply_to = letter.answers
        elif threaded:
            in_reply_to = compose.thread_root(gd, letter.thread, referee)
        return references, in_reply_to

    # ------------------------------------------------------------ sending

    def send(self, messages: list[EmailMessage]) -> tuple[list[str], str | None]:
        """Send; if the transport fails, keep the mails in ROOT/.pbem-mail/unsent (send them later with
        `pbem mail resend`), so a move that was applied is never lost with its reports."""
        try:
            return self.transport.send(messages), None
        except PbemError as exc:
            return [], self._keep_unsent(messages, exc)

    def _keep_unsent(self, messages: list[EmailMessage], error: PbemError, once: bool = False) -> str:
        from .transport import Outbox
        Outbox(self.ledger.unsent()).send(messages, once=once)  # the outbox's own Maildir delivery, flushed to disk
        where = self.kept_in or f"{self.ledger.unsent()} for `pbem mail resend`"
        return f"{error}; {plural(len(messages), 'mail')} kept in {where}"

    def send_owed(self, game: str, messages: list[EmailMessage], records: dict[str, dict] | None = None
                  ) -> tuple[list[str], str | None]:
        """Send mails that must go exactly once (what a change owes, a digest; each with a Message-ID that is the
        same when the mail is made again): one the ledger records as sent is not sent again, and each is
        recorded (with its `records` entry) as soon as the transport took it. The transport delivers each once
        too (an outbox skips a mail it holds already), so a run killed between the two sends nothing twice. Under
        the mail lock of the `game` they are about."""
        with self.ledger.locked(game):
            waiting = [m for m in messages if self.ledger.get(compose.sent_key(str(m["Message-ID"]))) is None]
            sent, warning = [], None
            for index, msg in enumerate(waiting):
                try:
                    sent += self.transport.send([msg], once=True)
                except PbemError as exc:
                    rest = waiting[index:]
                    warning = self._keep_unsent(rest, exc, once=True)
                    for kept in rest:
                        self._sent(kept, records)
                    break
                self._sent(msg, records)
        return sent, warning

    def _sent(self, msg: EmailMessage, records: dict[str, dict] | None) -> None:
        message_id = str(msg["Message-ID"])
        self.ledger.put(compose.sent_key(message_id), {"state": "done", "result": "sent",
                                                      **(records or {}).get(message_id, {})})

    def resend(self) -> tuple[int, list[str]]:
        """Send the mails a failed transport left in the unsent Maildir; each is removed once it is sent."""
        path = self.ledger.unsent()
        if not path.is_dir():
            return 0, []
        import mailbox  # here: a run with nothing unsent (the usual one) needs no mailbox module
        box = mailbox.Maildir(path, create=False)
        count, sent = 0, []
        with self.ledger.locks.hold(UNSENT):
            for key in sorted(box.keys()):
                msg = email.message_from_bytes(box.get_bytes(key), _class=EmailMessage,
                                               policy=compose.POLICY)
                sent += self.transport.send([msg])
                box.remove(key)
                count += 1
        return count, sent


def _default_address() -> str:
    from .transport import hostname
    host = f"pbem@{hostname()}"
    return host if headers.is_writable(host) else "pbem@localhost"
