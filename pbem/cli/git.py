"""`pbem git ...`: the git transport's commands. Thin: options in, a call, lines or data out, exit code."""
from __future__ import annotations

import os
import sys

import click

from ..contract import PbemError, UsageError
from ..tables import fit_lines
from .options import (FILE, FOLDER, FORMAT, LANGUAGE, NOW, bot_seats, club_options, deadline_options,
                      deadlines_from, emit, note_greedy_instead, parse_languages, parse_options, read_input,
                      secret_from)

REFEREE_DIR = click.option("--referee-dir", "referee_root", type=FOLDER, metavar="ROOT",
                           envvar="PBEM_REFEREE_DIR",
                           help="Where the referee keeps its games, outside the repository (default: "
                                "PBEM_REFEREE_DIR or ~/.local/share/pbem/git).")


PBEM_SOURCE = click.option("--pbem-source", metavar="REQUIREMENT",
                           help="Where the CI files install pbem from: what pip takes (a git URL with a tag, "
                                "git+https://your.club/pbem.git@v0.2.0; a wheel's URL; pbem==0.2.0 once published). "
                                "Without one, the CI job stops at once and says so.")


def _parse_keys(pairs: tuple[str, ...]) -> dict[str, str]:
    from ..git.keys import parse_recipient
    found = {}
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or not name or not path:
            raise UsageError(f"--key {pair!r}: write NAME=PUBLIC-KEY-FILE")
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(16384)
        except (OSError, UnicodeDecodeError) as exc:
            raise PbemError(f"{path}: cannot read the public key ({getattr(exc, 'strerror', None) or exc})") from None
        found[name.strip()] = parse_recipient(text, path)
    return found


def _referee_identity(identity_file):
    """A referee in CI: its private key from --identity or the CI secret PBEM_REFEREE_IDENTITY; else None."""
    from ..git.keys import Identity
    from ..git.layout import IDENTITY_VARIABLE
    if identity_file:
        return Identity.from_file(identity_file)
    if os.environ.get(IDENTITY_VARIABLE):
        return Identity(os.environ[IDENTITY_VARIABLE], IDENTITY_VARIABLE)
    return None


@click.group()
def git():
    """Play by git: players commit moves, the referee commits positions (docs/git.md)."""


@git.command()
@click.argument("game_type", metavar="GAME")
@click.argument("directory", metavar="DIR", type=FOLDER)
@click.option("--player", "players", multiple=True, required=True, metavar="NAME[:EMAIL]",
              help="A player, in seating order; repeat for each.")
@click.option("--key", "keys", multiple=True, metavar="NAME=PUBLIC-KEY-FILE",
              help="A player's SSH (ssh-ed25519, ssh-rsa) or age public key: their view is committed encrypted "
                   "to it, and an SSH key may sign their commits. Players without one get their view by mail.")
@click.option("--seed", help="The secret seed of decks and dice (default: random).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A variant or option; see `pbem games`.")
@click.option("--components", type=FILE, help="A club's own card and board data (YAML).")
@click.option("--organiser", metavar="EMAIL", help="The address views are mailed from.")
@REFEREE_DIR
@click.option("--ci-identity", type=FILE, metavar="KEYFILE",
              help="A referee in CI: its files are committed encrypted to this key, which also signs its "
                   "commits (an OpenSSH private key with its .pub beside it, made (ed25519) if absent; an age "
                   "identity file decrypts but cannot sign). Its content goes in the CI secret "
                   "PBEM_REFEREE_IDENTITY.")
@click.option("--branch", help="The game's branch (default: main).")
@click.option("--language", "language", metavar="CODE", help="The game's language: the README, the referee's commit "
              "messages, and what its players read unless they choose their own (en, the default; fr; zh-Hant; "
              "zh-Hans).")
@click.option("--player-language", "player_languages", multiple=True, metavar="PLAYER=CODE", help="A player's own "
              "language (they may change it later: pbem git language); repeat for each player.")
@click.option("--bot", "bots", multiple=True, metavar="PLAYER=LEVEL", help="Seat a bot, played at LEVEL (random, "
              "greedy, search, search:N for N simulations a decision) by the referee after the move that makes it "
              "its turn; the seat needs no key. Repeatable.")
@PBEM_SOURCE
@deadline_options
@club_options
@NOW
@FORMAT
def init(game_type, directory, players, keys, seed, options, components, organiser, referee_root, ci_identity,
         branch, language, player_languages, bots, pbem_source, deadline, reminder, on_timeout, timeout_bots,
         timeouts, vacation_days, watchers, talk, now, fmt):
    """Start a game of GAME in a new git repository DIR (DIR's name is the game's id)."""
    from ..clock.correspondence import parse_player
    from ..git.start import init as start
    from ..store import registry
    from ..text.phrases import bot_seat_lines
    seats = [parse_player(p) for p in players]
    note_greedy_instead(registry.get(game_type), [*bots, *timeout_bots])
    language, languages = parse_languages(language, player_languages, [name for name, _ in seats])
    result = start(game_type, directory, seats, _parse_keys(keys), seed=seed,
                   options=parse_options(options), components=components, organiser=organiser,
                   referee_root=referee_root, ci_identity=ci_identity, branch=branch,
                   deadlines=deadlines_from(deadline, reminder, on_timeout, timeouts, vacation_days, timeout_bots),
                   now=now, pbem_source=pbem_source, language=language, languages=languages, bots=bot_seats(bots),
                   club_settings=(watchers, talk))

    def text(data):
        lines = [f"Created {data['game']} ({data['game_type']}) in the git repository {data['dir']} "
                 f"(branch {data['branch']}, commit {data['commit'][:10]}).",
                 "The referee's files are " + (f"in {data['referee_dir']}" if data["referee_dir"] else
                                               f"committed encrypted to the key in {ci_identity} (referee.age): "
                                               f"put that file's content in the CI secret PBEM_REFEREE_IDENTITY") + ".",
                 "Give each player their secret (it signs their move files; keep it private):"]
        lines += [f"  {p['name']}: {p['secret']}  (view: {data['views'][p['name']]})" for p in data["players"]
                  if p["name"] not in data["bots"]]
        lines += bot_seat_lines(data["bots"])
        lines.append("Next: add a remote and push (git remote add origin URL; git push -u origin "
                     f"{data['branch']}).")
        return "\n".join(lines) + "\n"
    emit(result, fmt, text)


@git.command()
@click.argument("directory", metavar="DIR", type=FOLDER)
@click.argument("source", metavar="FILE|-", required=False)
@click.option("--as", "player", required=True, metavar="NAME", help="Your player name.")
@click.option("--text", "text", metavar="MOVE", help="The move (`;` between moves of one turn).")
@click.option("--secret-file", type=FILE, help="A file holding your secret (or PBEM_SECRET). "
              "Without a secret the commit is signed with your SSH key (git's gpg.format ssh).")
@click.option("--push", is_flag=True, help="Push it too (rebased on whatever was pushed meanwhile).")
@click.option("--identity", "identity_file", type=FILE, metavar="KEYFILE",
              help="Your private key, to check the move against your legal moves before it is committed "
                   "(default: PBEM_IDENTITY, ~/.ssh/id_ed25519, ~/.ssh/id_rsa; without one the referee judges).")
@LANGUAGE
@FORMAT
def move(directory, source, player, text, secret_file, push, identity_file, language, fmt):
    """Write and commit your move for the current move number (then: git push)."""
    from ..notation import split_turn
    from ..git.player import move as make_move
    if (source is None) == (text is None):
        raise UsageError("give exactly one of FILE, - or --text MOVE")
    secret = None
    if secret_file or os.environ.get("PBEM_SECRET"):
        secret = secret_from(None, secret_file)
    result = make_move(directory, player, split_turn(text) if text is not None else None,
                       read_input(source) if source is not None else None, secret, push, identity_file, language)

    def out(r):
        from ..git.player import committed, whole_turn
        return fit_lines("\n".join([committed(r), *([whole_turn(r["player"])] if r["whole_turn"] else [])])) + "\n"
    _notes(result["notes"])
    emit(result, fmt, out)


@git.command()
@click.argument("directory", metavar="DIR", type=FOLDER)
@click.option("--as", "player", required=True, metavar="NAME", help="Your player name.")
@click.option("--agree", is_flag=True, help="Agree to the takeback another player asked.")
@click.option("--decline", is_flag=True, help="Decline it: the move stands.")
@click.option("--secret-file", type=FILE, help="A file holding your secret (or PBEM_SECRET). "
              "Without a secret the commit is signed with your SSH key (git's gpg.format ssh).")
@click.option("--push", is_flag=True, help="Push it too (rebased on whatever was pushed meanwhile).")
@LANGUAGE
@FORMAT
def takeback(directory, player, agree, decline, secret_file, push, language, fmt):
    """Commit a request to take back your last decision, or (--agree, --decline) your answer to one (then: git
    push); the referee's run judges it."""
    from ..engine import engine
    from ..git.player import takeback as commit_takeback, takeback_committed
    if agree and decline:
        raise UsageError("give at most one of --agree and --decline")
    secret = secret_from(None, secret_file) if secret_file or os.environ.get("PBEM_SECRET") else None
    word = engine.TAKEBACK_AGREE if agree else engine.TAKEBACK_DECLINE if decline else engine.TAKEBACK_REQUEST
    result = commit_takeback(directory, player, word, secret, push, language)
    emit(result, fmt, lambda r: fit_lines(takeback_committed(r, word)) + "\n")


@git.command()
@click.argument("directory", metavar="DIR", type=FOLDER, default=".")
@REFEREE_DIR
@click.option("--identity", "identity_file", type=FILE, metavar="KEYFILE",
              help="A referee in CI: its private key (or the secret PBEM_REFEREE_IDENTITY).")
@click.option("--remote", metavar="NAME", help="Fetch this remote first and push the result (retrying if a player "
              "pushed meanwhile).")
@click.option("--branch", help="The game's branch on the remote (default: the current branch).")
@click.option("--smtp", metavar="HOST:PORT", help="Mail the views of players without a key through this server.")
@click.option("--outbox", type=FOLDER, help="Or write those mails into this Maildir.")
@click.option("--tick", is_flag=True, help="Also run the clock: reminders (mailed to players with an address, "
              "through --smtp/--outbox) and the timeout policy of overdue decisions, committed like any move.")
@click.option("--key", "keys", multiple=True, metavar="SEAT=PUBLIC-KEY-FILE",
              help="Give a seat a new public key (after `pbem replace`): its view is encrypted to it from this "
                   "commit, and a new SSH key is the one that may sign its commits.")
@PBEM_SOURCE
@NOW
@FORMAT
def referee(directory, referee_root, identity_file, remote, branch, smtp, outbox, tick, keys, pbem_source, now, fmt):
    """Judge every commit after the last refereed one; commit the new position (in the referee's clone)."""
    from ..git.referee import referee as run_referee
    mailer = None
    if smtp or outbox:
        from ..mail import transport
        mailer = transport.make(smtp, outbox)
    if now is not None:
        from ..text.times import parse_time
        now = parse_time(now)
    run = run_referee(directory, referee_root=referee_root, identity=_referee_identity(identity_file),
                      remote=remote, branch=branch, mailer=mailer, tick=tick, now=now, new_keys=_parse_keys(keys),
                      pbem_source=pbem_source)
    data = {"game": run.game, "commit": run.commit, "move_number": run.move_number, "finished": run.finished,
            "pushed": run.pushed, "mailed": run.mailed, "warning": run.warning, "clock": run.clock,
            "rekeyed": run.rekeyed, "botted": run.botted, "unbotted": run.unbotted, "added": run.added,
            "deferred": run.deferred, "recorded": run.before, "owed_sent": run.owed_sent,
            "owed_dropped": run.owed_dropped,
            "commits": [{"commit": v.commit, "verdict": v.kind, "file": v.path, "reason": v.reason}
                        for v in run.verdicts]}
    emit(data, fmt, lambda _: "".join(f"{line}\n" for line in run.lines()))


@git.command()
@click.argument("directory", metavar="DIR", type=FOLDER, default=".")
@click.option("--rev", default="HEAD", show_default=True, help="The commit to verify the history of.")
@REFEREE_DIR
@click.option("--language", "language", metavar="CODE", help="Answer in this language (en, fr, zh-Hant, zh-Hans; "
              "default: the game's).")
@FORMAT
def verify(directory, rev, referee_root, language, fmt):
    """Check the game's whole history: unbroken chain of refereed commits, signed moves, positions = replay."""
    from ..git.verify import verify as check
    from ..messages import _
    from ..text import language as languages
    if language:
        language = languages.check(language)
        languages.use(language)  # what is refused before the game is known too
    data = check(directory, rev=rev, referee_root=referee_root, language_code=language)

    def text(d):
        return "".join(f"{line}\n" for line in d["checks"]) + _("{game}: verified.", game=d["game"]) + "\n"
    emit(data, fmt, text)


@git.command()
@click.argument("directory", metavar="DIR", type=FOLDER, default=".")
@click.option("--as", "player", required=True, metavar="NAME", help="Your player name.")
@click.option("--identity", "identity_file", type=FILE, metavar="KEYFILE",
              help="Your private key (default: PBEM_IDENTITY, ~/.ssh/id_ed25519, ~/.ssh/id_rsa).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "yaml", "html"]), default="text",
              show_default=True, help="Output for people (text; html: a page with your picture of the position "
              "and the report, to open in a browser), or for tools (json, yaml).")
@click.option("-o", "--output", type=FILE, help="Write the page to this file (--format html).")
@LANGUAGE
def view(directory, player, identity_file, fmt, output, language):
    """Decrypt and show your private view as of the clone's last commit."""
    from ..text import report
    from .options import status_json
    from ..git.player import view as read_view
    doc, notes = read_view(directory, player, identity_file, language)
    _notes(notes)
    if fmt == "html":
        from ..text import pictures
        page = pictures.page(doc)
        if output is None:
            click.echo(page, nl=False)
            return
        try:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(page)
        except OSError as exc:
            from ..messages import lazy
            raise PbemError(lazy("{path}: cannot write ({error})", path=str(output), error=exc.strerror)) from None
        return
    emit(status_json(doc), fmt, lambda _: report.status_text(doc))


@git.command()
@click.argument("directory", metavar="DIR", type=FOLDER, default=".")
@click.option("--as", "player", required=True, metavar="NAME", help="Your player name.")
@click.option("--identity", "identity_file", type=FILE, metavar="KEYFILE",
              help="Your private key (default: PBEM_IDENTITY, ~/.ssh/id_ed25519, ~/.ssh/id_rsa).")
@LANGUAGE
@FORMAT
def moves(directory, player, identity_file, language, fmt):
    """Who must act, and your legal moves with what each does (as of the last refereed commit)."""
    from ..clock.clock import moment
    from ..text.phrases import legal_text
    from ..git.player import legal_moves, whole_turn
    data, notes = legal_moves(directory, player, identity_file, language)
    _notes(notes)

    def text(d):
        hint = fit_lines(whole_turn(player)) + "\n" if d["whole_turn"] else ""
        return legal_text(d, moment(None)) + hint
    emit({key: value for key, value in data.items() if key != "entries"}, fmt, text)


@git.command()
@click.argument("directory", metavar="DIR", type=FOLDER)
@click.argument("code", metavar="CODE")
@click.option("--as", "player", required=True, metavar="NAME", help="Your player name.")
@click.option("--secret-file", type=FILE, help="A file holding your secret (or PBEM_SECRET). "
              "Without a secret the commit is signed with your SSH key (git's gpg.format ssh).")
@click.option("--push", is_flag=True, help="Push it too (rebased on whatever was pushed meanwhile).")
@FORMAT
def language(directory, code, player, secret_file, push, fmt):
    """Read the game in CODE from now on (en, fr, zh-Hant, zh-Hans): commit your choice, signed like a move,
    for the referee to record (then: git push). Your moves may be written in any language's words."""
    from ..git.player import choose_language, chosen
    secret = secret_from(None, secret_file) if secret_file or os.environ.get("PBEM_SECRET") else None
    result = choose_language(directory, player, code, secret, push)
    _notes(result["notes"])
    emit(result, fmt, lambda r: fit_lines(chosen(r)) + "\n")


@git.command()
@click.argument("path", metavar="FILE", type=FILE)
def textconv(path):
    """git's textconv for the state files: the position in game terms (git config diff.pbem.textconv ...)."""
    from ..git.textconv import convert
    sys.stdout.write(convert(path))


@git.command()
@click.argument("directory", metavar="DIR", type=FOLDER, default=".")
@click.argument("revisions", nargs=-1)
@click.option("--path", "paths", multiple=True, help="Only this file (repeat; default: public.yaml, log.yaml, "
              "refused.yaml and the views).")
def diff(directory, revisions, paths):
    """`git diff` of the state files in game terms (REVISIONS as for git diff; default: the last commit's)."""
    from ..git.textconv import game_diff
    sys.stdout.write(game_diff(directory, list(revisions), list(paths)))


@git.command("pre-receive")
@click.option("--branch", default="main", show_default=True, help="The game's branch.")
def pre_receive(branch):
    """A server's pre-receive hook: turn away a push the referee would refuse for its shape (git's input on
    stdin). In hooks/pre-receive: exec pbem git pre-receive"""
    from ..git.gate import pre_receive as check
    check(".", sys.stdin.read(1 << 20).splitlines(), branch)


@git.command("check-move")
@click.argument("files", nargs=-1, type=FILE)
def check_move(files):
    """pre-commit hook pbem-check-move: each file is a move file named, written and (if hidden) encrypted right."""
    from ..git.hooks import check_moves
    _refuse(check_moves(files))


@git.command("check-state")
@click.argument("files", nargs=-1, type=FILE)
def check_state(files):
    """pre-commit hook pbem-check-state: each state file matches its schema."""
    from ..git.hooks import check_states
    _refuse(check_states(files))


def _notes(notes: list[str]) -> None:
    """What a reader should know about what is shown (commits not refereed yet): on stderr, so JSON stays clean."""
    from ..messages import _
    for note in notes:
        click.echo(_("note: {note}", note=note), err=True)


def _refuse(problems: list[str]) -> None:
    if problems:
        raise PbemError("\n".join(problems))


def _talk_commands() -> None:
    """`pbem git say` and `pbem git talk` live in pbem.cli.gittalk (this module keeps the rest of the transport)."""
    from .gittalk import say, talk
    git.add_command(say)
    git.add_command(talk)


_talk_commands()
