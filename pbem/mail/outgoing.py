"""The referee's mail going out: its replies made durable in batches with the ledger's records, each mail addressed
and threaded (compose.message), sent, or kept for `pbem mail resend` when the transport fails; mails that must go
exactly once. A part of pbem.mail.commands.Referee, which holds the transport, the ledger and the games."""
from __future__ import annotations

import contextlib
import email
import mailbox
from email.message import EmailMessage

from ..contract import PbemError
from ..text.phrases import plural
from . import compose, news

BATCH = 50  # messages of a mailbox whose replies and ledger records are made durable together


class Outgoing:
    """The Referee's sending side (it needs the Referee's transport, ledger, _secrets, _public and news books)."""

    @contextlib.contextmanager
    def batch(self):
        """Handle many messages under one lock, their replies and `done` records made durable together every
        BATCH messages and at the end (one fsync pass for many, see ledger.py); `after` keeps what must wait for
        that (moving a message aside). A move is on disk before its replies are written, as always."""
        with self.ledger.locked():
            self.transport.hold()
            self.ledger.begin_batch()
            self._after = []
            self._books = {}
            try:
                yield self
            finally:
                try:
                    self.flush()
                finally:
                    self._after = None
                    try:
                        self.ledger.end_batch()
                    finally:
                        self.transport.release()

    def after(self, callback) -> None:
        """Run `callback` once what the messages handled so far changed is on disk: now, or at the next flush."""
        if self._after is None:
            callback()
            return
        self._after.append(callback)
        if len(self._after) >= BATCH:
            self.flush()

    def flush(self) -> None:
        """The replies held, then the done records (so a record never names replies that are not on disk), then
        what waited for them."""
        self.transport.flush()
        self.ledger.flush()
        news.save(list(self._books.values()))
        waiting = self._after or []
        if self._after is not None:
            self._after = []
        for callback in waiting:
            callback()

    def referee_address(self, gd) -> str:
        if gd is not None:
            try:
                organiser = self._secrets(gd).get("organiser")
            except PbemError:
                organiser = None
            if organiser:
                return organiser
        return self.default_from

    def _mail(self, gd, incoming, to: str, subject: str, body: str, *, reply: bool,
              player: str | None = "", redact: list[str] | None = None, message_id: str | None = None
              ) -> EmailMessage:
        referee = self.referee_address(gd)
        references = []
        if gd is not None and player != "":
            references.append(compose.thread_root(gd, player, referee))
        in_reply_to = None
        if reply and incoming is not None and incoming.has_message_id:
            references += incoming.references
            in_reply_to = incoming.references[-1] if incoming.references else None
        elif gd is not None and player != "":
            in_reply_to = compose.thread_root(gd, player, referee)
        if gd is not None and redact is None:
            redact = [p["secret"] for p in self._secrets(gd)["players"]]
        redact = (redact or []) + (incoming.passwords_seen if incoming is not None else [])
        move_number = None
        if gd is not None:
            try:
                move_number = self._public(gd)["move_number"]
            except PbemError:
                move_number = None
        return compose.message(referee, to, subject, body, game=gd.id if gd else None, move_number=move_number,
                               in_reply_to=in_reply_to, references=references, redact=redact,
                               answer=reply and incoming is not None, message_id=message_id)

    def send(self, messages: list[EmailMessage]) -> tuple[list[str], str | None]:
        """Send; if the transport fails, keep the mails in ROOT/.pbem-mail/unsent (send them later with
        `pbem mail resend`), so a move that was applied is never lost with its reports."""
        try:
            return self.transport.send(messages), None
        except PbemError as exc:
            from .transport import Outbox
            Outbox(self.ledger.unsent()).send(messages)  # the outbox's own Maildir delivery, flushed to disk
            return [], (f"{exc}; {plural(len(messages), 'mail')} kept in {self.ledger.unsent()} for "
                        f"`pbem mail resend`")

    def send_owed(self, messages: list[EmailMessage], records: dict[str, dict] | None = None
                  ) -> tuple[list[str], str | None]:
        """Send mails that must go exactly once (what a change owes, a digest; each with a Message-ID that is the
        same when the mail is made again): one the ledger records as sent is not sent again, and each is
        recorded (with its `records` entry) as soon as the transport took it. The transport delivers each once
        too (an outbox skips a mail it holds already), so a run killed between the two sends nothing twice."""
        with self.ledger.locked():
            waiting = [m for m in messages if self.ledger.get(compose.sent_key(str(m["Message-ID"]))) is None]
            sent, warning = [], None
            for index, msg in enumerate(waiting):
                try:
                    sent += self.transport.send([msg], once=True)
                except PbemError as exc:
                    from .transport import Outbox
                    rest = waiting[index:]
                    Outbox(self.ledger.unsent()).send(rest, once=True)
                    warning = (f"{exc}; {plural(len(rest), 'mail')} kept in {self.ledger.unsent()} for "
                               f"`pbem mail resend`")
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
        box = mailbox.Maildir(path, create=False)
        count, sent = 0, []
        with self.ledger.locked():
            for key in sorted(box.keys()):
                msg = email.message_from_bytes(box.get_bytes(key), _class=EmailMessage,
                                               policy=compose.POLICY)
                sent += self.transport.send([msg])
                box.remove(key)
                count += 1
        return count, sent
