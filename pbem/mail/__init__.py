"""Play by email: the referee reads players' mail (one message, or a Maildir, mbox or IMAP folder) and answers.

parse.py reads a message; commands.py decides what to do with it; compose.py writes the answers; transport.py
sends them (SMTP or an outbox Maildir); inbox.py walks mailboxes; ledger.py makes each message count once;
cli.py is the `pbem mail` command group.
"""
