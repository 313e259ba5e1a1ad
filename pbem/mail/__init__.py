"""Play by email: the referee reads players' mail (one message, or a Maildir, mbox or IMAP folder) and answers.

parse.py reads a message; commands.py decides what to do with it (its Referee: moves.py reads a player's lines,
admin.py makes vacations and mail preferences, outcome.py says what came of it); telling.py says what each
player is told; compose.py writes the answers; outgoing.py's Mailer addresses and sends them (transport.py:
SMTP or an outbox Maildir); inbox.py walks mailboxes; ledger.py makes each message count once; clockmail.py
tells reminders, notices and digests. The `pbem mail` commands are pbem.cli.mail.
"""
