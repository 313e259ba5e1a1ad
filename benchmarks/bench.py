"""Performance benchmarks of pbem, measured side by side in one run and reported against benchmarks/targets.yaml.

    python benchmarks/bench.py [--game coal-baron] [--players 4] [--rounds 15]

1. One `pbem move` end to end (a new process, a signed move file, every file validated and written) on a
   mid-game state, against a bare `python -c "import click, yaml, jsonschema, tabulate"`: runs alternate, the
   ratio of medians is reported.
2. The cost of a move at move 10 against move 300 of the same game (ratio of medians).
3. The peak resident memory of one `pbem move` (the child's maxrss, from wait4).
Exit status 1 if a target is missed.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from pbem import bots, engine, movefile

HERE = Path(__file__).resolve().parent
PBEM = str(Path(sys.executable).with_name("pbem"))
BARE = [sys.executable, "-c", "import click, yaml, jsonschema, tabulate"]
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def patient_choice(legal: list[dict], rnd: random.Random) -> dict:
    """A bot that spends every work step before ending a turn (as players do), so games last past move 300."""
    return bots.choose([m for m in legal if m["action"] != "end"] or legal, rnd)


def play_to(directory: Path, move_number: int, rnd: random.Random) -> bool:
    """Play until the game is at `move_number`; False if it ended before."""
    gd = engine.open_game(directory)
    while True:
        env = engine.load_state(gd)
        pending = gd.game.rules.pending(env["state"])
        if env["move_number"] >= move_number or pending is None:
            return env["move_number"] >= move_number
        move = patient_choice(gd.game.rules.legal_moves(env["state"], pending["player"]), rnd)
        engine.submit(gd, pending["player"], [gd.game.format_move(move)], by="referee")


def next_move_file(directory: Path, secrets: dict, rnd: random.Random, target: Path) -> tuple[str, Path]:
    gd = engine.open_game(directory)
    env = engine.load_state(gd)
    player = gd.game.rules.pending(env["state"])["player"]
    move = bots.choose(gd.game.rules.legal_moves(env["state"], player), rnd)
    doc = movefile.build(gd.id, env["move_number"], player, [gd.game.format_move(move)], secrets[player])
    target.write_text(movefile.dumps(doc))
    return player, target


def run_timed(command: list[str]) -> tuple[float, int]:
    """Wall time and peak memory (KiB) of one child process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()}")
    process.stderr.close()
    return elapsed, usage.ru_maxrss


def time_move(snapshot: Path, work: Path, secrets: dict, rnd: random.Random) -> tuple[float, int]:
    """Copy the game (not timed), then time one `pbem move` on the copy."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(snapshot, work)
    player, path = next_move_file(work, secrets, rnd, work.parent / "move.yaml")
    return run_timed([PBEM, "move", str(work), "--as", player, str(path)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="coal-baron")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--mid", type=int, default=60, help="the move number of the mid-game state")
    parser.add_argument("--option", action="append", default=["phase-cards=on"],
                        help="game options (the phase-card variant makes Coal Baron games last past move 300)")
    args = parser.parse_args()
    targets = yaml.safe_load((HERE / "targets.yaml").read_text())
    rnd = random.Random(1)
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    try:
        games = {}
        for label, number in (("early", 10), ("mid", args.mid), ("late", 300)):
            for attempt in range(30):  # a random game may end early; take the first seed that gets there
                directory = root / f"bench-{label}-{attempt}"
                created = engine.create(args.game, directory, [(n, None) for n in NAMES[:args.players]],
                                        seed=f"bench-{attempt}", options=dict(o.split("=", 1) for o in args.option))
                if play_to(directory, number, random.Random(attempt)):
                    break
            else:
                raise SystemExit(f"no game of {args.game} reached move {number}")
            games[label] = (directory, {p["name"]: p["secret"] for p in created["players"]})
        bare, mid, early, late, memory = [], [], [], [], []
        for _ in range(args.rounds):  # alternate, so that machine noise hits every series alike
            bare.append(run_timed(BARE)[0])
            elapsed, peak = time_move(games["mid"][0], root / "work", games["mid"][1], rnd)
            mid.append(elapsed)
            memory.append(peak)
            early.append(time_move(games["early"][0], root / "work", games["early"][1], rnd)[0])
            late.append(time_move(games["late"][0], root / "work", games["late"][1], rnd)[0])
        ratio = statistics.median(mid) / statistics.median(bare)
        growth = statistics.median(late) / statistics.median(early)
        peak_mib = max(memory) / 1024
        rows = [
            ("pbem move (mid-game, %d players) / bare imports" % args.players, f"{ratio:.2f}",
             f"<= {targets['move_vs_bare_imports']['target']}", ratio <= targets["move_vs_bare_imports"]["target"],
             f"{statistics.median(mid) * 1000:.0f} ms vs {statistics.median(bare) * 1000:.0f} ms"),
            ("pbem move at move 300 / at move 10", f"{growth:.2f}", f"<= {targets['move_300_vs_move_10']['target']}",
             growth <= targets["move_300_vs_move_10"]["target"],
             f"{statistics.median(late) * 1000:.0f} ms vs {statistics.median(early) * 1000:.0f} ms"),
            ("peak memory of pbem move (MiB)", f"{peak_mib:.1f}", f"< {targets['peak_memory_mib']['target']}",
             peak_mib < targets["peak_memory_mib"]["target"], f"max of {len(memory)} runs"),
        ]
        print(f"pbem benchmarks — {args.game}, {args.players} players, {args.rounds} rounds, medians")
        width = max(len(r[0]) for r in rows)
        for name, value, target, ok, note in rows:
            print(f"  {name:<{width}}  {value:>6}  target {target:<7} {'ok' if ok else 'MISSED'}   ({note})")
        return 0 if all(r[3] for r in rows) else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
