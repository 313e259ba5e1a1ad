"""Performance benchmarks of pbem, measured side by side in one run and reported against benchmarks/targets.yaml.

    python benchmarks/bench.py [--rounds 15] [--games 100]

Every figure is a ratio of medians (or a rate, or a size) of real processes: CPU time is the child's user + system
time from wait4's resource usage, wall time is measured around it, and the peak memory is the child's maxrss.
Runs alternate, so machine noise hits every series alike; on a shared machine, judge by the ratios.

- the yardstick: `python -c "import click, yaml"`, what every pbem command must import;
- `pbem move`, `pbem status --as P` and `pbem moves --as P` on a mid-game 4-player Coal Baron state;
- one whole game (Coal Baron, 4 players, the phase cards, a bot that spends every work step): a move at its move
  10 against its last move;
- a batch of mail: 100 Gold Fever games with one move waiting for each in a Maildir, `pbem mail inbox --maildir
  ... --outbox ...`: moves per second, and CPU per mail against a `pbem move` of the same position;
- `pbem demo coal-baron --players 4` against the same game played in memory (pbem.playout), both as processes;
- `pbem verify` of that whole game against one `pbem move`;
- the peak memory of every command.

Every copy made for a run is flushed to disk (os.sync) before the run: a game's files are on disk when a move
comes, its last move was long ago (a copy just made would leave them for the move's first fsync to write).
Each pbem command is first run once untimed, so Python's bytecode cache is written (the children run without
PYTHONDONTWRITEBYTECODE). Exit status 1 if a target is missed. The last lines are a block the README quotes.
"""
from __future__ import annotations

import argparse
import email.policy
import email.utils
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

import yaml

from pbem import bots, correspondence, engine, movefile

HERE = Path(__file__).resolve().parent
PYTHON = sys.executable
PBEM = str(Path(sys.executable).with_name("pbem"))
YARDSTICK = [PYTHON, "-c", "import click, yaml"]
PLAYERS = ["alice", "bob", "carol", "dave"]
GAME, OPTIONS, SEED = "coal-baron", {"phase-cards": "on"}, "bench"
MID = 100
NOW = "2026-01-05T10:00:00Z"
CHILD_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Series:
    """The CPU and wall times (s) and peak memories (KiB) of one command's runs."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    peak: list[int] = field(default_factory=list)

    def cpu_ms(self) -> float:
        return statistics.median(self.cpu) * 1000

    def wall_ms(self) -> float:
        return statistics.median(self.wall) * 1000


def run(command: list[str], series: Series | None = None, expect: bytes | None = None) -> bytes:
    """Run one child and add its CPU time, wall time and peak memory to `series`; its output goes to files (read
    afterwards), so that wait4 reaps it and gives its resource usage. A failure stops the benchmark."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=CHILD_ENV)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        output, errors = out.read(), err.read()
    if code != 0 or (expect is not None and expect not in output):
        raise SystemExit(f"{' '.join(command)} failed ({code}): {(errors or output).decode()[-2000:]}")
    if series is not None:
        series.cpu.append(usage.ru_utime + usage.ru_stime)
        series.wall.append(elapsed)
        series.peak.append(usage.ru_maxrss)
    return output


# ---------------------------------------------------------------- the games measured

def patient_choice(legal: list[dict], rnd: random.Random) -> dict:
    """A bot that spends every work step before ending a turn (as players do), so a game lasts long."""
    return bots.choose([m for m in legal if m["action"] != "end"] or legal, rnd)


def whole_game(directory: Path) -> list[tuple[str, str]]:
    """Play a whole game in `directory` (one decision a turn, by the patient bot); its turns (player, move)."""
    correspondence.create(GAME, directory, [(name, None) for name in PLAYERS], seed=SEED, options=OPTIONS)
    gd, rnd, turns = engine.open_game(directory), random.Random(SEED), []
    with engine.session(gd) as table:
        while (pending := gd.game.rules.pending(table.state)) is not None:
            move = gd.game.format_move(patient_choice(gd.game.rules.legal_moves(table.state, pending["player"]),
                                                      rnd))
            table.submit(pending["player"], [move], by="referee")
            turns.append((pending["player"], move))
        table.write()
    return turns


@dataclass
class Position:
    """A game directory saved just before a move, and that move as a signed move file."""

    snapshot: Path
    player: str
    move_file: Path

    def move_command(self, work: Path) -> list[str]:
        """Copy the game to `work` (its name is the game id), then the command that plays the move there."""
        target = work / self.snapshot.name
        if target.exists():
            shutil.rmtree(target)
        work.mkdir(parents=True, exist_ok=True)
        shutil.copytree(self.snapshot, target, symlinks=True)
        os.sync()  # on disk, as a game's files are when a move comes: its last move was long ago
        return [PBEM, "move", str(target), "--as", self.player, str(self.move_file)]


def positions(root: Path, turns: list[tuple[str, str]], numbers: list[int]) -> dict[int, Position]:
    """The same game again, saved before each of the moves `numbers` (with that move signed)."""
    directory = root / "replayed" / SEED
    created = correspondence.create(GAME, directory, [(name, None) for name in PLAYERS], seed=SEED, options=OPTIONS)
    secrets = {p["name"]: p["secret"] for p in created["players"]}
    gd, saved = engine.open_game(directory), {}
    with engine.session(gd) as table:
        for player, move in turns:
            number = table.move_number
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
    (root.parent / "cli").mkdir()
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
            snapshot = root.parent / "cli" / game_id
            shutil.copytree(root / "games" / game_id, snapshot, symlinks=True)
            move_file = root.parent / "cli" / "move.yaml"
            move_file.write_text(movefile.dumps(movefile.build(game_id, env["move_number"], player, [move],
                                                               secrets[player])))
            first = Position(snapshot, player, move_file)
    return root, first


# ---------------------------------------------------------------- report

@dataclass
class Figure:
    name: str
    cpu: float          # the ratio (or rate) by CPU time
    wall: float         # by wall time
    target: float
    at_least: bool      # a rate: the figure must reach the target
    detail: str

    def ok(self) -> bool:
        if self.at_least:
            return self.cpu >= self.target and self.wall >= self.target
        return self.cpu <= self.target and self.wall <= self.target


def ratio(name: str, mine: Series, other: Series, target: float, detail: str = "") -> Figure:
    return Figure(name, mine.cpu_ms() / other.cpu_ms(), mine.wall_ms() / other.wall_ms(), target, False,
                  detail or f"{mine.cpu_ms():.0f} / {other.cpu_ms():.0f} ms CPU, "
                            f"{mine.wall_ms():.0f} / {other.wall_ms():.0f} ms wall")


def report(figures: list[Figure], peaks: dict[str, float], memory_target: float, header: str) -> bool:
    width = max(len(f.name) for f in figures)
    lines = [header, f"  {'':<{width}}   CPU    wall   target"]
    for f in figures:
        sign = ">=" if f.at_least else "<="
        lines.append(f"  {f.name:<{width}}  {f.cpu:5.2f}  {f.wall:6.2f}   {sign} {f.target:<5g} "
                     f"{'ok' if f.ok() else 'MISSED'}   ({f.detail})")
    peak_name, peak = max(peaks.items(), key=lambda item: item[1])
    memory_ok = peak < memory_target
    lines.append(f"  {'peak memory of every command (MiB)':<{width}}  {peak:5.1f}           < {memory_target:<5g} "
                 f"{'ok' if memory_ok else 'MISSED'}   (the largest: {peak_name})")
    print("\n".join(lines))
    return memory_ok and all(f.ok() for f in figures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="runs of each short command (medians)")
    parser.add_argument("--long-rounds", type=int, default=5, help="runs of the mail batch, the demo and verify")
    parser.add_argument("--games", type=int, default=100, help="games in the mail batch")
    args = parser.parse_args()
    targets = {key: value["target"] for key, value in yaml.safe_load((HERE / "targets.yaml").read_text()).items()}
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    started_in = os.getcwd()
    # the children start in the scratch folder: a `python -c` started in a source checkout would import the
    # checkout's pbem/ (which has no pbem.games) instead of the installed one
    os.chdir(root)
    try:
        print("setting up: a whole game of Coal Baron, the mail batch ...", file=sys.stderr)
        turns = whole_game(root / "whole" / SEED)
        finished = root / "whole" / SEED
        last = len(turns)
        at = positions(root, turns, [10, MID, last])
        batch, cli_position = mail_batch(root / "mail", args.games)
        work = root / "work"
        status = [PBEM, "status", str(at[MID].snapshot), "--as", PLAYERS[0]]
        moves = [PBEM, "moves", str(at[MID].snapshot), "--as", PLAYERS[0]]
        verify = [PBEM, "verify", str(finished)]
        demo = [PBEM, "demo", GAME, "--players", str(len(PLAYERS)), "--seed", SEED]
        playout = [PYTHON, "-c", f"from pbem import playout, registry; playout.play(registry.get({GAME!r}), "
                                 f"{PLAYERS!r}, seed={SEED!r}, bot_seed={SEED!r}, game_id='demo-{GAME}')"]

        def inbox() -> list[str]:
            copy = root / "mailwork"
            if copy.exists():
                shutil.rmtree(copy)
            shutil.copytree(batch, copy, symlinks=True)
            os.sync()  # on disk, as a game's files are when a mail comes: its last move was long ago
            return [PBEM, "mail", "inbox", "--games", str(copy / "games"), "--maildir", str(copy / "inbox"),
                    "--outbox", str(copy / "outbox"), "--now", NOW]

        for command in (YARDSTICK, status, moves, verify):  # bytecode caches written, files in the page cache
            run(command, None, None)
        run(at[MID].move_command(work), None, b"Accepted")

        s = {name: Series() for name in ("yardstick", "move", "status", "moves", "move 10", "last move",
                                         "cli move", "inbox", "demo", "playout", "verify")}
        print(f"measuring: {args.rounds} rounds ...", file=sys.stderr)
        for round_number in range(args.rounds):
            run(YARDSTICK, s["yardstick"])
            run(at[MID].move_command(work), s["move"], b"Accepted")
            run(status, s["status"])
            run(moves, s["moves"])
            run(at[10].move_command(work), s["move 10"], b"Accepted")
            run(at[last].move_command(work), s["last move"], b"Accepted")
            run(cli_position.move_command(work), s["cli move"], b"Accepted")
            if round_number < args.long_rounds:
                run(inbox(), s["inbox"], b"accepted")
                run(demo, s["demo"], b"Verified")
                run(playout, s["playout"])
                run(verify, s["verify"], b"verified")
        games = args.games
        per_mail = Series([c / games for c in s["inbox"].cpu], [w / games for w in s["inbox"].wall])
        mail_rate = Figure("mail batch: moves per second", games / statistics.median(s["inbox"].cpu),
                           games / statistics.median(s["inbox"].wall), targets["mail_moves_per_second"], True,
                           f"{games} Gold Fever games, one move each; by CPU and by wall time")
        figures = [
            ratio("pbem move (move 100) / yardstick", s["move"], s["yardstick"], targets["move_vs_yardstick"]),
            ratio("pbem status --as P / yardstick", s["status"], s["yardstick"], targets["status_vs_yardstick"]),
            ratio("pbem moves --as P / yardstick", s["moves"], s["yardstick"], targets["moves_vs_yardstick"]),
            ratio(f"move {last} (the last) / move 10", s["last move"], s["move 10"],
                  targets["last_move_vs_move_10"]),
            mail_rate,
            ratio("mail batch: per mail / a CLI move", per_mail, s["cli move"], targets["mail_vs_cli_move"],
                  f"{per_mail.cpu_ms():.1f} / {s['cli move'].cpu_ms():.0f} ms CPU, "
                  f"{per_mail.wall_ms():.1f} / {s['cli move'].wall_ms():.0f} ms wall"),
            ratio("pbem demo / the same game in memory", s["demo"], s["playout"], targets["demo_vs_playout"]),
            ratio(f"pbem verify ({last} moves) / pbem move", s["verify"], s["move"], targets["verify_vs_move"]),
        ]
        peaks = {name: max(series.peak) / 1024 for name, series in s.items() if series.peak}
        header = (f"pbem benchmarks — {args.rounds} rounds ({args.long_rounds} of the batch, demo and verify), "
                  f"medians; yardstick `python -c \"import click, yaml\"`: {s['yardstick'].cpu_ms():.0f} ms CPU, "
                  f"{s['yardstick'].wall_ms():.0f} ms wall\n"
                  f"  Coal Baron, {len(PLAYERS)} players, phase cards: one game of {last} moves")
        return 0 if report(figures, peaks, targets["peak_memory_mib"], header) else 1
    finally:
        os.chdir(started_in)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
