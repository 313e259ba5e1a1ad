"""`pbem mail ...`: the email transport's commands. Thin: options to a Referee, one line per message out."""
from __future__ import annotations

import sys

import click

from ..contract import PbemError, UsageError
from ..engine import engine
from ..text.phrases import plural
from .options import FILE, FOLDER, NOW, WORKERS, sending


def _games_root(func):
    func = click.option("--from", "from_address", metavar="EMAIL", help="The referee's address for mail about no "
                        "game (default: PBEM_FROM, or pbem@this-host); a game's own mail comes from its "
                        "organiser.")(func)
    return click.option("--games", "root", required=True, type=FOLDER,
                        help="The games root: each game is a directory named by its id.")(func)


def _referee(root, smtp, outbox, smtp_user, starttls, from_address, now=None):
    from ..mail import transport
    from ..mail.commands import Referee
    return Referee(root, transport.make(smtp, outbox, smtp_user, starttls), from_address, now)


@click.group()
def mail():
    """Play by email: the referee reads players' mail and answers with reports.

    Players answer the last report with their move; see docs/email.md for the setup (procmail, .forward,
    fetchmail, getmail) and what players write.
    """


@mail.command()
@_games_root
@sending
@NOW
def receive(root, from_address, smtp, outbox, smtp_user, starttls, now):
    """Handle one message read from standard input (behind procmail, .forward or an MTA's pipe).

    Exits 0 when the message was handled: a move applied, or a clear answer sent about what was wrong.
    """
    from ..mail.parse import read_limited
    referee = _referee(root, smtp, outbox, smtp_user, starttls, from_address, _now(now))
    raw, size = read_limited(sys.stdin.buffer)
    if not raw.strip():
        raise UsageError("no message on standard input")
    outcome = referee.handle(raw, size)
    click.echo(outcome.line())
    if outcome.warning:
        click.echo(f"pbem: warning: {outcome.warning}", err=True)


@mail.command()
@_games_root
@click.option("--maildir", type=FOLDER, help="A Maildir of waiting mail (new/ and unseen cur/).")
@click.option("--mbox", type=FILE, help="An mbox file of waiting mail.")
@click.option("--imap", metavar="URL", help="imap://USER@HOST[:PORT]/FOLDER or imaps://...; the password comes from "
              "PBEM_IMAP_PASSWORD (or the URL).")
@click.option("--processed", default="pbem-processed", show_default=True, metavar="FOLDER",
              help="IMAP: the folder handled mail is moved to.")
@sending
@NOW
@WORKERS
def inbox(root, from_address, maildir, mbox, imap, processed, smtp, outbox, smtp_user, starttls, now, workers):
    """Handle every waiting message of a mailbox, in arrival order, each exactly once; with several workers, the
    mail of different games side by side (each game's in arrival order)."""
    from ..engine.parallel import cores
    from ..mail import inbox as boxes
    if sum(x is not None for x in (maildir, mbox, imap)) != 1:
        raise UsageError("give exactly one of --maildir PATH, --mbox PATH or --imap URL")
    referee = _referee(root, smtp, outbox, smtp_user, starttls, from_address, _now(now))
    workers = workers or cores()
    if maildir:
        outcomes = boxes.maildir(referee, maildir, workers)
    elif mbox:
        outcomes = boxes.mbox(referee, mbox, workers)
    else:
        outcomes = boxes.imap(referee, imap, processed, workers)
    for outcome in outcomes:
        click.echo(outcome.line())
    errors = [o for o in outcomes if o.result == "error"]
    counts = {}
    for outcome in outcomes:
        counts[outcome.result] = counts.get(outcome.result, 0) + 1
    summary = ", ".join(f"{n} {what}" for what, n in sorted(counts.items())) or "no waiting mail"
    click.echo(f"{plural(len(outcomes), 'message')}: {summary}.", err=True)
    if errors:
        raise PbemError(f"{plural(len(errors), 'message')} could not be handled and stay in the mailbox (see above)")


def _now(text):
    from ..text.times import parse_time
    return parse_time(text) if text else None


@mail.command()
@click.argument("directory", metavar="DIR", type=FOLDER)
@sending
def welcome(directory, smtp, outbox, smtp_user, starttls):
    """Mail every player of the game in DIR their welcome again: their password and how to move."""
    from ..mail import transport
    from ..mail.welcome import send_welcome
    gd = engine.open_game(directory)
    mailed = send_welcome(gd, transport=transport.make(smtp, outbox, smtp_user, starttls))
    click.echo(f"{gd.id}: welcome mailed to {', '.join(mailed) or 'nobody'}")


@mail.command()
@_games_root
@sending
def resend(root, from_address, smtp, outbox, smtp_user, starttls):
    """Send the replies a failed SMTP connection left in ROOT/.pbem-mail/unsent."""
    referee = _referee(root, smtp, outbox, smtp_user, starttls, from_address)
    count, sent = referee.resend()
    click.echo(f"{plural(count, 'mail')} sent" + (f" to {', '.join(sorted(set(sent)))}" if sent else ""))
