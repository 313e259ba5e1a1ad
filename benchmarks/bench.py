"""Performance benchmarks of pbem: every figure a paired comparison of real processes, against
benchmarks/targets.yaml.

    python benchmarks/bench.py [--rounds 15] [--long-rounds 5] [--games 100] [--worker-games N] [--site-games 1000]
                               [--no-git]

Run it from a non-editable install (an editable one adds import hooks to every process). The machine may be shared
and busy: a figure is never a ratio of two medians taken at different moments, but the median of ratios of pairs,
each pair the two commands run one right after the other (A, B, A, B ...), with the range of those ratios. A
target holds when the median meets it, by CPU time (the child's user + system time, from wait4) and by wall time.

- the yardsticks: `python -c "import click"` and `python -c "import click, yaml"` (what a command imports before
  it does anything, with and without PyYAML, which a move does not import);
- `pbem move`, `pbem status --as P` and `pbem moves --as P` at move 100 of a 4-player Coal Baron game (phase
  cards), each run between the two yardsticks, and paired with each;
- the same game's last move against its move 10;
- that move 100 answered in French and in Chinese (`--language fr`, `--language zh-Hant`: the catalogues opened,
  the answer and the moves in the reader's words) against the same move in English, paired;
- a batch of mail: 100 Gold Fever games, one move waiting for each in a Maildir, `pbem mail inbox --maildir ...
  --outbox ...`: moves per CPU second and per wall second with pictures on (each turn mail carries the picture of
  its reader's view: the install's pictures extra, Pillow; the report says whether it has it) and with pictures off
  (PBEM_MAIL_PICTURES=0), the two run one after the other, each run paired with `pbem move` of the same position
  and with a probe of the disk (a 4 KiB block rewritten and fsynced, 20 times): what one fsync costs on that disk
  at that moment, beside how many fsyncs a mail makes; that batch is handled by one process (`--workers 1`);
- the same batch, pictures on, with `--workers N` (for each N of WORKER_COUNTS) against `--workers 1`, the two run
  one right after the other: how many times the throughput of one worker N workers reach (by wall time: the
  target; the CPU time of the run and its workers together is shown); with `--worker-games` the same on a batch of
  that many games too (1000: a larger club's), shown beside it; and, paired with the same one-worker run, N
  one-worker runs started together, each on a copy of the batch of its own: how many times one run's throughput
  the machine gives N processes that share nothing (no fork, no serial part), the bound of any N workers;
- `pbem site` of a root of 1,000 Gold Fever games (`--site-games`) after one new move, against the site of that one
  game alone, made afresh: what the 999 unchanged games cost a run (their public files read and hashed);
- a turn mail's picture in each game, at its largest table: the player to act's view at 24 positions spread over
  a whole game, each drawn as the mail's PNG in one process (benchmarks/picturecost.py), the median milliseconds
  of a picture beside the text report of the same views;
- `pbem demo coal-baron --players 4` against the same game, the same greedy bots, played in memory
  (pbem.play.playout);
- `pbem verify` of the whole Coal Baron game against `pbem move`;
- `pbem git verify` of a game played by git to its end, one refereed commit per move: its cost per refereed commit
  after ~340 of them against after ~50 (`--rev`), and the whole game, in a clone as CI and players check it (its
  objects packed, as a fetch brings them), against one `pbem move` per 50 commits; the same verify in the
  referee's own repository (objects loose) is shown beside it;
- the peak memory (maxrss) of every command.

Every game copied for a run is flushed to disk (os.sync) before the run, as a game's files are when a move comes;
each command is first run once untimed, so Python's bytecode cache and pbem's compiled schemas are written (the
children run without PYTHONDONTWRITEBYTECODE). Exit status 1 if a target is missed. The last lines are the table
docs/performance.md quotes.
"""
from __future__ import annotations

import argparse
import contextlib
import email.policy
import email.utils
import itertools
import json
import mailbox
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Callable

import yaml

from pbem import bots
from pbem.clock import correspondence
from pbem.engine import engine
from pbem.play import movefile, playout
from pbem.store import registry

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import picturecost  # noqa: E402  (beside this file)

PYTHON = sys.executable
PBEM = str(Path(sys.executable).with_name("pbem"))
CLICK = [PYTHON, "-c", "import click"]
CLICK_YAML = [PYTHON, "-c", "import click, yaml"]
PLAYERS = ["alice", "bob", "carol", "dave"]
GAME, OPTIONS, SEED = "coal-baron", {"phase-cards": "on"}, "bench"
GIT_SEED = "git-267"  # a game the patient bot plays in 344 turns: 345 refereed commits with the first
MID = 100
NOW = "2026-01-05T10:00:00Z"
CHILD_ENV = {key: value for key, value in os.environ.items() if key not in ("PYTHONDONTWRITEBYTECODE",
                                                                              "PBEM_MAIL_PICTURES")}
PICTURED = {"coal-baron": 4, "gold-fever": 5, "chartered": 6, "heartland-hauling": 4}  # each at its largest table
VIEWS = 24  # positions of a whole game drawn as a turn mail's picture
# the fsync probe: rewrite one 4 KiB block and fsync it, 20 times; prints the median milliseconds of one
FSYNC_PROBE = """import os, statistics, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
block, took = os.urandom(4096), []
for _ in range(20):
    start = time.perf_counter()
    os.pwrite(fd, block, 0)
    os.fsync(fd)
    took.append(time.perf_counter() - start)
print(statistics.median(took) * 1000)
"""
# a pbem command (argv[2:]) counting its fsyncs and fdatasyncs, written at exit to the file argv[1]
COUNT_FSYNCS = """import atexit, os, sys
count = [0]
def counted(call):
    def wrapper(fd):
        count[0] += 1
        return call(fd)
    return wrapper
os.fsync, os.fdatasync = counted(os.fsync), counted(os.fdatasync)
def write():
    with open(sys.argv[1], "w") as out:
        out.write(str(count[0]))
atexit.register(write)
from pbem.cli.commands import main
sys.exit(main(sys.argv[2:]))
"""


# ---------------------------------------------------------------- runs and pairs

@dataclass
class Run:
    cpu: float   # s, user + system
    wall: float  # s
    peak: int    # KiB, maxrss
    output: bytes


def run(command: list[str], expect: bytes | None = None, env: dict | None = None) -> Run:
    """Run one child (`env`: more environment variables); its output goes to files (read afterwards), so that
    wait4 reaps it and gives its resource usage. A failure stops the benchmark."""
    return run_together([command], expect, env)


def run_together(commands: list[list[str]], expect: bytes | None = None, env: dict | None = None) -> Run:
    """Run the commands at once, a child each: the wall time until the last ends, the CPU time of them all, the
    largest peak memory, the first one's output."""
    with contextlib.ExitStack() as files:
        children = []
        start = time.perf_counter()
        for command in commands:
            out, err = files.enter_context(tempfile.TemporaryFile()), files.enter_context(tempfile.TemporaryFile())
            children.append((command, out, err, subprocess.Popen(command, stdout=out, stderr=err,
                                                                 env={**CHILD_ENV, **(env or {})})))
        cpu, peak, outputs = 0.0, 0, []
        for command, out, err, process in children:
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = code = os.waitstatus_to_exitcode(status)
            cpu, peak = cpu + usage.ru_utime + usage.ru_stime, max(peak, usage.ru_maxrss)
            out.seek(0)
            err.seek(0)
            output, errors = out.read(), err.read()
            if code != 0 or (expect is not None and expect not in output):
                raise SystemExit(f"{' '.join(command)} failed ({code}): {(errors or output).decode()[-2000:]}")
            outputs.append(output)
        elapsed = time.perf_counter() - start
    return Run(cpu, elapsed, peak, outputs[0])


@dataclass
class Command:
    """A command to measure: `prepare` (untimed) makes what one run needs and returns the command line."""

    name: str
    prepare: Callable[[], list[str]]
    expect: bytes | None = None
    runs: list[Run] = field(default_factory=list)
    env: dict | None = None

    def once(self) -> Run:
        done = self.unrecorded()
        self.runs.append(done)
        return done

    def unrecorded(self) -> Run:
        return run(self.prepare(), self.expect, self.env)


class Together(Command):
    """Commands run at once (`prepare` gives their command lines): one run is until the last of them ends."""

    def unrecorded(self) -> Run:
        return run_together(self.prepare(), self.expect, self.env)


def fixed(name: str, command: list[str], expect: bytes | None = None) -> Command:
    return Command(name, lambda: command, expect)


@dataclass
class Pairs:
    """The ratios a/b of runs made one right after the other, by CPU and by wall time."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def add(self, a: Run, b: Run, scale: float = 1.0) -> None:
        self.cpu.append(a.cpu / b.cpu * scale)
        self.wall.append(a.wall / b.wall * scale)


def spread(values: list[float], digits: int = 2) -> str:
    """`median [lowest–highest]`."""
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


# ---------------------------------------------------------------- the games measured

def patient_choice(legal: list[dict], rnd: random.Random) -> dict:
    """A bot that spends every work step before ending a turn (as players do), so a game lasts long."""
    return bots.choose([m for m in legal if m["action"] != "end"] or legal, rnd)


def whole_game(directory: Path) -> list[tuple[int, str, str]]:
    """Play a whole game in `directory` (one decision a turn, by the patient bot); its turns (move number, player,
    move), the referee's forced moves left out (the engine plays them)."""
    correspondence.create(GAME, directory, [(name, None) for name in PLAYERS], seed=SEED, options=OPTIONS)
    gd, rnd, turns = engine.open_game(directory), random.Random(SEED), []
    with engine.session(gd) as table:
        while (pending := gd.game.rules.pending(table.state)) is not None:
            move = gd.game.format_move(patient_choice(gd.game.rules.legal_moves(table.state, pending["player"]),
                                                      rnd))
            turns.append((table.move_number, pending["player"], move))
            table.submit(pending["player"], [move], by="referee")
        table.write()
    return turns


ACCEPTED = {None: b"Accepted", "fr": "accepté".encode(), "zh-Hant": "已接受".encode()}  # a move's answer says


@dataclass
class Position:
    """A game directory saved just before a move, and that move as a signed move file."""

    snapshot: Path
    player: str
    move_file: Path

    def command(self, work: Path, language: str | None = None) -> Command:
        def prepare() -> list[str]:
            target = work / self.snapshot.name
            if target.exists():
                shutil.rmtree(target)
            work.mkdir(parents=True, exist_ok=True)
            shutil.copytree(self.snapshot, target, symlinks=True)
            os.sync()  # on disk, as a game's files are when a move comes: its last move was long ago
            return [PBEM, "move", str(target), "--as", self.player, str(self.move_file),
                    *(["--language", language] if language else [])]
        return Command(f"pbem move ({self.snapshot.parent.name}{', ' + language if language else ''})", prepare,
                       ACCEPTED[language])


def positions(root: Path, turns: list[tuple[int, str, str]], numbers: list[int]) -> dict[int, Position]:
    """The same game again, saved before each of the moves `numbers` (with that move signed)."""
    directory = root / "replayed" / SEED
    created = correspondence.create(GAME, directory, [(name, None) for name in PLAYERS], seed=SEED, options=OPTIONS)
    secrets = {p["name"]: p["secret"] for p in created["players"]}
    gd, saved = engine.open_game(directory), {}
    with engine.session(gd) as table:
        for number, player, move in turns:
            assert number == table.move_number
            if number in numbers:
                table.write()
                snapshot = root / f"at-{number}" / SEED
                shutil.copytree(directory, snapshot, symlinks=True)
                move_file = root / f"at-{number}" / "move.yaml"
                move_file.write_text(movefile.dumps(movefile.build(gd.id, number, player, [move], secrets[player])))
                saved[number] = Position(snapshot, player, move_file)
            table.submit(player, [move], by="referee")
    return saved


def mail_batch(root: Path, games: int) -> tuple[Path, Position]:
    """`games` Gold Fever games of 3 players with addresses under root/games, and a Maildir root/inbox holding
    one mail a game: the first move, with the player's password. Also the first game's position, for the CLI."""
    rnd = random.Random(SEED)
    (root / "games").mkdir(parents=True)
    cli = root.parent / f"cli-{root.name}"
    cli.mkdir()
    box = mailbox.Maildir(root / "inbox", create=True)
    first = None
    for index in range(games):
        game_id = f"gf{index:03d}"
        created = correspondence.create("gold-fever", root / "games" / game_id,
                                        [(name, f"{name}@players.example") for name in ("ann", "ben", "cy")],
                                        seed=f"{SEED}-{index}", organiser="referee@club.example")
        secrets = {p["name"]: p["secret"] for p in created["players"]}
        gd = engine.open_game(root / "games" / game_id)
        env = engine.load_state(gd)
        player = gd.game.rules.pending(env["state"])["player"]
        move = gd.game.format_move(bots.choose(gd.game.rules.legal_moves(env["state"], player), rnd))
        msg = EmailMessage(policy=email.policy.SMTP)
        msg["From"], msg["To"] = f"{player}@players.example", "referee@club.example"
        msg["Subject"], msg["Date"] = f"Re: [{game_id}] my move", email.utils.formatdate()
        msg["Message-ID"] = f"<bench.{index}@players.example>"
        msg.set_content(f"Password: {secrets[player]}\nMove-Number: {env['move_number']}\n{move}\n")
        box.add(mailbox.MaildirMessage(msg.as_bytes()))
        if first is None:
            snapshot = cli / game_id
            shutil.copytree(root / "games" / game_id, snapshot, symlinks=True)
            move_file = cli / "move.yaml"
            move_file.write_text(movefile.dumps(movefile.build(game_id, env["move_number"], player, [move],
                                                               secrets[player])))
            first = Position(snapshot, player, move_file)
    return root, first


def in_process(*args) -> str:
    """A pbem command run in this process (setting up, untimed): its standard output; a failure stops."""
    from click.testing import CliRunner
    from pbem.cli.commands import cli
    result = CliRunner().invoke(cli, [str(a) for a in args], standalone_mode=False, catch_exceptions=False)
    return result.stdout


def git_game(root: Path) -> tuple[Path, list[str]]:
    """A 4-player Coal Baron game played by git to its end: each turn (the patient bot's) a player's commit, then
    a referee run, so each turn makes one refereed commit. The repository and its refereed commits, oldest
    first."""
    import pyrage
    os.environ.update({"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
                       "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org"})
    root.mkdir(parents=True)
    arguments = []
    for name in PLAYERS:
        key = root / f"{name}.pub"
        key.write_text(f"{pyrage.x25519.Identity.generate().to_public()}\n")
        arguments += ["--player", name, "--key", f"{name}={key}"]
    repository, referee = root / GIT_SEED, root / "referee"
    created = json.loads(in_process("git", "init", GAME, repository, *arguments, "--seed", GIT_SEED,
                                    *[a for k, v in OPTIONS.items() for a in ("--option", f"{k}={v}")],
                                    "--referee-dir", referee, "--format", "json"))
    for player in created["players"]:
        (root / f"{player['name']}.secret").write_text(player["secret"] + "\n")
    refereed = [created["commit"]]
    gd, rnd = engine.open_game(referee / GIT_SEED), random.Random(GIT_SEED)
    while (pending := gd.game.rules.pending((state := engine.load_state(gd)["state"]))) is not None:
        player = pending["player"]
        move = gd.game.format_move(patient_choice(gd.game.rules.legal_moves(state, player), rnd))
        in_process("git", "move", repository, "--as", player, "--text", move, "--secret-file",
                   root / f"{player}.secret")
        done = json.loads(in_process("git", "referee", repository, "--referee-dir", referee, "--format", "json"))
        refereed.append(done["commit"])
        if len(refereed) % 50 == 0:
            print(f"  ... {len(refereed)} refereed commits", file=sys.stderr)
    return repository, refereed


# ---------------------------------------------------------------- report

@dataclass
class Figure:
    name: str
    cpu: list[float]     # the paired ratios (or rates), by CPU time
    wall: list[float]    # by wall time
    target: float | None
    at_least: bool       # a rate: the figure must reach the target
    detail: str
    wall_only: bool = False  # the target is for the wall time alone (the CPU figure is shown)

    def ok(self) -> bool:
        if self.target is None:
            return True
        cpu, wall = statistics.median(self.cpu), statistics.median(self.wall)
        if self.wall_only:
            return wall >= self.target if self.at_least else wall <= self.target
        if self.at_least:
            return cpu >= self.target and wall >= self.target
        return cpu <= self.target and wall <= self.target


def ratio(name: str, pairs: Pairs, target: float | None, detail: str) -> Figure:
    return Figure(name, pairs.cpu, pairs.wall, target, False, detail)


def ms(command: Command, per: float = 1.0) -> str:
    """The medians of a command's runs: `12 ms CPU, 14 ms wall`."""
    cpu = statistics.median(r.cpu for r in command.runs) * 1000 / per
    wall = statistics.median(r.wall for r in command.runs) * 1000 / per
    digits = 0 if cpu >= 20 else 1
    return f"{cpu:.{digits}f} ms CPU, {wall:.{digits}f} ms wall"


def report(figures: list[Figure], peaks: dict[str, float], memory_target: float, header: list[str],
           notes: list[str]) -> bool:
    width = max(len(f.name) for f in figures)
    lines = header + [f"  {'':<{width}}  {'CPU: median [range]':<21}  {'wall: median [range]':<21}  target"]
    for f in figures:
        digits = 2 if f.wall_only or not f.at_least else 1
        target = "(shown)" if f.target is None else f"{'>=' if f.at_least else '<='} {f.target:g}"
        lines.append(f"  {f.name:<{width}}  {spread(f.cpu, digits):<21}  {spread(f.wall, digits):<21}  {target:<8} "
                     f"{'' if f.target is None else 'ok' if f.ok() else 'MISSED'}")
    peak_name, peak = max(peaks.items(), key=lambda item: item[1])
    memory_ok = peak < memory_target
    lines.append(f"  {'peak memory of every command (MiB)':<{width}}  {peak:<21.1f}  {'':<21}  < {memory_target:<6g} "
                 f"{'ok' if memory_ok else 'MISSED'}")
    lines.append(f"  (the largest: {peak_name})")
    lines += [f"  {f.name}: {f.detail}" for f in figures] + [f"  {note}" for note in notes]
    print("\n".join(lines))
    return memory_ok and all(f.ok() for f in figures)


# ---------------------------------------------------------------- workers

WORKER_COUNTS = (2,)  # the worker counts measured, each against one worker (the machine of the targets has 2 cores)
WorkerKey = int | tuple[str, int]  # a worker count, or ("apart", N): N one-worker runs at once


def with_workers(command: list[str], count: int) -> list[str]:
    """A `pbem mail inbox` command line run with `count` workers."""
    if "--workers" in command:
        at = command.index("--workers")
        command = command[:at] + command[at + 2:]
    return [*command, "--workers", str(count)]


def worker_commands(inbox: Callable[[str], list[str]], games: int) -> dict[WorkerKey, Command]:
    """The mail batch of `games` games, pictures on, with one worker and with each count of WORKER_COUNTS; and, as
    ("apart", N), N one-worker runs at once, each on a copy of its own (`inbox(name)`: a fresh copy named so)."""
    env = {"PBEM_MAIL_PICTURES": "1"}
    commands: dict[WorkerKey, Command] = {
        count: Command(f"mail batch of {games}, {count} worker{'s' if count > 1 else ''}",
                       lambda count=count: with_workers(inbox("mailwork"), count), b"accepted", env=env)
        for count in (1, *WORKER_COUNTS)}
    for count in WORKER_COUNTS:
        commands["apart", count] = Together(
            f"{count} mail batches of {games} side by side, 1 worker each",
            lambda count=count: [with_workers(inbox(f"mailwork-{n}"), 1) for n in range(count)], b"accepted", env=env)
    return commands


def measure_workers(commands: dict[WorkerKey, Command], pairs: dict[WorkerKey, Pairs]) -> None:
    """One round: one worker, then each count, one right after the other; each pair's ratio is one worker's time
    over N workers' (how many times one worker's throughput N reach); then N separate runs at once against the same
    one-worker run (N batches in the time of those N runs: how many times one run's throughput the machine gives)."""
    one = commands[1].once()
    for count in WORKER_COUNTS:
        pairs[count].add(one, commands[count].once())
        pairs["apart", count].add(one, commands["apart", count].once(), count)


def worker_figures(commands: dict[WorkerKey, Command], pairs: dict[WorkerKey, Pairs], targets: dict, games: int,
                   measured: bool = True) -> list[Figure]:
    """The figures of one batch's workers; `measured`: against their targets (bench.py's own batch), else shown (a
    larger club's batch, --worker-games). Each followed by the machine's bound: N runs that share nothing."""
    figures = []
    for count in WORKER_COUNTS:
        figures += [
            Figure(f"mail batch: {count} workers / 1 (throughput)" if measured else f"  the same, {games} games",
                   pairs[count].cpu, pairs[count].wall, targets[f"mail_workers_{count}_vs_1"] if measured else None,
                   True, f"`--workers {count}`: {ms(commands[count], games)} a mail (wall: the batch's, over {games}; "
                   f"CPU: the run's and its workers'), `--workers 1` beside it: {ms(commands[1], games)}; "
                   f"{os.cpu_count()} cores", wall_only=True),
            Figure(f"  {count} runs apart / 1: the machine's bound" if measured else f"    {count} runs apart / 1",
                   pairs["apart", count].cpu, pairs["apart", count].wall, None, True,
                   f"{count} runs of `--workers 1` started together, each on a copy of the {games} games of its own "
                   f"(no fork, nothing shared, no serial part): {ms(commands['apart', count], games * count)} a mail "
                   f"(wall: {count * games} mails in the time of the slower; CPU: theirs together), paired with the "
                   f"same one-worker run", wall_only=True)]
    return figures


# ---------------------------------------------------------------- the site

def site_root(root: Path, count: int) -> Path:
    """`count` Gold Fever games of 3 players under root/games, each at its start, and their site made once."""
    print(f"setting up: {count} games for `pbem site` (a minute or two) ...", file=sys.stderr)
    for index in range(count):
        correspondence.create("gold-fever", root / "games" / f"club{index:04d}",
                              [(name, None) for name in ("ann", "ben", "cy")], seed=f"{SEED}-site-{index}")
    run([PBEM, "site", str(root / "games"), str(root / "out"), "--now", NOW], b"games")
    return root


def site_commands(root: Path) -> tuple[Command, Command]:
    """The site after one new move (in the next game each run), and the site of that game alone, made afresh."""
    games = sorted((root / "games").iterdir())
    moved = []

    def one_move() -> list[str]:
        gd = engine.open_game(games[len(moved) % len(games)])
        state = engine.load_state(gd)["state"]
        player = gd.game.rules.pending(state)["player"]
        move = gd.game.format_move(bots.first_legal(gd.game.rules.legal_moves(state, player)))
        correspondence.submit(gd, player, [move], by="referee")
        moved.append(gd.dir)
        os.sync()
        return [PBEM, "site", str(root / "games"), str(root / "out"), "--now", NOW]

    def alone() -> list[str]:
        one = root / "one"
        shutil.rmtree(one, ignore_errors=True)
        shutil.copytree(moved[-1], one / "games" / Path(moved[-1]).name, symlinks=True)
        os.sync()
        return [PBEM, "site", str(one / "games"), str(one / "out"), "--now", NOW]
    return Command("site after one move", one_move, b"written"), Command("site of that game alone", alone, b"written")


def site_figure(whole: Command, alone: Command, target: float, count: int) -> Figure:
    cpu = [a.cpu - b.cpu for a, b in zip(whole.runs, alone.runs)]
    wall = [a.wall - b.wall for a, b in zip(whole.runs, alone.runs)]
    return Figure(f"site: {count} games, one moved − it alone (s)", cpu, wall, target, False,
                  f"`pbem site` of {count} games after one move: {ms(whole)}; of that game alone, afresh: {ms(alone)}")


# ---------------------------------------------------------------- pictures

def pictures_installed() -> tuple[bool, str]:
    """Does this install draw pictures (the pictures extra: Pillow)? And the words that say so."""
    try:
        import PIL
    except ImportError:
        return False, "off: this install has no Pillow (pip install '.[pictures]'), so its mails carry no picture"
    try:
        from zlib_ng import __version__ as zlib_ng
    except ImportError:
        deflater = "the standard library's zlib (no zlib-ng)"
    else:
        deflater = f"zlib-ng {zlib_ng}"
    return True, (f"on: this install has Pillow {PIL.__version__} and {deflater} (the pictures extra), so each turn "
                  f"mail carries the picture of its reader's view")


PICTURES, PICTURES_SAID = pictures_installed()


def picture_views(root: Path) -> dict[str, Path]:
    """For each game at its largest table, the views a turn mail draws at VIEWS positions of a whole game, in a
    file for picturecost.py."""
    print("setting up: a whole game of each title, its views drawn as pictures ...", file=sys.stderr)
    files = {}
    for game_id, count in PICTURED.items():
        docs = picturecost.views(game_id, count, VIEWS, root / game_id)
        files[game_id] = root / f"{game_id}.json"
        files[game_id].write_text(json.dumps(docs))
    return files


def picture_figures(costs: dict[str, list[dict]], targets: dict) -> list[Figure]:
    """A figure a game: the milliseconds of a turn mail's picture over every view and round, each process's first
    picture (fonts loaded, every word laid out anew) shown apart, beside the text report of the same views."""
    if not PICTURES:
        return [Figure(f"picture: {game_id}, {count} players (ms)", [float("inf")], [float("inf")],
                       targets[f"picture_ms_{game_id.replace('-', '_')}"], False,
                       "not measured: this install has no Pillow") for game_id, count in PICTURED.items()]
    figures = []
    for game_id, rounds in costs.items():
        cpu = [ms for done in rounds for ms in done["picture_cpu_ms"][1:]]
        wall = [ms for done in rounds for ms in done["picture_wall_ms"][1:]]
        first = statistics.median(done["picture_cpu_ms"][0] for done in rounds)
        text = statistics.median(ms for done in rounds for ms in done["text_cpu_ms"])
        size = statistics.median(b for done in rounds for b in done["bytes"]) / 1024
        figures.append(Figure(f"picture: {game_id}, {PICTURED[game_id]} players (ms)", cpu, wall,
                              targets[f"picture_ms_{game_id.replace('-', '_')}"], False,
                              f"{len(rounds[0]['bytes'])} views of a whole game, the player to act's, each a PNG "
                              f"of {size:.0f} KB (median); a process's first picture {first:.0f} ms CPU; the text "
                              f"report of the same views {text:.1f} ms CPU"))
    return figures


# ---------------------------------------------------------------- main

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="pairs of each short command")
    parser.add_argument("--long-rounds", type=int, default=5, help="pairs of the mail batch, demo and verifies")
    parser.add_argument("--games", type=int, default=100, help="games in the mail batch")
    parser.add_argument("--worker-games", type=int, help="the workers measured on a batch of this many games too "
                                                         "(1000: a larger club's), shown beside bench.py's own")
    parser.add_argument("--site-games", type=int, default=1000, help="games of the site's root")
    parser.add_argument("--no-git", action="store_true", help="leave out `pbem git verify` (its game takes minutes "
                                                              "to play)")
    args = parser.parse_args()
    targets = {key: value["target"] for key, value in yaml.safe_load((HERE / "targets.yaml").read_text()).items()}
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    started_in = os.getcwd()
    # the children start in the scratch folder: a `python -c` started in a source checkout would import the
    # checkout's pbem/ (which has no pbem.games) instead of the installed one
    os.chdir(root)
    try:
        return measure(args, targets, root)
    finally:
        os.chdir(started_in)
        shutil.rmtree(root, ignore_errors=True)


def measure(args, targets: dict, root: Path) -> int:
    print("setting up: a whole game of Coal Baron, the mail batch, the same game in memory ...", file=sys.stderr)
    turns = whole_game(root / "whole" / SEED)
    finished = root / "whole" / SEED
    last = turns[-1][0]
    at = positions(root, turns, [10, MID, last])
    batch, cli_position = mail_batch(root / "mail", args.games)
    site_whole, site_alone = site_commands(site_root(root / "site", args.site_games))
    work = root / "work"

    click_only, click_yaml = fixed("import click", CLICK), fixed("import click, yaml", CLICK_YAML)
    move, move_10, move_last = at[MID].command(work), at[10].command(work), at[last].command(work)
    cli_move = cli_position.command(work)
    move_fr, move_zh = at[MID].command(work, "fr"), at[MID].command(work, "zh-Hant")
    status = fixed("status", [PBEM, "status", str(at[MID].snapshot), "--as", PLAYERS[0]])
    moves = fixed("moves", [PBEM, "moves", str(at[MID].snapshot), "--as", PLAYERS[0]])
    verify = fixed("verify", [PBEM, "verify", str(finished)], b"verified")

    # the demo and the same game in memory: the same greedy bots at every seat, the same seeds, the same game id
    demo = fixed("demo", [PBEM, "demo", GAME, "--players", str(len(PLAYERS)), "--seed", SEED, "--bot", "greedy"],
                 b"Verified")
    in_memory_code = (f"from pbem.play import playout; from pbem.store import registry; "
                      f"s = playout.play(registry.get({GAME!r}), {PLAYERS!r}, seed={SEED!r}, bot_seed={SEED!r}, "
                      f"game_id='demo-{GAME}', seats={{p: 'greedy' for p in {PLAYERS!r}}})")
    in_memory = fixed("in memory", [PYTHON, "-c", in_memory_code])
    demo_dir = root / "demo-check" / f"demo-{GAME}"
    run([PBEM, "demo", GAME, "--players", str(len(PLAYERS)), "--seed", SEED, "--bot", "greedy", "--dir",
         str(demo_dir)], b"Verified")
    same = playout.play(registry.get(GAME), PLAYERS, seed=SEED, bot_seed=SEED, game_id=f"demo-{GAME}",
                        seats={p: "greedy" for p in PLAYERS})
    if engine.load_state(engine.open_game(demo_dir))["state"] != same:
        raise SystemExit("the demo and the in-memory play-out are not the same game: the comparison would be unfair")

    copies = itertools.count()

    def inbox_of(batch: Path) -> Callable[..., list[str]]:
        def inbox(name: str = "mailwork") -> list[str]:
            # a fresh copy each run, all deleted at the end: deleting the last copy just before a run makes this
            # ext4 (no journal) step over thousands of freed inodes at each file the run makes — 150 to 260 ms of
            # kernel CPU that falls on whichever run comes next (docs/performance.md, round six)
            copy = root / "mail-copies" / f"{name}-{next(copies)}"
            copy.parent.mkdir(exist_ok=True)
            shutil.copytree(batch, copy, symlinks=True)
            os.sync()  # on disk, as a game's files are when a mail comes: its last move was long ago
            return [PBEM, "mail", "inbox", "--games", str(copy / "games"), "--maildir", str(copy / "inbox"),
                    "--outbox", str(copy / "outbox"), "--now", NOW]
        return inbox
    inbox = inbox_of(batch)
    mail = Command("mail batch, pictures on", lambda: with_workers(inbox(), 1), b"accepted",
                   env={"PBEM_MAIL_PICTURES": "1"})
    text_mail = Command("mail batch, pictures off", lambda: with_workers(inbox(), 1), b"accepted",
                        env={"PBEM_MAIL_PICTURES": "0"})
    workers = worker_commands(inbox, args.games)  # the workers on bench.py's batch (the target's)
    larger = args.worker_games if args.worker_games and args.worker_games != args.games else None
    larger_workers = worker_commands(inbox_of(mail_batch(root / "mail-workers", larger)[0]), larger) if larger else {}
    fsync_probe = fixed("fsync probe", [PYTHON, "-c", FSYNC_PROBE, str(root / "fsync-probe")])
    run([PYTHON, "-c", COUNT_FSYNCS, str(root / "fsyncs"), *with_workers(inbox(), 1)[1:]], b"accepted")
    fsyncs_per_mail = int((root / "fsyncs").read_text()) / args.games

    git_verify = None
    if not args.no_git:
        print("setting up: a game played by git, one refereed commit per turn (a few minutes) ...", file=sys.stderr)
        repository, refereed = git_game(root / "git")
        early, late = refereed[49], refereed[-6]  # after 50 and after (all but 5) refereed commits
        git_verify = {name: fixed(f"git verify {name}", [PBEM, "git", "verify", str(repository), "--rev", rev],
                                  b"verified")
                      for name, rev in (("early", early), ("late", late), ("loose", refereed[-1]))}
        # the finished game as CI and a player check it: a clone, its objects packed as a fetch brings them (the
        # referee's own repository keeps the 5,500 objects of its commits loose, as git leaves them below gc.auto)
        clone = root / "git" / "clone"
        run(["git", "clone", "--quiet", "--no-local", str(repository), str(clone)])
        git_verify["whole"] = fixed("git verify whole", [PBEM, "git", "verify", str(clone)], b"verified")
        git_counts = {"early": 50, "late": len(refereed) - 5, "whole": len(refereed)}

    # bytecode caches and compiled schemas written, files in the page cache
    for command in (click_only, click_yaml, status, moves, verify, demo, in_memory, move, move_10, move_last,
                    move_fr, move_zh, cli_move, mail, text_mail, fsync_probe, *workers.values(),
                    *larger_workers.values(),
                    *(git_verify or {}).values()):
        command.unrecorded()
    drawn = picture_views(root / "pictures") if PICTURES else {}

    pairs = {name: Pairs() for name in ("move/click", "move/click+yaml", "status/click", "status/click+yaml",
                                        "moves/click", "moves/click+yaml", "last/10", "fr/en", "zh/en", "mail/cli",
                                        "text mail/cli",
                                        "demo", "verify",
                                        "git per commit", "git whole", "git whole, loose")}
    worker_pairs = {key: Pairs() for key in workers}
    larger_pairs = {key: Pairs() for key in larger_workers}
    mail_cpu, mail_wall, text_cpu, text_wall, probe = [], [], [], [], []
    costs = {game_id: [] for game_id in drawn}
    print(f"measuring: {args.rounds} rounds ({args.long_rounds} of the long ones) ...", file=sys.stderr)
    for round_number in range(args.rounds):
        # each command between the two yardsticks, the yardsticks alternating: A, B, A, B ...
        y1 = click_yaml.once()
        m = move.once()
        y2 = click_only.once()
        s = status.once()
        y3 = click_yaml.once()
        n = moves.once()
        y4 = click_only.once()
        pairs["move/click+yaml"].add(m, y1)
        pairs["move/click"].add(m, y2)
        pairs["status/click"].add(s, y2)
        pairs["status/click+yaml"].add(s, y3)
        pairs["moves/click+yaml"].add(n, y3)
        pairs["moves/click"].add(n, y4)
        pairs["last/10"].add(move_last.once(), move_10.once())
        pairs["fr/en"].add(move_fr.once(), m)
        pairs["zh/en"].add(move_zh.once(), move.once())
        if round_number < args.long_rounds:
            batch_run, cli_run, probe_run = mail.once(), cli_move.once(), fsync_probe.once()
            pairs["mail/cli"].add(batch_run, cli_run, 1 / args.games)
            mail_cpu.append(args.games / batch_run.cpu)
            mail_wall.append(args.games / batch_run.wall)
            text_run = text_mail.once()
            pairs["text mail/cli"].add(text_run, cli_run, 1 / args.games)
            text_cpu.append(args.games / text_run.cpu)
            text_wall.append(args.games / text_run.wall)
            for game_id, views in drawn.items():
                costs[game_id].append(json.loads(run([PYTHON, str(HERE / "picturecost.py"), str(views)]).output))
            probe.append(float(probe_run.output))
            measure_workers(workers, worker_pairs)
            if larger_workers:
                measure_workers(larger_workers, larger_pairs)
            site_whole.once()
            site_alone.once()
            pairs["demo"].add(demo.once(), in_memory.once())
            pairs["verify"].add(verify.once(), move.once())
            if git_verify:
                early_run, late_run = git_verify["early"].once(), git_verify["late"].once()
                pairs["git per commit"].add(late_run, early_run, git_counts["early"] / git_counts["late"])
                pairs["git whole"].add(git_verify["whole"].once(), move.once(), 50 / git_counts["whole"])
                pairs["git whole, loose"].add(git_verify["loose"].once(), move.once(), 50 / git_counts["whole"])

    figures = [
        ratio("pbem move / import click", pairs["move/click"], targets["move_vs_import_click"],
              f"move 100 of the game: {ms(move)} (medians); import click: {ms(click_only)}"),
        ratio("pbem move / import click, yaml", pairs["move/click+yaml"], targets["move_vs_import_click_yaml"],
              f"import click, yaml: {ms(click_yaml)}"),
        ratio("pbem status --as P / import click", pairs["status/click"], None, f"{ms(status)}, same position"),
        ratio("pbem status --as P / import click, yaml", pairs["status/click+yaml"],
              targets["status_vs_import_click_yaml"], "the same runs of status"),
        ratio("pbem moves --as P / import click", pairs["moves/click"], None, f"{ms(moves)}, same position"),
        ratio("pbem moves --as P / import click, yaml", pairs["moves/click+yaml"],
              targets["moves_vs_import_click_yaml"], "the same runs of moves"),
        ratio(f"move {last} (the last) / move 10", pairs["last/10"], targets["last_move_vs_move_10"],
              f"the last: {ms(move_last)}; move 10: {ms(move_10)}; the game has {len(turns)} turns of players "
              f"and {last} moves (the referee's forced moves between them)"),
        ratio("pbem move in French / in English", pairs["fr/en"], targets["move_fr_vs_en"],
              f"move 100 again, --language fr: {ms(move_fr)}"),
        ratio("pbem move in Chinese / in English", pairs["zh/en"], targets["move_zh_vs_en"],
              f"move 100 again, --language zh-Hant: {ms(move_zh)}"),
        Figure("mail batch, pictures on: moves per second", mail_cpu if PICTURES else [0.0],
               mail_wall if PICTURES else [0.0], targets["mail_moves_per_second"], True,
               f"{args.games} Gold Fever games, one move each, each answer the next player's turn mail with the "
               f"picture of their view; per mail {ms(mail, args.games)}; the disk meanwhile: one fsync "
               f"{spread(probe)} ms, {fsyncs_per_mail:.1f} fsyncs a mail" if PICTURES else
               "not measured: this install has no Pillow (pip install '.[pictures]'), its mails carry no picture"),
        Figure("mail batch, pictures off: moves per second", text_cpu, text_wall, None, True,
               f"the same batch, PBEM_MAIL_PICTURES=0 (text mails only), run right after it: per mail "
               f"{ms(text_mail, args.games)}"),
        *worker_figures(workers, worker_pairs, targets, args.games),
        *(worker_figures(larger_workers, larger_pairs, targets, larger, measured=False) if larger else []),
        site_figure(site_whole, site_alone, targets["site_one_move_in_many_games_s"], args.site_games),
        ratio("mail batch: per mail / a CLI move", pairs["mail/cli"], targets["mail_vs_cli_move"],
              f"`pbem move` of the first game's move: {ms(cli_move)}; a mail draws its reader's picture (one in "
              f"three mails), composes three answers and parses a message, a CLI move does none of it"),
        ratio("  the same, pictures off", pairs["text mail/cli"], None,
              "the batch with PBEM_MAIL_PICTURES=0 against the same `pbem move`: the move and its answers, no picture"),
        ratio("pbem demo / the same game in memory", pairs["demo"], targets["demo_vs_playout"],
              f"demo: {ms(demo)}; in memory: {ms(in_memory)}; greedy bots at every seat, the very same game "
              f"(checked)"),
        ratio(f"pbem verify ({last} moves) / pbem move", pairs["verify"], targets["verify_vs_move"], ms(verify)),
    ]
    if git_verify:
        figures += [
            ratio(f"git verify: per commit at {git_counts['late']} / at 50", pairs["git per commit"],
                  targets["git_verify_per_commit_late_vs_early"],
                  f"late: {ms(git_verify['late'])}; early: {ms(git_verify['early'])} (`--rev` of those refereed "
                  f"commits)"),
            ratio(f"git verify ({git_counts['whole']} commits) / a move per 50", pairs["git whole"],
                  targets["git_verify_vs_move_per_50_commits"],
                  f"{ms(git_verify['whole'])}, the finished game (a clone: objects packed) against "
                  f"{git_counts['whole'] / 50:.1f} moves"),
            ratio("  the same in the referee's repository", pairs["git whole, loose"], None,
                  f"{ms(git_verify['loose'])}: its objects loose (as many files as objects)"),
        ]
    figures += picture_figures(costs, targets)
    everything = [click_only, click_yaml, move, status, moves, move_10, move_last, move_fr, move_zh, cli_move, mail,
                  text_mail, demo, in_memory, verify, *workers.values(), *larger_workers.values(), site_whole,
                  site_alone,
                  *(git_verify or {}).values()]
    peaks = {c.name: max(r.peak for r in c.runs) / 1024 for c in everything if c.runs}
    load = os.getloadavg()
    header = [f"pbem benchmarks — medians of paired ratios [their range]: {args.rounds} pairs of the short "
              f"commands, {args.long_rounds} of the mail batch, demo and verifies; load average {load[0]:.1f} at the "
              f"end",
              f"  Coal Baron, {len(PLAYERS)} players, phase cards: one game of {last} moves",
              f"  pictures: {PICTURES_SAID}"]
    notes = ["fsyncs a mail: counted in one more run of the batch (its os.fsync and os.fdatasync calls)"]
    return 0 if report(figures, peaks, targets["peak_memory_mib"], header, notes) else 1


if __name__ == "__main__":
    sys.exit(main())
