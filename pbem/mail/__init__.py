"""Play by email: the referee reads players' mail (one message, or a Maildir, mbox or IMAP folder) and answers.

parse.py reads a message; commands.py decides what to do with it (its Referee's sending side in outgoing.py,
what it tells each player in telling.py); compose.py writes the answers; transport.py sends them (SMTP or an
outbox Maildir); inbox.py walks mailboxes; ledger.py makes each message count once; cli.py is the `pbem mail`
command group.
"""
