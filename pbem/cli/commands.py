"""The command line: parse options, call the engine, print its data, set the exit code. Nothing else lives here.

Exit codes: 0 done; 1 usage; 2 a move or file rejected (the message says what, where, and what is legal).
"""
from __future__ import annotations

import os
import sys

import click

from ..contract import PbemError, UsageError
from ..engine import engine
from ..messages import _, lazy
from ..store import registry
from ..text import language as reading, phrases
from .options import (AS_PLAYER, FOLDER, FORMAT, GAME_DIR, LANGUAGE, MOVE_NUMBER, NOW, NOW_SHOWN, clock_now, emit,
                      opened, said_now, signed_file, status_json)


class LazyGroup(click.Group):
    """Commands whose modules load only when one of them is run, so `pbem move` does not pay for importing the mail
    machinery, nor for building the options of commands it is not."""

    lazy = {"mail": ("pbem.cli.mail", "mail"), "git": ("pbem.cli.git", "git"),
            # making a game, a bots' game or a signed move file: `pbem move` does not build their options
            **{name: ("pbem.cli.making", name) for name in ("new", "demo", "sign")},
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
    reading.use(None)  # English until the command chooses its reader's (runs one after another in one process too)


@cli.command()
@click.option("--language", "language", metavar="CODE", help="Say what each game and option is in this language "
              "(en, the default; fr; zh-Hant; zh-Hans).")
@FORMAT
def games(language, fmt):
    """The games, their player counts, options and variants."""
    from ..text import report
    reading.use(reading.check(language) if language else None)
    data = [{"id": g.id, "title": g.title, "players": {"min": g.min_players, "max": g.max_players},
             "options": g.meta.get("options", {})} for g in registry.all_games()]
    emit(data, fmt, lambda _: report.games_table(registry.all_games()))


@cli.command()
@GAME_DIR
@click.option("--as", "player", help="Show what this player may see (default: the public view).", **AS_PLAYER)
@NOW_SHOWN
@LANGUAGE
@FORMAT
def status(directory, player, now, language, fmt):
    """The position, who must act and the last moves (from the referee's state where it is here)."""
    from ..text import report
    gd = opened(directory, player, language)
    doc, notes = engine.status_with_notes(gd, player)
    for note in notes:
        click.echo(f"pbem: note: {note}", err=True)
    doc = engine.with_moves_since(gd, doc)
    data, talk = status_json(doc), _latest_talk(gd, player)
    if talk:
        data["talk"] = talk
    emit(data, fmt, lambda _: report.status_text(doc, said_now(now, "clock" in doc)) + _talk_text(talk))


def _latest_talk(gd, player: str | None) -> list[dict]:
    """The latest messages a status shows (none, and nothing imported, in a game without talk)."""
    from ..store.gamedir import ALL_TALK, TALK
    if not gd.has(TALK) and not gd.has(ALL_TALK):
        return []
    from ..clock import talk
    return talk.latest(gd, player)


def _talk_text(talk: list[dict]) -> str:
    if not talk:
        return ""
    from ..tables import fit_lines
    from ..text import talktext
    return "\n" + fit_lines(talktext.latest_text(talk).rstrip("\n")) + "\n"


@cli.command()
@GAME_DIR
@click.option("--as", "player", help="Draw what this player may see (default: the public view).", **AS_PLAYER)
@click.option("--format", "fmt", type=click.Choice(["svg", "png", "html"]), default="svg", show_default=True,
              help="SVG, PNG (needs pip install 'pbem[pictures]': Pillow) or an HTML page with the picture and the "
                   "report.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file "
              "(default: standard output; a PNG only goes to a file or a pipe).")
@NOW_SHOWN
@LANGUAGE
def board(directory, player, fmt, output, now, language):
    """A picture of the position, drawn from the public view or a player's view."""
    from ..text import pictures
    gd = opened(directory, player, language)
    doc, notes = engine.status_with_notes(gd, player)
    for note in notes:
        click.echo(f"pbem: note: {note}", err=True)
    if fmt == "png":
        if output is None and sys.stdout.isatty():
            raise UsageError(lazy("a PNG is not for the terminal: give -o FILE (or pipe it)"))
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
        raise PbemError(lazy("{file}: cannot write ({reason})", file=output, reason=exc.strerror)) from None


@cli.command()
@click.argument("root", metavar="ROOT", type=FOLDER)
@click.argument("out", metavar="OUT", type=FOLDER)
@NOW_SHOWN
@click.option("--language", "language", metavar="CODE", help="The language of the index and the league page "
              "(default: the games' own, when they all have the same; else English). Each game's pages are in its "
              "language.")
def site(root, out, now, language):
    """A static web site of the games under ROOT (or of one game), written into OUT: an index of the games with
    who is to act and until when, and each game's picture, report and log; from the public files only. A run
    writes only what changed since the last (OUT/.pbem-site.json records what it wrote)."""
    from ..text.language import check
    from . import site as site_module
    result = site_module.build(root, out, clock_now(now), check(language) if language else None)
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
    gd = opened(directory, player, language)
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
    gd = opened(directory, player, language)
    if text is not None:
        from ..notation import split_turn
        result = submit(gd, player, split_turn(text), by="referee", move_number=move_number, now=now)
    else:
        doc = signed_file(source, gd, player, queue=False)
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
    gd = opened(directory, player, language)
    if sum(x is not None and x is not False for x in (source, text, cancel or None)) > 1:
        raise UsageError("give at most one of FILE, - , --text STEPS and --cancel")
    if move_number is not None and text is None and not cancel:
        raise UsageError("--move-number goes with --text or --cancel (a queue file names its own move number)")
    if source is None and text is None and not cancel:
        doc = engine.status(gd, player)
        result = {"game": gd.id, "player": player, "move_number": doc["move_number"], "queue": doc.get("queue"),
                  "finished": doc["finished"]}
    elif source is not None:
        doc = signed_file(source, gd, player, queue=True)
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
    gd = opened(directory, None, language)
    data = engine.read_log(gd, full)
    emit(data, fmt, lambda d: report.recent_moves(d["entries"] or [], gd.game.id) + "\n")


@cli.command()
@GAME_DIR
@click.option("--as", "player", help="Verify a finished game from what this player holds (the public files and "
              "their own view), even where the referee's files are.", **AS_PLAYER)
@LANGUAGE
@FORMAT
def verify(directory, player, fmt, language):
    """Replay the game from its seed and log; every stored file must match the replay exactly."""
    gd = opened(directory, player, language)
    emit(engine.verify(gd, player), fmt, phrases.verified)


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
        click.echo("pbem: " + _("interrupted; the game is unchanged unless a move was reported accepted"), err=True)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        click.echo(f"pbem: {getattr(exc, 'filename', '') or ''} {exc.strerror or exc}".replace("  ", " "), err=True)
        return 2
    except Exception as exc:  # a bug, never bad input: say so plainly, keep the traceback for those who ask
        if os.environ.get("PBEM_DEBUG"):
            raise
        click.echo("pbem: " + _("internal error ({error}); the game files are unchanged. Please report it; "
                                "PBEM_DEBUG=1 shows the details.", error=f"{type(exc).__name__}: {exc}"), err=True)
        return 3
    return 0

