"""A new game's welcome mails, when `pbem new` is given a way to send them (--smtp or --outbox): the mail
transport's part of `new`, so the core command line sends no mail itself."""
from __future__ import annotations

from ..contract import PbemError, UsageError


def prepare(organiser: str | None, smtp: str | None, outbox, smtp_user: str | None, starttls: str | None):
    """The transport the welcomes will go by, checked before the game exists (an outbox that cannot be written,
    no organiser to write from: refused, and no game is made)."""
    if not organiser:
        raise UsageError("welcome mails need --organiser EMAIL (the address the referee writes from)")
    from . import transport
    sender = transport.make(smtp, outbox, smtp_user, starttls)
    sender.prepare()
    return sender


def send(gd, sender) -> tuple[list[str], PbemError | None]:
    """Mail each player with an address their welcome: (who was mailed, the failure if the mails did not go).
    The game exists either way: a failure is for the caller to report after the passwords."""
    from .commands import send_welcome
    try:
        return send_welcome(gd, transport=sender), None
    except PbemError as exc:
        return [], exc
