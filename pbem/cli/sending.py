"""The sending options shared by `pbem new` (welcome mails) and the `pbem mail` commands. Only click (and the
command line's shared option types) is imported here, so `pbem new` does not load the mail machinery unless it
sends."""
from __future__ import annotations

import click

from .options import FOLDER

SMTP_HELP = ("Send the referee's mail through this SMTP server. Login and TLS: --smtp-user and PBEM_SMTP_PASSWORD, "
             "--starttls; PBEM_SMTP_SSL=1 (or port 465), PBEM_SMTP_CAFILE (docs/email.md, \"Sending\").")


def sending(func):
    """--smtp HOST:PORT, --outbox MAILDIR, --smtp-user USER, --starttls auto|1|0."""
    func = click.option("--starttls", type=click.Choice(["auto", "1", "0"]), default=None,
                        help="STARTTLS: auto (when offered; the default), 1 (required), 0 (never). "
                             "Or PBEM_SMTP_STARTTLS.")(func)
    func = click.option("--smtp-user", metavar="USER", help="SMTP login (or PBEM_SMTP_USER); the password comes "
                        "from PBEM_SMTP_PASSWORD.")(func)
    func = click.option("--outbox", type=FOLDER, help="Write the mails into this Maildir "
                        "instead of sending them (an empty or missing folder becomes one).")(func)
    func = click.option("--smtp", metavar="HOST:PORT", help=SMTP_HELP)(func)
    return func
