"""`pbem git say` and `pbem git talk`: table talk by git (pbem.git.talk). Thin: options to a call, lines out."""
from __future__ import annotations

import os

import click

from ..tables import fit_lines
from .options import FILE, FOLDER, FORMAT, LANGUAGE, emit, secret_from


@click.command()
@click.argument("directory", metavar="DIR", type=FOLDER)
@click.argument("text", metavar="TEXT", required=False)
@click.option("--as", "player", required=True, metavar="NAME", help="Your player name.")
@click.option("--to", "to", metavar="PLAYER", help="One player only: the file is encrypted to their key, yours and "
              "the referee's. Default: the whole table, in the clear.")
@click.option("--file", "text_file", help="Read the message from this file ('-': standard input).")
@click.option("--secret-file", type=FILE, help="A file holding your secret (or PBEM_SECRET). "
              "Without a secret the commit is signed with your SSH key (git's gpg.format ssh).")
@click.option("--push", is_flag=True, help="Push it too (rebased on whatever was pushed meanwhile).")
@FORMAT
def say(directory, text, player, to, text_file, secret_file, push, fmt):
    """Commit a message to the table, or to one player (--to), signed like a move (then: git push); the referee
    keeps it in the game's talk, outside the moves."""
    from ..git.talk import committed, say as commit_message
    from .club import read_message
    message = read_message(text, text_file)
    secret = secret_from(None, secret_file) if secret_file or os.environ.get("PBEM_SECRET") else None
    result = commit_message(directory, player, message, to, secret, push)
    _notes(result["notes"])
    emit(result, fmt, lambda r: fit_lines(committed(r)) + "\n")


@click.command()
@click.argument("directory", metavar="DIR", type=FOLDER, default=".")
@click.option("--as", "player", required=True, metavar="NAME", help="Your player name.")
@click.option("--identity", "identity_file", type=FILE, metavar="KEYFILE",
              help="Your private key, to read your private messages (default: PBEM_IDENTITY, ~/.ssh/id_ed25519, "
                   "~/.ssh/id_rsa).")
@LANGUAGE
@FORMAT
def talk(directory, player, identity_file, language, fmt):
    """Show the game's talk as of the last refereed commit: the messages to the table, and your private ones
    (decrypted with your key)."""
    from ..git.talk import heard
    from ..text import talktext
    data, notes = heard(directory, player, identity_file, language)
    _notes(notes)
    emit(data, fmt, talktext.talk_text)


def _notes(notes: list[str]) -> None:
    from .git import _notes as shown  # the transport's notes (commits not refereed yet), on stderr
    shown(notes)
