"""What handling a message came to (an Outcome, printed one line a message), and a message refused (Reject: bad
mail, answered with what is wrong, nothing changed)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..messages import Message, lazy
from . import parse


@dataclass
class Outcome:
    """What happened to one message (printed one line a message by the CLI; never holds a password)."""

    message_id: str
    result: str  # accepted | command | rejected | duplicate | ignored
    detail: str
    game: str | None = None
    player: str | None = None
    replies: list[str] = field(default_factory=list)
    warning: str | None = None

    def line(self) -> str:
        who = f"{self.game or '-'}" + (f"/{self.player}" if self.player else "")
        sent = f"; mailed {', '.join(self.replies)}" if self.replies else ""
        warn = f"; WARNING: {self.warning}" if self.warning else ""
        return f"{self.result}: {who}: {self.detail}{sent}{warn} [{self.message_id}]"


class Reject(Exception):
    """Bad mail: answered with `error` (a str, or a Message its reader gets in their language; and `extra`
    sections, written in the reader's language already), nothing changed; `seen`: the view of the player whose
    move it refused, when that player proved who they are (the answer then carries its picture)."""

    def __init__(self, error: str | Message, extra: list[str] | None = None, seen: dict | None = None,
                 english: str | None = None):
        super().__init__(error)
        self.error, self.extra, self.seen, self._english = error, extra or [], seen, english

    def english(self) -> str:
        """What was wrong, in English (the organiser's log of outcomes; `english`: given when `error` was
        rendered in the reader's language already)."""
        if self._english is not None:
            return self._english
        return self.error.english() if isinstance(self.error, Message) else str(self.error)


def too_large(incoming: parse.Incoming, extra: list[str] | None = None) -> Reject:
    """A message too large to read, refused with how large it is."""
    # TRANSLATORS: {size}: the message's size in MB, one decimal; {most}: the largest size read, in MB.
    return Reject(lazy("your message is {size} MB; the referee reads messages of at most {most} MB and this one was "
                       "not read. Send your move as plain text without attachments.",
                       size=f"{incoming.size / 1048576:.1f}", most=parse.MAX_MESSAGE_BYTES // 1048576), extra)
