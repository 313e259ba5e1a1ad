"""A club's league of real games: 200 (or --games) finished games of the four titles, each played to its end by
random bots through the referee (pbem.cli.demo's machinery: signed move files, the engine's files), then
`pbem league ROOT` over them. Measured against benchmarks/targets.yaml (`league_seconds`: the command's wall and
CPU time, the median of --rounds runs). Exit status 1 if the target is missed.

    python benchmarks/league.py [--games 200] [--rounds 5] [--keep DIR]

The tests' league of 200 games (tests/clock/test_clock_league.py) copies four bot-played games and shuffles their
rankings, which is cheap; this one plays every game, which takes minutes.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from pbem.cli import demo

TITLES = [("coal-baron", (2, 4)), ("gold-fever", (3, 5)), ("chartered", (2, 6)), ("heartland-hauling", (2, 4))]
PBEM = str(Path(sys.executable).with_name("pbem"))


def play(root: Path, count: int) -> None:
    """`count` finished games, the titles and player counts in turn, each ending a minute after the last."""
    for number in range(count):
        kind, (least, most) = TITLES[number % len(TITLES)]
        players = least + (number // len(TITLES)) % (most - least + 1)
        directory = root / f"g{number:03d}"
        if not (directory / "public.yaml").exists():
            demo.run(kind, players, f"league-{number}", {}, directory, 0, lambda *_: None, bot="random")
        os.utime(directory / "public.yaml", (1_700_000_000 + 60 * number,) * 2)


def timed(root: Path) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run([PBEM, "league", str(root), "--format", "json"], capture_output=True, check=True).stdout
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out.decode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="play the games here (kept, and reused by the next run)")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="pbem-league-"))
    root.mkdir(parents=True, exist_ok=True)
    print(f"playing {args.games} games by bots in {root} ...", file=sys.stderr)
    play(root, args.games)
    runs = [timed(root) for _ in range(args.rounds)]
    wall, cpu = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
    import json
    data = json.loads(runs[0][2])
    target = yaml.safe_load((Path(__file__).with_name("targets.yaml")).read_text())["league_seconds"]["target"]
    print(f"pbem league: {data['games']} games, {len(data['titles'])} titles, "
          f"{len(data['overall']['standings'])} players, {len(data['skipped'])} skipped; "
          f"median {wall:.2f} s wall, {cpu:.2f} s CPU (target {target} s)")
    return 0 if data["games"] >= args.games and max(wall, cpu) <= target else 1


if __name__ == "__main__":
    sys.exit(main())
