"""The command line's shared pieces, used by `pbem` and the transports' command groups: option types and options,
output in three formats, a move file or a secret read from where the user said."""
from __future__ import annotations

import json
import os
import re
import sys

import click

from ..contract import PbemError, UsageError
from ..messages import _, lazy
from ..play import movefile
from ..store import yamlio


class MoveNumber(click.ParamType):
    """A move number as the schemas bound it; a bad value is quoted short (it may be thousands of digits)."""

    name = "integer"
    maximum = 10**9

    def convert(self, value, param, ctx):
        text = str(value).strip()
        if not re.fullmatch(r"[0-9]{1,10}", text) or not 1 <= int(text) <= self.maximum:
            shown = text if len(text) <= 20 else text[:20] + f"... ({len(text)} characters)"
            self.fail(f"{shown!r} is not a move number (1 to {self.maximum})", param, ctx)
        return int(text)


class Duration(click.ParamType):
    """A duration like 72h, 3d, 1d12h or 90m, as seconds."""

    name = "duration"

    def convert(self, value, param, ctx):
        from ..text.times import parse_duration
        try:
            return value if isinstance(value, int) else parse_duration(value, f"--{param.name.replace('_', '-')}")
        except UsageError as exc:
            self.fail(str(exc), param, ctx)


class Workers(click.ParamType):
    """A number of worker processes, 1 to 64. A bad one is bad input (exit 2, nothing done), like a bad file."""

    name = "integer"
    most = 64

    def convert(self, value, param, ctx):
        text = str(value).strip()
        if not re.fullmatch(r"[0-9]{1,3}", text) or not 1 <= int(text) <= self.most:
            shown = text if len(text) <= 20 else text[:20] + "..."
            raise PbemError(f"--workers {shown!r}: write a number of worker processes from 1 to {self.most} (1 "
                            f"handles everything in this process)")
        return int(text)


MOVE_NUMBER = MoveNumber()
DURATION = Duration()
# Path types shared by every option of the same kind: each click.Path looks its name up through gettext when it is
# made (four missing .mo files probed per look-up), and every option type is made when pbem.cli.commands is imported
FOLDER = click.Path(file_okay=False)
FILE = click.Path(dir_okay=False)
NOW = click.option("--now", metavar="ISO-8601", help="The time to act at (UTC; default: the system clock). "
                   "Deadlines are counted from it.")
# reports that only read: the time their due dates are told from ("in 2 days")
NOW_SHOWN = click.option("--now", metavar="ISO-8601", help="Say how far the due time is from this time (default: "
                         "the system clock).")
WORKERS = click.option("--workers", type=Workers(), metavar="N", help="Worker processes working side by side, each "
                       "game's work in one of them, in order (default: one a processor core; 1: all in this "
                       "process).")
FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json", "yaml"]), default="text",
                      show_default=True, help="Output for people (text) or for tools (json, yaml).")


# the language of a command's answer (pbem.text.language): its reader's, unless this says otherwise
LANGUAGE = click.option("--language", "language", metavar="CODE", help="Answer in this language (en, fr, zh-Hant, "
                        "zh-Hans; default: the --as player's own, else the game's).")


def speak(gd, player: str | None, given: str | None) -> None:
    """Every message of this command in its reader's language: --language, else the player's own, else the game's
    (pbem.engine.reader.language_of; English without a game: `pbem sign`); an English reader loads no catalogue."""
    from ..engine import engine
    from ..text import language
    language.use(language.check(given) if given else engine.language_of(gd, player) if gd is not None else None)


def opened(directory, player: str | None, given: str | None):
    """The game DIR opened, and every message of the command in its reader's language (speak); what is refused
    before the game is known (a game directory broken by hand) is in --language when one is given."""
    from ..engine import engine
    if given:
        from ..text import language
        language.use(language.check(given))
    gd = engine.open_game(directory)
    speak(gd, player, given)
    return gd


def parse_languages(default: str | None, specs: tuple[str, ...], players: list[str]) -> tuple[str | None, dict]:
    """`pbem new --language CODE` (the game's) and `--player-language PLAYER=CODE` (a player's own), checked."""
    from ..text import language
    own = {}
    for spec in specs:
        name, _, code = spec.partition("=")
        if not code:
            raise UsageError(f"--player-language {spec!r}: write PLAYER=CODE (like alice=fr)")
        own[name.strip()] = language.check(code)
    return (language.check(default) if default else None), own


def clock_now(now: str | None = None):
    """--now, or the system clock: for the relative times of reports ("in 2 days")."""
    from ..clock.clock import moment
    return moment(now)


def said_now(now: str | None, deadline: bool):
    """The time a report tells due times from: --now (checked whenever given), else the system clock where there
    is a deadline to tell; None for a game without one, whose report then does not import the clock."""
    return clock_now(now) if now is not None or deadline else None


def status_json(doc: dict) -> dict:
    """What `pbem status --format json` prints of a status document."""
    data = {"game": doc["id"], "game_type": doc["game"], "move_number": doc["move_number"], "to_act": doc["to_act"],
            "decision": doc["decision"], "finished": doc["finished"]}
    for shown in ("clock", "takeback"):
        if shown in doc:
            data[shown] = doc[shown]
    if doc["finished"]:
        if "ended" in doc:
            data["ended"] = doc["ended"]
        data["ranking"] = doc["ranking"]
        data["seed"] = doc["seed"]
    data.update({"recent": doc["recent"], "view": doc["view"]})
    if "since" in doc:  # `recent` holds the moves since the player's last move (engine.with_moves_since)
        data["since"] = doc["since"]
    if "player" in doc:
        data["player"] = doc["player"]
    if "queue" in doc:  # the player's own queue (pbem.play.queues): only in their view
        data["queue"] = doc["queue"]
    return data


def emit(data, fmt: str, text_of) -> None:
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    elif fmt == "yaml":
        click.echo(yamlio.dumps(data), nl=False)
    else:
        click.echo(text_of(data), nl=False)


def deadline_options(func):
    """The deadline settings of a new game (`pbem new`, `pbem git init`)."""
    for option in reversed([
        click.option("--deadline", type=DURATION, metavar="DURATION", help="Time for each decision (72h, 3d, "
                     "1d12h); without it the game waits for ever."),
        click.option("--reminder", type=DURATION, metavar="DURATION", help="Remind the player this long before "
                     "their move is due (by mail)."),
        click.option("--on-timeout", type=click.Choice(["wait", "first-legal", "bot"]), help="When a move is "
                     "overdue: remind again and wait (default), play the first legal move, or let the game's bot "
                     "play it; for that decision only."),
        click.option("--timeout-bot", "timeout_bots", multiple=True, metavar="[PLAYER=]LEVEL", help="The bot "
                     "that plays an overdue move under --on-timeout bot: random, greedy or search[:N] (N simulations "
                     "a decision; default search). Without PLAYER= for every seat; repeat for each player."),
        click.option("--timeouts", type=click.IntRange(1, 100), metavar="N", help="After N timeouts in a row a "
                     "seat counts as resigned (the referee plays it from then on)."),
        click.option("--vacation-days", type=click.IntRange(0, 366), metavar="DAYS", help="Each player's "
                     "vacation allowance a year (default 14)."),
    ]):
        func = option(func)
    return func


def deadlines_from(deadline, reminder, on_timeout, timeouts, vacation_days, timeout_bots=()) -> dict | None:
    """The clock record `new` starts with, or None for a game without deadlines (`timeout_bots`: the
    `[PLAYER=]LEVEL` specs, kept for correspondence.create, which knows the seats)."""
    from ..clock.clock import DEFAULT_VACATION_DAYS, new_clock
    if deadline is None:
        if any(v is not None for v in (reminder, on_timeout, timeouts, vacation_days)) or timeout_bots:
            raise UsageError("--reminder, --on-timeout, --timeout-bot, --timeouts and --vacation-days go with "
                             "--deadline DURATION")
        return None
    record = new_clock(deadline, reminder, on_timeout or "wait", timeouts,
                       DEFAULT_VACATION_DAYS if vacation_days is None else vacation_days)
    return {**record, "timeout_bots": list(timeout_bots)}


def note_greedy_instead(game, texts) -> None:
    """Tell the organiser (on stderr) when a search they chose is played by the game's greedy bot instead."""
    from ..play.levels import greedy_instead
    note = greedy_instead(game, [text.rpartition("=")[2] for text in texts])
    if note:
        click.echo(f"note: {note}.", err=True)


def bot_seats(specs: tuple[str, ...]) -> dict[str, str] | None:
    """`--bot PLAYER=LEVEL` given for each seat a bot plays: {player: level} (the level is checked with the game)."""
    seats = {}
    for spec in specs:
        player, sep, level = spec.partition("=")
        if not sep or not player.strip():
            raise UsageError(f"--bot {spec!r}: write PLAYER=LEVEL (bob=search)")
        if player.strip() in seats:
            raise UsageError(f"--bot {player.strip()} is given twice: give it once")
        seats[player.strip()] = level.strip()
    return seats or None


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"--option {pair!r}: write KEY=VALUE")
        if key in options:
            raise UsageError(f"--option {key} is given twice ({options[key]!r} and {value.strip()!r}): give it once")
        options[key] = value.strip()
    return options


def read_input(source: str) -> tuple[bytes, int]:
    """A move file's bytes (at most one more than a move file may have, so a huge file is never held in memory)
    and its size, for the message that refuses it."""
    if source == "-":
        data = sys.stdin.buffer.read(movefile.MAX_BYTES + 1)
        return data, (len(data) + _drain(sys.stdin.buffer) if len(data) > movefile.MAX_BYTES else len(data))
    try:
        with open(source, "rb") as handle:
            data = handle.read(movefile.MAX_BYTES + 1)
            return data, max(len(data), os.fstat(handle.fileno()).st_size)
    except OSError as exc:
        raise PbemError(lazy("{file}: cannot read ({reason})", file=source, reason=exc.strerror)) from None


def signed_file(source: str, gd, player: str, queue: bool) -> dict:
    """A signed move file (a queue file with `queue`) read from FILE or - (standard input): refused, in the
    player's language, when it is another game's or signed by another player than --as."""
    name = _("standard input") if source == "-" else source
    data, size = read_input(source)
    doc = movefile.parse(data, name, size, gd.game.id)
    other, signer = repr(doc["game"]), repr(doc["player"])
    if doc["game"] != gd.id and queue:
        raise PbemError(lazy("{file}: the queue is for game {other}, this is {game}", file=name, other=other,
                             game=repr(gd.id)))
    if doc["game"] != gd.id:
        raise PbemError(lazy("{file}: the move is for game {other}, this is {game}", file=name, other=other,
                             game=repr(gd.id)))
    if doc["player"] != player and queue:
        raise PbemError(lazy("{file}: the queue is signed by player {signer}, not {player}", file=name,
                             signer=signer, player=repr(player)))
    if doc["player"] != player:
        raise PbemError(lazy("{file}: the move is signed by player {signer}, not {player}", file=name,
                             signer=signer, player=repr(player)))
    return doc


def _drain(stream, most: int = 1 << 30) -> int:
    """How many more bytes a stream holds (up to `most`: an endless pipe is not read for ever)."""
    count = 0
    while count < most and (chunk := stream.read(1 << 16)):
        count += len(chunk)
    return count


def club_options(func):
    """Who may watch a new game and what talk it allows (pbem.clock.club; the organiser changes them later with
    `pbem watch --watchers` and `pbem talk --allow`)."""
    func = click.option("--talk", type=click.Choice(["all", "table", "off"]), help="Talk the players may send "
                        "through the referee: to the table and to one player (all, the default), to the table "
                        "only, or none.")(func)
    return click.option("--watchers", type=click.Choice(["admitted", "open"]), help="Who may watch: those the "
                        "organiser admits (the default), or anyone who asks by mail.")(func)


def secret_from(secret: str | None, secret_file: str | None) -> str:
    if secret_file:
        try:
            with open(secret_file, encoding="utf-8") as handle:
                return handle.read().strip()
        except OSError as exc:
            raise PbemError(lazy("{file}: cannot read ({reason})", file=secret_file, reason=exc.strerror)) from None
    secret = secret or os.environ.get("PBEM_SECRET")
    if not secret:
        raise UsageError("give the player's secret: --secret S, --secret-file FILE or PBEM_SECRET")
    return secret


def completion(name: str):
    """A shell-completion callback of pbem.cli.completion, imported when the shell asks (it imports pathlib, which a
    command need not pay for)."""
    def complete(ctx, param, incomplete):
        from . import completion as module
        return getattr(module, name)(ctx, param, incomplete)
    return complete


complete_game_dir, complete_player = completion("complete_game_dir"), completion("complete_player")
complete_game_type = completion("complete_game_type")
GAME_DIR = click.argument("directory", metavar="DIR", shell_complete=complete_game_dir)
AS_PLAYER = dict(metavar="PLAYER", shell_complete=complete_player)


# ---------------------------------------------------------------- sending mail
# (`pbem new`'s welcome mails, the clock's and the mail commands: only click here, so `pbem new` does not load the
# mail machinery unless it sends)

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
