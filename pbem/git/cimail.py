"""The mail ledger of a referee in CI, carried in referee.age from job to job (docs/git.md, "The referee's mails,
each once"). A CI job's games root is a temporary folder that goes with the job, so what its mail ledger knows is
sealed into the archive with the position (encrypted and MACed with it: no player can plant or edit it), and the
next job starts from it. It carries:

- owed: the mails a failing transport could not send, oldest first. The next job that has a transport sends them
  first, then its own; a job whose only news is that they went still commits, to record it. A mail the server
  refuses (reached, it refuses that mail) is dropped, so that it never holds the others back. At most OWED_MAILS
  mails and OWED_BYTES bytes are kept: beyond, the oldest are dropped, and the run's warning names them.
- sent: the ledger's records of the mails sent (or kept owed) by the runs of the last KEPT_RUNS refereed commits,
  each with the refereed commit its run started from. A job starts from the newest refereed commit of the
  history, and a mail is named after what it is about: the commit its run started from (a view), the commits
  judged after it (a refusal, a talk file), the clock's events, which the state records so they come once. The
  records of older runs are never asked again: they are dropped, and the ledger stays the size of two runs.
"""
from __future__ import annotations

import base64
import binascii
import email
import email.errors
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from ..text.phrases import plural

KEPT_RUNS = 2
OWED_MAILS = 200
OWED_BYTES = 2 * 1024 * 1024  # the git transport's mails are text, a few kB each
KEPT_IN = "referee.age, for the next run"  # where the Mailer's warning says a mail that could not go is kept


@dataclass
class Book:
    """What the archive carried, and what this job did with it."""

    sent: dict[str, str] = field(default_factory=dict)  # ledger key -> the refereed commit its run started from
    owed: list[bytes] = field(default_factory=list)  # mails owed, oldest first
    warning: str | None = None  # the ledger could not be read, or owed mails were dropped
    delivered: int = 0  # owed mails this job sent
    dropped: int = 0  # owed mails this job dropped (the server reached refused them)

    def carried(self, root: Path, chain: list[str]) -> dict:
        """What the next archive carries: the owed mails, and the sent records of the last KEPT_RUNS runs (their
        start in `chain`, the refereed commits up to the one this run started from)."""
        from ..mail.ledger import Ledger
        keep = set(chain[-KEPT_RUNS:])
        sent = {record["message_id"]: record["base"] for record in Ledger(root).records()
                if record.get("result") == "sent" and record.get("base") in keep}
        return {"sent": sent, "owed": [base64.b64encode(mail).decode("ascii") for mail in self.owed]}

    def owed_line(self) -> str | None:
        """The warning naming the mails owed, when there are."""
        if not self.owed:
            return None
        return (f"{plural(len(self.owed), 'mail')} owed (to {', '.join(recipients(self.owed))}), kept in "
                f"referee.age: the next run that reaches the mail server sends them first")


def read(carried, where: str) -> Book:
    """The ledger an archive carries (None: one made before archives carried it: nothing owed). One that cannot
    be read is left behind, and the job goes on without it and says so: it never stops a referee."""
    if carried is None:
        return Book()
    try:
        if not isinstance(carried, dict) or set(carried) != {"sent", "owed"}:
            raise ValueError("not a table of sent and owed mails")
        return Book(_sent(carried["sent"]), _owed(carried["owed"]))
    except ValueError as exc:
        return Book(warning=f"{where}: its mail ledger cannot be read ({exc}); this run goes on without it, and "
                            f"mails it owed, if any, are not sent")


def _sent(sent) -> dict[str, str]:
    if not isinstance(sent, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in sent.items()):
        raise ValueError("its sent mails are not a table of names")
    return sent


def _owed(owed) -> list[bytes]:
    if not isinstance(owed, list) or not all(isinstance(item, str) for item in owed):
        raise ValueError("its owed mails are not a list")
    try:
        mails = [base64.b64decode(item, validate=True) for item in owed]
    except binascii.Error:
        raise ValueError("an owed mail is not base64") from None
    for mail in mails:
        try:
            parsed = parse(mail)
            headers = dict(parsed.items())  # each header parsed once here, as sending it would
        except (IndexError, ValueError, email.errors.MessageError):  # (the email package's parsers raise all three)
            raise ValueError("an owed mail's headers cannot be read") from None
        if not headers.get("Message-ID") or not headers.get("To"):
            raise ValueError("an owed mail has no Message-ID or no recipient")
    return mails


def restore(book: Book, root: Path) -> None:
    """The sent records into the job's mail ledger (ROOT/.pbem-mail), where the Mailer looks before it sends."""
    from ..mail.ledger import Ledger
    ledger = Ledger(root)
    for key, base in book.sent.items():
        ledger.put(key, {"state": "done", "result": "sent", "base": base})


def collect(book: Book, root: Path, made: list[str]) -> str | None:
    """Take the mails this job's Mailer kept unsent (ROOT/.pbem-mail/unsent) into the owed ones, after the older and
    in the order they were `made` (their Message-IDs: a Maildir keeps no order); drop the oldest beyond the bounds:
    the warning naming those dropped, if any."""
    import mailbox

    from ..mail.ledger import Ledger
    path = Ledger(root).unsent()
    if path.is_dir():
        box = mailbox.Maildir(path, create=False)
        kept = {key: box.get_bytes(key) for key in sorted(box.keys())}
        rank = {message_id: index for index, message_id in enumerate(made)}
        book.owed += sorted(kept.values(), key=lambda mail: rank.get(str(parse(mail)["Message-ID"]), len(rank)))
        for key in kept:
            box.remove(key)
    book.owed, dropped = bounded(book.owed)
    if not dropped:
        return None
    return (f"{plural(len(dropped), 'older owed mail')} dropped (to {', '.join(recipients(dropped))}): referee.age "
            f"keeps at most {OWED_MAILS} mails owed, {OWED_BYTES // (1024 * 1024)} MB")


def bounded(owed: list[bytes]) -> tuple[list[bytes], list[bytes]]:
    """(the newest owed mails within the bounds, the older ones dropped)."""
    kept, size = [], 0
    for mail in reversed(owed):
        if len(kept) == OWED_MAILS or size + len(mail) > OWED_BYTES:
            break
        kept.append(mail)
        size += len(mail)
    kept.reverse()
    return kept, owed[:len(owed) - len(kept)]


def parse(mail: bytes) -> EmailMessage:
    from ..mail import compose
    return email.message_from_bytes(mail, _class=EmailMessage, policy=compose.POLICY)


def recipients(mails: list[bytes]) -> list[str]:
    return list(dict.fromkeys(str(parse(mail)["To"]) for mail in mails))
