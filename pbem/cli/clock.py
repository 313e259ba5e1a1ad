"""The commands of correspondence life: `pbem tick`, `deadline`, `vacation`, `replace`, `notify`, `pictures`,
`language`.
Thin: options to a call of pbem.clock.correspondence, lines or data out. Loaded only when one of them runs
(pbem.cli.commands.LazyGroup)."""
from __future__ import annotations

import functools
from pathlib import Path

import click

from ..clock import clock, correspondence, handover, takebacks
from ..contract import PbemError, UsageError
from ..engine import engine
from ..messages import NP_, PBEM, _, ngettext
from ..store import locks
from ..text import times
from ..text.phrases import plural, referee_moves
from .options import (AS_PLAYER, DURATION, FOLDER, FORMAT, GAME_DIR, NOW, WORKERS, emit, note_greedy_instead, sending,
                      speak)


# what happens to an overdue decision (clock.POLICIES), as a player reads it
POLICY_WORDS = {"wait": NP_("timeout", "wait"), "first-legal": NP_("timeout", "first-legal"),
                "bot": NP_("timeout", "bot")}


def _clock_text(data: dict, now) -> str:
    """The clock's settings and state as a report shows them, seen at `now` (the command's --now), in the language
    being read: one sentence for the deadline, one for the reminder and one for the timeouts when there are."""
    shown = data["clock"]
    policy = PBEM.stored(POLICY_WORDS[shown["on_timeout"]], "timeout") if shown["on_timeout"] in POLICY_WORDS \
        else shown["on_timeout"]
    # TRANSLATORS: {deadline} and {reminder} are durations as pbem writes them (72h, 1d12h, 90m)
    lines = [_("{game}: deadline {deadline} a decision; on timeout: {policy}; vacations up to {days} days a year.",
               game=data["game"], deadline=shown["deadline"], policy=policy, days=shown["vacation_days"])]
    if shown["reminder"]:
        lines.append(_("A reminder {reminder} before a move is due.", reminder=shown["reminder"]))
    if shown["timeouts"]:
        lines.append(ngettext("Resigned after {count} timeout in a row.", "Resigned after {count} timeouts in a row.",
                              shown["timeouts"], count=shown["timeouts"]))
    lines += times.summary_lines(shown, data["to_act"], now)
    return "\n".join(lines) + "\n"


def _extension(spec: str) -> tuple[str, int]:
    player, sep, length = spec.partition(":")
    if not sep or not player:
        raise UsageError(f"--extend {spec!r}: write PLAYER:DURATION (bob:24h)")
    return player, times.parse_duration(length, f"--extend {player}")


@click.command()
@GAME_DIR
@click.option("--set", "length", type=DURATION, metavar="DURATION", help="The time for each decision, the current "
              "one included (counted from its start).")
@click.option("--reminder", type=DURATION, metavar="DURATION", help="Remind this long before a move is due.")
@click.option("--on-timeout", type=click.Choice(clock.POLICIES), help="What happens to an "
              "overdue decision.")
@click.option("--timeout-bot", "timeout_bots", multiple=True, metavar="[PLAYER=]LEVEL", help="The bot that plays "
              "an overdue move under --on-timeout bot: random, greedy or search[:N]. Without PLAYER= for every "
              "seat; repeatable.")
@click.option("--timeouts", type=click.IntRange(1, clock.MAX_TIMEOUTS), metavar="N",
              help="Resigned after N timeouts in a row.")
@click.option("--no-timeouts", is_flag=True, help="Never count a seat as resigned for its timeouts.")
@click.option("--vacation-days", type=click.IntRange(0, 366), metavar="DAYS", help="Each player's vacation "
              "allowance a year.")
@click.option("--extend", "extensions", multiple=True, metavar="PLAYER:DURATION", help="More time for a player: "
              "their current decision, or their next one. Repeatable.")
@click.option("--pause", is_flag=True, help="Stop the clock for everyone (no reminders, no timeouts).")
@click.option("--resume", is_flag=True, help="Start it again; the time it stood still is given back.")
@NOW
@FORMAT
def deadline(directory, length, reminder, on_timeout, timeout_bots, timeouts, no_timeouts, vacation_days, extensions,
             pause, resume, now, fmt):
    """Show or change a game's deadlines (the organiser's command)."""
    if timeouts is not None and no_timeouts:
        raise UsageError("--timeouts N and --no-timeouts together: choose one")
    gd, moment = engine.open_game(directory), clock.moment(now)
    note_greedy_instead(gd.game, timeout_bots)
    data = correspondence.deadline(gd, moment, length=length, reminder=reminder, on_timeout=on_timeout,
                                   timeouts=timeouts, no_timeouts=no_timeouts,
                                   extensions=[_extension(spec) for spec in extensions], pause=pause,
                                   resume=resume, vacation_days=vacation_days, timeout_bots=timeout_bots)
    emit(data, fmt, lambda d: _clock_text(d, moment))


@click.command()
@GAME_DIR
@click.argument("span", metavar="FROM TO", nargs=-1)
@click.option("--as", "player", required=True, help="Whose vacation.", **AS_PLAYER)
@click.option("--cancel", is_flag=True, help="End the player's running vacation now and drop their planned ones.")
@NOW
@FORMAT
def vacation(directory, span, player, cancel, now, fmt):
    """Record a player's vacation FROM TO (dates like 2025-12-24, TO's day included, or ISO times): their deadlines
    stop meanwhile, and everyone sees it. By mail, the player writes `vacation FROM TO` themselves."""
    if cancel == bool(span) or (span and len(span) != 2):
        raise UsageError("give FROM TO (two dates or times), or --cancel")
    gd, moment = engine.open_game(directory), clock.moment(now)
    speak(gd, player, None)
    data = correspondence.vacation(gd, player, moment, *(span or (None, None)), cancel=cancel)
    emit(data, fmt, lambda d: _clock_text(d, moment))


@click.command()
@GAME_DIR
@click.option("--seat", required=True, metavar="PLAYER", help="The seat to hand on (it keeps this name).")
@click.option("--by", "holder", metavar="NEW[:EMAIL]", help="Who plays it from now on.")
@click.option("--bot", metavar="LEVEL", help="Or give it to a bot: random, greedy, search or search:N (N "
              "simulations a decision); the referee then plays its every move, logged as the bot's.")
@sending
@NOW
@FORMAT
def replace(directory, seat, holder, bot, smtp, outbox, smtp_user, starttls, now, fmt):
    """Hand a seat to a new player (or to a bot): a new secret (the old one stops working) and a log entry; with an
    address and --smtp/--outbox, a welcome mail to the new player."""
    if (holder is None) == (bot is None):
        raise UsageError("give the seat to a player (--by NEW[:EMAIL]) or to a bot (--bot LEVEL): one of them")
    name, email = correspondence.parse_player(holder) if holder else (None, None)
    gd = engine.open_game(directory)
    note_greedy_instead(gd.game, [bot] if bot else [])
    mailer = None
    if bot is not None and (smtp or outbox):
        raise UsageError("a bot gets no welcome mail: --smtp and --outbox go with --by NEW:EMAIL")
    if smtp or outbox:
        from ..mail import transport
        if not email:
            raise UsageError("a welcome mail needs the new player's address: --by NEW:EMAIL")
        mailer = transport.make(smtp, outbox, smtp_user, starttls)
    moment = clock.moment(now)
    owed, warnings = [], []
    if mailer is not None:  # what an earlier tick owes the players goes first, as before any change by mail
        from ..mail.clockmail import tell_owed
        from ..mail.outgoing import Mailer
        owed, warning = tell_owed(Mailer(gd.path.parent, mailer), gd)
        warnings += [warning] if warning else []
    result = handover.replace(gd, seat, name, email, moment, bot)
    if owed:
        result["mailed"] = owed
    if mailer is not None:  # the seat is handed on already: a mail that fails is a warning, not a failure
        from ..mail.clockmail import send_handover
        result["welcomed"], warning = send_handover(gd, result, mailer, moment)
        warnings += [warning] if warning else []
    if warnings:
        result["warning"] = "; ".join(warnings)

    def text(r):
        if r["bot"]:
            lines = [f"{r['game']}: the seat {r['seat']} is played by {r['holder']} from move {r['number']} "
                     f"(logged); the old secret no longer works."]
            lines += [referee_moves(r["referee_moves"])] if r["referee_moves"] else []
            return "\n".join(lines) + "\n"
        lines = [f"{r['game']}: the seat {r['seat']} is {r['holder']}'s from move {r['number']} (logged); the old "
                 f"secret no longer works.", f"Give {r['holder']} their secret (keep it private):",
                 f"  {r['seat']}: {r['secret']}" + (f"  <{r['email']}>" if r["email"] else "")]
        if r.get("mailed"):
            lines.append(f"Mail owed from an earlier tick sent to {', '.join(r['mailed'])}.")
        if r.get("welcomed"):
            lines.append(f"Welcome mailed to {', '.join(r['welcomed'])}.")
        if r.get("warning"):
            lines.append(f"WARNING: {r['warning']}")
        return "\n".join(lines) + "\n"
    emit(result, fmt, text)


def mail_preference(argument: str, choices: tuple[str, ...]):
    """A command that records one of a player's mail preferences: DIRECTORY, the choice (`argument`), --as and
    --format."""
    def made(function):
        decorators = [click.command(), GAME_DIR, click.argument(argument, type=click.Choice(list(choices))),
                      click.option("--as", "player", required=True, help="Whose preference.", **AS_PLAYER), FORMAT]
        return functools.reduce(lambda command, decorate: decorate(command), reversed(decorators), function)
    return made


def notify_answer(data: dict) -> str:
    """How often a player gets mail (correspondence.NOTIFY), as the answer to `pbem notify` says it."""
    game, player = data["game"], data["player"]
    if data["notify"] == "every":
        return _("{game}: {player} gets mail at every move.", game=game, player=player)
    if data["notify"] == "turn":
        return _("{game}: {player} gets mail when it is their turn, with what happened since.", game=game,
                 player=player)
    return _("{game}: {player} gets a daily digest by mail.", game=game, player=player)


@mail_preference("preference", correspondence.NOTIFY)
def notify(directory, preference, player, fmt):
    """How often a player gets mail: every move, only their turn (with what happened since), or a daily digest.
    By mail, the player writes `notify every|turn|daily` themselves."""
    gd = engine.open_game(directory)
    speak(gd, player, None)
    data = correspondence.set_notify(gd, player, preference)
    emit(data, fmt, lambda d: notify_answer(d) + "\n")


@mail_preference("choice", correspondence.PICTURES)
def pictures(directory, choice, player, fmt):
    """Whether the mails that ask a player to act carry the picture of their view (on) or are text only (off).
    By mail, the player writes `pictures on|off` themselves."""
    gd = engine.open_game(directory)
    speak(gd, player, None)
    data = correspondence.set_pictures(gd, player, choice)
    if data["pictures"] == "on":
        emit(data, fmt, lambda d: _("{game}: {player}'s mails carry a picture of the board.", game=d["game"],
                                    player=d["player"]) + "\n")
    else:
        emit(data, fmt, lambda d: _("{game}: {player}'s mails are text only.", game=d["game"],
                                    player=d["player"]) + "\n")


@click.command()
@GAME_DIR
@click.argument("code", metavar="CODE")
@click.option("--as", "player", required=True, help="Whose language.", **AS_PLAYER)
@FORMAT
def language(directory, code, player, fmt):
    """The language a player reads from now on: en, fr, zh-Hant or zh-Hans (their reports, mails and refusals; a
    move may be written in any language's words). By mail, the player writes `language CODE` themselves."""
    gd = engine.open_game(directory)
    speak(gd, player, None)
    data = correspondence.set_language(gd, player, code)
    from ..text.language import LANGUAGES
    speak(gd, player, data["language"])  # the answer in the language chosen
    # TRANSLATORS: {code} is a language's code (fr), {name} its own name (français)
    emit(data, fmt, lambda d: _("{game}: {player} reads {code} ({name}).", game=d["game"], player=d["player"],
                                code=d["language"], name=LANGUAGES[d["language"]][0]) + "\n")


# ---------------------------------------------------------------- tick

def games_under(target: Path) -> tuple[Path, list[Path]]:
    """(the games root, the game directories to tick): TARGET itself when it is a game, else each game in it."""
    if (target / engine.GAME).is_file():
        return target.parent, [target]
    if not target.is_dir():
        raise PbemError(f"{target}: neither a game directory nor a games root")
    return target, sorted(p for p in target.iterdir() if not p.name.startswith(".") and not p.is_symlink()
                          and p.is_dir() and (p / engine.GAME).is_file())


TICK_LOCK_WAIT = 5.0  # seconds the tick waits for one game's lock before it skips that game (the next run ticks it)


def _event_line(game_id: str, event: dict) -> str:
    due = times.readable(event["due"]) if event.get("due") else "-"
    what = {"remind": f"reminded {event['player']} (due {due})",
            "late": f"{event['player']} is late (was due {due}; {event.get('strikes')} in a row): waiting",
            "timeout": f"{event['player']} timed out (was due {due}): the referee played move "
                       f"{', '.join(map(str, event.get('numbers', [])))} ({event.get('policy')})",
            "resigned": f"{event['player']} counts as resigned after {event.get('strikes')} timeouts in a row"}
    return f"{game_id}: {what[event['kind']]}"


@click.command()
@click.argument("target", metavar="ROOT|DIR", type=FOLDER)
@NOW
@sending
@click.option("--no-mail", is_flag=True, help="Apply the timeouts and mark the reminders without mailing anyone "
              "(players see the position with `pbem status`, or in git).")
@click.option("--from", "from_address", metavar="EMAIL", help="The From address of mail about no game (default: "
              "PBEM_FROM or pbem@this-host).")
@WORKERS
@FORMAT
def tick(target, now, smtp, outbox, smtp_user, starttls, no_mail, from_address, workers, fmt):
    """Run the clock over every game of ROOT (or the game DIR): send each reminder once when its time comes, apply
    each game's timeout policy to every overdue decision, and send the daily digests. Run it from cron."""
    from ..engine import parallel
    if no_mail == bool(smtp or outbox):
        raise UsageError("say how to send reminders and notices: --smtp HOST:PORT or --outbox MAILDIR, or --no-mail")
    moment = clock.moment(now)
    root, directories = games_under(Path(target))
    mailer = None
    if not no_mail:
        from ..mail import transport
        from ..mail.outgoing import Mailer
        mailer = Mailer(root, transport.make(smtp, outbox, smtp_user, starttls), from_address)
    ticked: list[tuple[str, object] | None] = [None] * len(directories)
    work_groups = parallel.groups([d.name for d in directories])
    workers = workers or parallel.cores()

    def work(indices, report) -> None:
        for index in indices:
            report((index, _tick_game(directories[index], moment, mailer)))
    if workers == 1 or len(work_groups) == 1:
        work(range(len(directories)), lambda said: ticked.__setitem__(*said))
    why = ""
    for _, said in parallel.run(work_groups, workers, work) if workers > 1 and len(work_groups) > 1 else ():
        if isinstance(said, parallel.Stopped):  # the games it had taken and not ticked are told as errors
            why = said.text()
            for index in said.taken:
                ticked[index] = ticked[index] or ("error", f"{directories[index].name}: not ticked: {why}")
        else:
            ticked[said[0]] = said[1]
    for index, directory in enumerate(directories):  # not taken: every worker stopped first
        ticked[index] = ticked[index] or ("error", f"{directory.name}: not ticked: {why}")
    done = [result for kind, result in ticked if kind == "done"]
    skipped = [line for kind, line in ticked if kind == "skipped"]
    errors = [line for kind, line in ticked if kind == "error"]
    emit({"now": times.iso(moment), "games": done, "skipped": skipped, "errors": errors}, fmt,
         lambda _: _tick_text(done, skipped, errors, moment))
    if errors or skipped:
        raise PbemError(f"{plural(len(errors) + len(skipped), 'game')} could not be ticked (see above: "
                        f"{len(skipped)} skipped as locked); the others were")


def _tick_game(directory: Path, moment, mailer) -> tuple[str, object]:
    """One game ticked, and what it owes its players mailed: ("done", the tick's result), ("skipped", why: its lock
    was held) or ("error", why)."""
    try:
        gd = engine.open_game(directory)
        gd.lock_wait = min(locks.lock_wait(), TICK_LOCK_WAIT)  # a game held up must not hold up the others
        # mailing, what the tick owes the players (a takeback not answered in time refused, the timeouts) is
        # recorded with its change, and told after it: a run killed in between leaves it for the next run
        # (pbem.clock.notices)
        result, expired = takebacks.tick(gd, moment, owe=mailer is not None)
        if expired:
            from ..text.takebacks import told
            result["takeback"] = told(expired).strip()
        if mailer is not None:
            from ..mail.clockmail import send_tick
            result["mailed"], result["warning"] = send_tick(mailer, gd, moment)
    except locks.Locked as exc:
        return "skipped", f"{directory.name}: {exc}"
    except PbemError as exc:
        return "error", f"{directory.name}: {exc}"
    return "done", result


def _tick_text(done: list[dict], skipped: list[str], errors: list[str], moment) -> str:
    lines = []
    for result in done:
        lines += [_event_line(result["game"], event) for event in result["events"]]
        if result.get("takeback"):
            lines.append(f"{result['game']}: {result['takeback']}")
        if result.get("mailed"):
            lines.append(f"{result['game']}: mailed {', '.join(result['mailed'])}")
        if result.get("warning"):
            lines.append(f"{result['game']}: WARNING: {result['warning']}")
    changed = sum(1 for r in done if r["changed"])
    lines.append(f"{plural(len(done), 'game')} ticked at {times.iso(moment)}, {changed} changed.")
    return "\n".join(lines + [f"skipped: {line}" for line in skipped] + [f"error: {line}" for line in errors]) + "\n"
