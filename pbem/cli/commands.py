"""The command line: parse options, call the engine, print its data, set the exit code. Nothing else lives here.

Exit codes: 0 done; 1 usage; 2 a move or file rejected (the message says what, where, and what is legal).
"""
from __future__ import annotations

import os
import sys

import click

from ..contract import PbemError, UsageError
from ..engine import engine
from ..play import movefile
from ..store import registry
from ..text import phrases
from .options import (AS_PLAYER, FILE, FOLDER, FORMAT, GAME_DIR, LANGUAGE, MOVE_NUMBER, NOW, NOW_SHOWN, bot_seats,
                      clock_now, club_options, complete_game_type, deadline_options, deadlines_from, emit,
                      note_greedy_instead, parse_languages, parse_options, read_input, said_now, secret_from, sending,
                      speak, status_json)


class LazyGroup(click.Group):
    """Transports load only when used, so `pbem move` does not pay for importing the mail machinery."""

    lazy = {"mail": ("pbem.cli.mail", "mail"), "git": ("pbem.cli.git", "git"),
            "league": ("pbem.cli.league", "league"),  # a club's standings and ratings (imports OpenSkill)
            "takeback": ("pbem.cli.takeback", "takeback"),  # a decision taken back by consent
            **{name: ("pbem.cli.club", name) for name in ("watch", "say", "talk")},  # spectators, talk
            # correspondence life: deadlines, the clock's tick, vacations, seats handed on, mail preferences
            **{name: ("pbem.cli.clock", name)
               for name in ("deadline", "tick", "vacation", "replace", "notify", "pictures", "language")}}

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx, name):
        if name in self.lazy:
            import importlib
            module, attribute = self.lazy[name]
            return getattr(importlib.import_module(module), attribute)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pbem")
def cli():
    """pbem: a referee for board games played by email or by git commits."""


@cli.command()
@FORMAT
def games(fmt):
    """The games, their player counts, options and variants."""
    from ..text import report
    data = [{"id": g.id, "title": g.title, "players": {"min": g.min_players, "max": g.max_players},
             "options": g.meta.get("options", {})} for g in registry.all_games()]
    emit(data, fmt, lambda _: report.games_table(registry.all_games()))


@cli.command()
@click.argument("game_type", metavar="GAME", shell_complete=complete_game_type)
@click.argument("directory", metavar="DIR")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME[:EMAIL]",
              help="A player, in seating order (clockwise); repeat for each.")
@click.option("--seed", help="The secret seed of decks and dice (default: random). Revealed when the game ends.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A variant or option; see `pbem games`.")
@click.option("--components", type=FILE, help="A club's own card and board data (YAML).")
@click.option("--organiser", metavar="EMAIL", help="The organiser's address: the referee's mail comes from it.")
@sending
@deadline_options
@click.option("--notify", "notify", multiple=True, metavar="[PLAYER=]every|turn|daily", help="How often players "
              "get mail: only when it is their turn (default; with what happened since), every move, or a daily "
              "digest (sent by `pbem tick`). Without PLAYER= for everyone; repeat for each player.")
@click.option("--language", "language", metavar="CODE", help="The game's language: what its players read unless "
              "they choose their own (en, the default; fr; zh-Hant; zh-Hans).")
@click.option("--player-language", "player_languages", multiple=True, metavar="PLAYER=CODE", help="A player's own "
              "language (they may change it later); repeat for each player.")
@click.option("--bot", "bots", multiple=True, metavar="PLAYER=LEVEL", help="Seat a bot, played at LEVEL (random, "
              "greedy, search, search:N for N simulations a decision), its moves logged as the bot's. Repeatable.")
@club_options
@NOW
@FORMAT
def new(game_type, directory, players, seed, options, components, organiser, smtp, outbox, smtp_user, starttls,
        deadline, reminder, on_timeout, timeout_bots, timeouts, vacation_days, notify, language, player_languages, bots,
        watchers, talk, now, fmt):
    """Start a game of GAME in DIR (DIR's name is the game's id) and print each player's secret.

    With --smtp or --outbox (and --organiser), each player with an address is also mailed a welcome: their
    password, how to move, and the position."""
    from ..clock import correspondence
    welcome = None
    if smtp or outbox:
        from ..mail import welcome as welcoming
        welcome = welcoming.prepare(organiser, smtp, outbox, smtp_user, starttls)
    seats = [correspondence.parse_player(p) for p in players]
    note_greedy_instead(registry.get(game_type), [*bots, *timeout_bots])
    language, languages = parse_languages(language, player_languages, [name for name, _ in seats])
    result = correspondence.create(game_type, directory, seats, seed=seed, options=parse_options(options),
                                   language=language, languages=languages,
                                   components_path=components, organiser=organiser,
                                   deadlines=deadlines_from(deadline, reminder, on_timeout, timeouts, vacation_days,
                                                            timeout_bots),
                                   notify=correspondence.parse_notify(notify, [name for name, _ in seats]),
                                   bots=bot_seats(bots), club_settings=(watchers, talk), now=now)
    failure = None
    if welcome is not None:
        result["welcomed"], failure = welcoming.send(engine.open_game(directory), welcome)

    emit(result, fmt, phrases.created)
    if failure is not None:  # the game exists and its passwords are printed above: say what is left to do
        raise PbemError(f"the game was created (the passwords are above), but the welcome mails were not sent: "
                        f"{failure}")


@cli.command()
@GAME_DIR
@click.option("--as", "player", help="Show what this player may see (default: the public view).", **AS_PLAYER)
@NOW_SHOWN
@LANGUAGE
@FORMAT
def status(directory, player, now, language, fmt):
    """The position, who must act and the last moves (from the referee's state where it is here)."""
    from ..text import report
    gd = engine.open_game(directory)
    speak(gd, player, language)
    doc, notes = engine.status_with_notes(gd, player)
    for note in notes:
        click.echo(f"pbem: note: {note}", err=True)
    doc = engine.with_moves_since(gd, doc)
    emit(status_json(doc), fmt, lambda _: report.status_text(doc, said_now(now, "clock" in doc)))


@cli.command()
@GAME_DIR
@click.option("--as", "player", help="Draw what this player may see (default: the public view).", **AS_PLAYER)
@click.option("--format", "fmt", type=click.Choice(["svg", "png", "html"]), default="svg", show_default=True,
              help="SVG, PNG (needs pip install 'pbem[pictures]': Pillow) or an HTML page with the picture and the "
                   "report.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file "
              "(default: standard output; a PNG only goes to a file or a pipe).")
@NOW_SHOWN
def board(directory, player, fmt, output, now):
    """A picture of the position, drawn from the public view or a player's view."""
    from ..text import pictures
    gd = engine.open_game(directory)
    doc, notes = engine.status_with_notes(gd, player)
    for note in notes:
        click.echo(f"pbem: note: {note}", err=True)
    if fmt == "png":
        if output is None and sys.stdout.isatty():
            raise UsageError("a PNG is not for the terminal: give -o FILE (or pipe it)")
        data = pictures.png(doc)
    elif fmt == "html":  # (the page's report: a player's moves since their last move)
        data = pictures.page(engine.with_moves_since(gd, doc), clock_now(now)).encode("utf-8")
    else:
        data = pictures.svg(doc).encode("utf-8")
    if output is None:
        click.echo(data, nl=False)
        return
    try:
        with open(output, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise PbemError(f"{output}: cannot write ({exc.strerror})") from None


@cli.command()
@click.argument("root", metavar="ROOT", type=FOLDER)
@click.argument("out", metavar="OUT", type=FOLDER)
@NOW_SHOWN
def site(root, out, now):
    """A static web site of the games under ROOT (or of one game), written into OUT: an index of the games with
    who is to act and until when, and each game's picture, report and log; from the public files only. A run
    writes only what changed since the last (OUT/.pbem-site.json records what it wrote)."""
    from . import site as site_module
    result = site_module.build(root, out, clock_now(now))
    click.echo(f"{out}: {len(result['games'])} games, {len(result['files'])} files, {len(result['written'])} "
               f"written")
    if result["unreadable"]:
        raise PbemError("not published (the others are): " + "; ".join(
            f"{name}: {reason}" for name, reason in result["unreadable"]))


@cli.command()
@GAME_DIR
@click.option("--as", "player", help="Whose moves (default: whoever must act).", **AS_PLAYER)
@NOW_SHOWN
@LANGUAGE
@FORMAT
def moves(directory, player, now, language, fmt):
    """Who must act, and the legal moves in text notation, each with what it does."""
    gd = engine.open_game(directory)
    speak(gd, player, language)
    data = engine.legal(gd, player)
    emit(data, fmt, lambda d: phrases.legal_text(d, said_now(now, bool(d.get("due")))))


@cli.command()
@GAME_DIR
@click.argument("source", metavar="FILE|-", required=False)
@click.option("--as", "player", required=True, help="The player whose turn this is.", **AS_PLAYER)
@click.option("--text", "text", metavar="MOVE", help="The referee enters a move (`;` between moves of one turn).")
@click.option("--move-number", type=MOVE_NUMBER, help="With --text: the move number this turn answers (refused "
              "as stale if the game has moved on).")
@NOW
@LANGUAGE
@FORMAT
def move(directory, source, player, text, move_number, now, language, fmt):
    """Submit a turn: a signed move file (FILE, or - for standard input), or the referee's --text."""
    if (source is None) == (text is None):
        raise UsageError("give exactly one of FILE, - or --text MOVE")
    if move_number is not None and text is None:
        raise UsageError("--move-number goes with --text (a move file names its own move number)")
    from ..clock.correspondence import submit
    gd = engine.open_game(directory)
    speak(gd, player, language)
    if text is not None:
        from ..notation import split_turn
        result = submit(gd, player, split_turn(text), by="referee", move_number=move_number, now=now)
    else:
        name = "standard input" if source == "-" else source
        data, size = read_input(source)
        doc = movefile.parse(data, name, size)
        if doc["game"] != gd.id:
            raise PbemError(f"{name}: the move is for game {doc['game']!r}, this is {gd.id!r}")
        if doc["player"] != player:
            raise PbemError(f"{name}: the move is signed by player {doc['player']!r}, not {player!r}")
        result = submit(gd, player, doc["moves"], by="player", move_number=doc["move_number"],
                        signature=doc.get("signature"), now=now)

    emit(result, fmt, phrases.accepted)


@cli.command()
@GAME_DIR
@click.argument("source", metavar="FILE|-", required=False)
@click.option("--as", "player", required=True, help="Whose queue.", **AS_PLAYER)
@click.option("--text", "text", metavar="STEPS", help="The referee sets the player's queue (`;` between steps, "
              "`next` between turns, `standing WORD: STEP` for a standing order).")
@click.option("--cancel", is_flag=True, help="Drop the player's queue and withdraw their standing orders.")
@click.option("--move-number", type=MOVE_NUMBER, help="With --text or --cancel: the move number the change is "
              "made at (refused if the game has moved on).")
@NOW
@LANGUAGE
@FORMAT
def queue(directory, source, player, text, cancel, move_number, now, language, fmt):
    """Show a player's queue and standing orders; or replace them: a signed queue file (FILE, or - for standard
    input; `pbem sign --queue`), the referee's --text, or --cancel."""
    from ..clock import correspondence
    gd = engine.open_game(directory)
    speak(gd, player, language)
    if sum(x is not None and x is not False for x in (source, text, cancel or None)) > 1:
        raise UsageError("give at most one of FILE, - , --text STEPS and --cancel")
    if move_number is not None and text is None and not cancel:
        raise UsageError("--move-number goes with --text or --cancel (a queue file names its own move number)")
    if source is None and text is None and not cancel:
        doc = engine.status(gd, player)
        result = {"game": gd.id, "player": player, "move_number": doc["move_number"], "queue": doc.get("queue"),
                  "finished": doc["finished"]}
    elif source is not None:
        name = "standard input" if source == "-" else source
        data, size = read_input(source)
        doc = movefile.parse(data, name, size)
        if doc["game"] != gd.id:
            raise PbemError(f"{name}: the queue is for game {doc['game']!r}, this is {gd.id!r}")
        if doc["player"] != player:
            raise PbemError(f"{name}: the queue is signed by player {doc['player']!r}, not {player!r}")
        result = correspondence.set_queue(gd, player, doc["moves"], move_number=doc["move_number"],
                                          signature=doc.get("signature"), now=now)
    else:
        from ..notation import split_turn
        texts = ["cancel", "standing cancel"] if cancel else split_turn(text)
        result = correspondence.set_queue(gd, player, texts, by="referee", move_number=move_number, now=now)

    emit(result, fmt, phrases.queue_text)


@cli.command()
@GAME_DIR
@click.option("--full", is_flag=True, help="The referee's full log (hidden choices and shuffles included).")
@LANGUAGE
@FORMAT
def log(directory, full, language, fmt):
    """The moves so far."""
    from ..text import report
    gd = engine.open_game(directory)
    speak(gd, None, language)
    data = engine.read_log(gd, full)
    emit(data, fmt, lambda d: report.recent_moves(d["entries"] or [], gd.game.id) + "\n")


@cli.command()
@GAME_DIR
@click.option("--as", "player", help="Verify a finished game from what this player holds (the public files and "
              "their own view), even where the referee's files are.", **AS_PLAYER)
@FORMAT
def verify(directory, player, fmt):
    """Replay the game from its seed and log; every stored file must match the replay exactly."""
    emit(engine.verify(engine.open_game(directory), player), fmt, phrases.verified)


@cli.command()
@click.argument("source", metavar="FILE|-", required=False)
@click.option("--secret", help="The player's secret (or PBEM_SECRET).")
@click.option("--secret-file", type=FILE, help="A file holding the secret.")
@click.option("--game", "game_id", help="With --text: the game id.")
@click.option("--move-number", type=MOVE_NUMBER, help="With --text: the move number this turn phrases.")
@click.option("--as", "player", metavar="PLAYER", help="With --text: the player.")
@click.option("--text", "text", metavar="MOVE", help="Write a new signed move file for this turn.")
@click.option("--queue", "for_queue", is_flag=True, help="Sign a queue sent without a move (for `pbem queue`): a "
              "signed move is never taken for a queue, nor the other way round.")
@click.option("--game-type", "game_type", metavar="GAME", shell_complete=complete_game_type, help="The game's "
              "type (its id in `pbem games`): moves written in a language's words are written and signed in its "
              "notation.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Where to write (default: "
              "FILE in place, or standard output; - for standard output).")
def sign(source, secret, secret_file, game_id, move_number, player, text, for_queue, game_type, output):
    """Sign a move file with a player's secret (or write a new signed one with --text)."""
    from ..store import safefiles
    from ..notation import split_turn
    secret = secret_from(secret, secret_file)
    game = registry.get(game_type) if game_type else None
    if text is not None:
        if source or None in (game_id, move_number, player):
            raise UsageError("with --text give --game, --move-number and --as, and no FILE")
        doc = movefile.build(game_id, move_number, player, split_turn(text), secret, queue=for_queue, game=game)
        movefile.parse(movefile.dumps(doc), "the new move file")
    elif source:
        data, size = read_input(source)
        doc = movefile.sign(movefile.parse(data, source, size), secret, queue=for_queue, game=game)
        output = output or (None if source == "-" else source)
    else:
        raise UsageError("give a move FILE (or -), or --text with --game, --move-number and --as")
    text_out = movefile.dumps(doc)
    if output and output != "-":
        safefiles.write_atomic(output, text_out)
        click.echo(f"signed {output}", err=True)
    else:
        click.echo(text_out, nl=False)


@cli.command()
@click.argument("game_type", metavar="GAME", shell_complete=complete_game_type)
@click.option("--players", type=int, help="How many players (default: the game's minimum; `pbem games` lists "
              "each game's range).")
@click.option("--seed", default="demo", show_default=True, help="Seed of the decks, dice and bots.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A variant or option, as for "
              "`pbem new`; see `pbem games`.")
@click.option("--dir", "directory", type=FOLDER, help="Keep the game here (default: a "
              "temporary directory, removed afterwards).")
@click.option("--every", type=int, default=0, help="Print the full report every N moves (default: at the start and "
              "the end only; each move is printed on one line).")
@click.option("--moves", "stop_after", type=int, help="Stop after this many moves (a game in progress).")
@click.option("--save-moves", is_flag=True, help="Keep each signed move file in DIR/moves/ (with --dir).")
@click.option("--bot", default="greedy", show_default=True, metavar="LEVEL",
              help="Who plays every seat: the game's heuristic player (greedy), uniformly random legal moves "
                   "(random), or the search (search, or search:N for N simulations a decision).")
@click.option("--bots", metavar="LEVEL,LEVEL,...", help="One level a seat, in seat order (as many as --players; "
              "without --players, the game has that many): e.g. search,greedy,greedy.")
def demo(game_type, players, seed, options, directory, every, stop_after, save_moves, bot, bots):
    """Play a whole game of GAME by bots through the referee, printing the reports and the final ranking."""
    from . import demo as demo_module
    if save_moves and not directory:
        raise UsageError("--save-moves needs --dir")
    levels = [level.strip() for level in bots.split(",")] if bots else bot
    demo_module.run(game_type, players, seed, parse_options(options), directory, every, click.echo,
                    stop_after=stop_after, save_moves=save_moves, bot=levels)


def main(argv=None) -> int:
    try:
        cli.main(args=argv, prog_name="pbem", standalone_mode=False)
    except PbemError as exc:
        click.echo(f"pbem: {exc.render()}", err=True)  # in the reader's language, where the command chose one
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("pbem: aborted", err=True)
        return 1
    except click.ClickException as exc:
        exc.show()
        return 1
    except KeyboardInterrupt:
        click.echo("pbem: interrupted; the game is unchanged unless a move was reported accepted", err=True)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        click.echo(f"pbem: {getattr(exc, 'filename', '') or ''} {exc.strerror or exc}".replace("  ", " "), err=True)
        return 2
    except Exception as exc:  # a bug, never bad input: say so plainly, keep the traceback for those who ask
        if os.environ.get("PBEM_DEBUG"):
            raise
        click.echo(f"pbem: internal error ({type(exc).__name__}: {exc}); the game files are unchanged. "
                   f"Please report it; PBEM_DEBUG=1 shows the details.", err=True)
        return 3
    return 0

