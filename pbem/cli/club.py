"""The commands of club life that are no move: `pbem watch` (spectators, the organiser's), `pbem say` (a player's
message to the table or to one seat) and `pbem talk` (the talk a reader may see; what talk the game allows).
Thin: options to a call of pbem.clock.club or pbem.clock.talk, lines or data out. Loaded only when one runs."""
from __future__ import annotations

import click

from ..clock import club, talk as talking
from ..contract import PbemError, UsageError
from ..engine import engine
from ..messages import _
from ..play import trust
from ..text import talktext
from .options import AS_PLAYER, FORMAT, GAME_DIR, LANGUAGE, NOW, emit, opened, secret_from


@click.command()
@GAME_DIR
@click.option("--add", "added", multiple=True, metavar="EMAIL", help="Admit a spectator: they get the public "
              "report of every move by mail (repeatable).")
@click.option("--remove", "removed", multiple=True, metavar="EMAIL", help="A spectator no longer watches "
              "(repeatable).")
@click.option("--notify", type=click.Choice(club.SPECTATOR_NOTIFY), default="every", show_default=True,
              help="With --add: a mail after every move, or one daily digest (sent by `pbem tick`).")
@click.option("--watchers", type=click.Choice(club.WATCHERS), help="Who may watch: those the organiser admits, "
              "or anyone who asks by mail (`watch`, confirmed from their address).")
@FORMAT
def watch(directory, added, removed, notify, watchers, fmt):
    """Show or change who watches a game (the organiser's command). Spectators get the public view only."""
    gd = engine.open_game(directory)
    secrets = engine.load_secrets(gd)
    data = {"game": gd.id, "club": club.settings(secrets), "spectators": club.spectators(secrets)}
    if watchers:
        data = {**data, "club": club.configure(gd, watchers=watchers)}
    for address in added:
        data = club.admit(gd, address, notify)
    for address in removed:
        data = club.dismiss(gd, address)
    emit(data, fmt, talktext.watchers_text)


@click.command()
@GAME_DIR
@click.argument("text", metavar="TEXT", required=False)
@click.option("--as", "player", required=True, help="Who speaks.", **AS_PLAYER)
@click.option("--to", "to", metavar="PLAYER", help="One player only (a private message); default: the table.")
@click.option("--file", "text_file", help="Read the message from this file ('-': standard input).")
@click.option("--secret", help="The player's secret (or PBEM_SECRET): only a player speaks for their seat.")
@click.option("--secret-file", type=click.Path(dir_okay=False), help="A file holding the secret.")
@NOW
@LANGUAGE
@FORMAT
def say(directory, text, player, to, text_file, secret, secret_file, now, language, fmt):
    """Say TEXT to the table, or to one player (--to): kept in the game's talk, outside the moves."""
    gd = opened(directory, player, language)
    if to is not None:
        refuse_private_talk_by_git(directory, gd.id, player, to)
    message = read_message(text, text_file)
    engine.check_player(gd, player)
    entry = next(p for p in engine.load_secrets(gd)["players"] if p["name"] == player)
    if not trust.same_secret(entry["secret"], secret_from(secret, secret_file)):
        raise PbemError(_("wrong secret for {player}: only the player may speak for their seat.", player=player))
    data = talking.say(gd, player, message, to, now)
    emit(data, fmt, talktext.said_text)


@click.command()
@GAME_DIR
@click.option("--as", "player", help="Show what this player may read (the table's talk and their private "
              "messages); default: the table's talk.", **AS_PLAYER)
@click.option("--allow", type=click.Choice(club.TALK), help="The organiser: allow all talk, messages to the "
              "table only, or none.")
@LANGUAGE
@FORMAT
def talk(directory, player, allow, language, fmt):
    """Show a game's talk, or change what talk it allows (--allow, the organiser's)."""
    gd = opened(directory, player, language)
    if allow:
        club.configure(gd, talk=allow)
    messages = talking.heard_by(gd, player) if player else talking.table(gd)
    allowed = club.settings(engine.load_secrets(gd))["talk"] if gd.has_referee() else None
    emit({"game": gd.id, "talk": allowed, "messages": messages}, fmt, talktext.talk_text)


def refuse_private_talk_by_git(directory, game: str, player: str, to: str) -> None:
    """A private message kept in a git referee's directory would reach no one: git players read theirs from the
    repository, encrypted to their keys, where only `pbem git say` puts it (the table's talk is published)."""
    from ..git import desk
    if desk.refereed_by_git(directory):
        # TRANSLATORS: the command in it is typed as it is; {player}, {to}: player names.
        raise PbemError(_("{game} is played by git: a private message kept here would reach no player, as git "
                          "players read theirs from the repository, encrypted to their keys. {player} sends it "
                          "from their clone: pbem git say . --as {player} --to {to} \"...\" --push. A message to "
                          "the whole table (without --to) is published by the referee's next run.", game=game,
                          player=player, to=to))


def read_message(text: str | None, text_file: str | None) -> str:
    if (text is None) == (text_file is None):
        raise UsageError("give the message as TEXT or --file FILE (one of them)")
    if text is not None:
        return text
    from ..store.safefiles import read_bounded
    data = read_bounded(text_file, talking.MAX_BYTES)  # a larger one is refused unread
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PbemError(_("{file} is not UTF-8 text.", file=text_file)) from None
