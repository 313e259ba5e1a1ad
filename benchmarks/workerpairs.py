"""Two workers against one on bench.py's mail batch, for two or more installs side by side: paired rounds, and where
a two-worker run's time goes (docs/performance.md, round seven).

    python benchmarks/workerpairs.py --rounds 12 main=/tmp/main-venv branch=/tmp/branch-venv

Each round runs, for each install in turn (the order rotating from round to round), `pbem mail inbox --maildir
--outbox --workers 1` then `--workers 2` on fresh copies of bench.py's batch (100 Gold Fever games, one move each,
pictures on; made once, by the install running this script), each copy made just before its run and all of them
removed at the end (removing one just before a run slows the next run's new files: round six). Each run goes
through a probe that times every fsync and fdatasync by the file it is for, and notes when the first worker starts
on its first mail (the run's serial part, by the clock; and by CPU, the run's before it forks its workers),
how many mails each worker handled and when each ended. Prefix the command with `chrt -f 1` where allowed: on a
machine other processes share, the clock says little otherwise (docs/performance.md, round six). The figures:
medians [interquartile range] of one worker's wall time over two workers', per install, and of each install's
ratio over the first install's, round by round.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import bench

# the probe: a pbem command (argv[1:]) with its fsyncs timed by file and its phases marked, written as JSON lines to
# PROBE_OUT at each process's end (the run's and each worker's)
PROBE = """import gc, json, os, resource, sys, time
gc.set_threshold(100_000, *gc.get_threshold()[1:])
synced, marks = {}, {}
def kind(fd):
    try:
        path = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "other"
    return next((k for k in ("journals", "bundle", ".txn", "ledger", "outbox") if k in path), "other")
def timed(call):
    def wrapper(fd):
        start = time.perf_counter()
        try:
            return call(fd)
        finally:
            total = synced.setdefault(kind(fd), [0.0, 0])
            total[0] += 1000 * (time.perf_counter() - start)
            total[1] += 1
    return wrapper
os.fsync, os.fdatasync = timed(os.fsync), timed(os.fdatasync)
def dump(role):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["PROBE_OUT"], "a") as out:
        out.write(json.dumps({"role": role, "synced": synced, "marks": marks,
                              "cpu": usage.ru_utime + usage.ru_stime}) + "\\n")
marks["start"] = time.monotonic()
from pbem.engine import parallel
report, worker, run = parallel._report, parallel._worker, parallel.run
def first_report(said):
    marks.setdefault("first claim", time.monotonic())
    if isinstance(said, tuple) and said[0] == "outcome":
        marks["mails"] = marks.get("mails", 0) + 1
    return report(said)
def probed_worker(work):
    synced.clear()
    marks.clear()
    try:
        return worker(work)
    finally:
        marks["end"] = time.monotonic()
        dump("worker")
def probed_run(*args):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    marks["fork cpu"] = usage.ru_utime + usage.ru_stime
    return run(*args)
parallel._report, parallel._worker, parallel.run = first_report, probed_worker, probed_run
import atexit
atexit.register(lambda: dump("run"))
from pbem.cli import console
sys.argv = ["pbem", *sys.argv[1:]]
console.run()
"""


def once(venv: Path, workers: int, batch: Path, copies: Path, probe: Path, number: int) -> dict:
    """One run of the batch with `workers` workers on a fresh copy: its wall and CPU time, fsync times by file,
    and when its first worker started on its mail (from the run's start)."""
    copy = copies / f"copy-{number}"
    shutil.copytree(batch, copy, symlinks=True)
    os.sync()
    out = copy / "probe.jsonl"
    command = [str(venv / "bin" / "python"), str(probe), "mail", "inbox", "--games", str(copy / "games"),
               "--maildir", str(copy / "inbox"), "--outbox", str(copy / "outbox"), "--now", bench.NOW,
               "--workers", str(workers)]
    done = bench.run(command, b"accepted", env={"PBEM_MAIL_PICTURES": "1", "PROBE_OUT": str(out)})
    said = [json.loads(line) for line in out.read_text().splitlines()]
    run_marks = next(s for s in said if s["role"] == "run")["marks"]
    start, workers = run_marks["start"], [s["marks"] for s in said if s["role"] == "worker"]
    claims = [marks["first claim"] - start for marks in workers if "first claim" in marks]
    ends, mails = [marks["end"] for marks in workers], [marks.get("mails", 0) for marks in workers]
    synced: dict[str, float] = {}
    for process in said:
        for kind, (ms, _) in process["synced"].items():
            synced[kind] = synced.get(kind, 0.0) + ms
    return {"wall": done.wall, "cpu": done.cpu, "synced": synced, "serial": min(claims) if claims else None,
            "serial cpu": run_marks.get("fork cpu"), "ends apart": max(ends) - min(ends) if ends else None,
            "mails apart": max(mails) - min(mails) if mails else None}


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"{statistics.median(ordered):.3f} [{ordered[len(ordered) // 4]:.3f}–"
            f"{ordered[(3 * len(ordered)) // 4]:.3f}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("installs", nargs="+", metavar="NAME=VENV", help="each install: a name and its venv")
    args = parser.parse_args()
    installs = {name: Path(venv) for name, venv in (item.split("=", 1) for item in args.installs)}
    with tempfile.TemporaryDirectory(prefix="workerpairs-") as root:
        batch, _ = bench.mail_batch(Path(root) / "mail", 100)
        probe, copies = Path(root) / "probe.py", Path(root) / "copies"
        probe.write_text(PROBE)
        copies.mkdir()
        numbers = iter(range(10 ** 6))
        for venv in installs.values():  # untimed: bytecode written
            once(venv, 1, batch, copies, probe, next(numbers))
        runs: dict[str, list[tuple[dict, dict]]] = {name: [] for name in installs}
        names = list(installs)
        for n in range(args.rounds):
            for name in names[n % len(names):] + names[:n % len(names)]:
                one = once(installs[name], 1, batch, copies, probe, next(numbers))
                two = once(installs[name], 2, batch, copies, probe, next(numbers))
                runs[name].append((one, two))
                print(f"round {n}, {name}: {one['wall'] / two['wall']:.3f} "
                      f"({one['wall']:.3f} s / {two['wall']:.3f} s)", file=sys.stderr, flush=True)
    for name, pairs in runs.items():
        print(f"{name}: 2 workers / 1 by the clock {spread([a['wall'] / b['wall'] for a, b in pairs])}; "
              f"one worker {spread([a['wall'] for a, _ in pairs])} s, two {spread([b['wall'] for _, b in pairs])} s; "
              f"CPU {spread([a['cpu'] for a, _ in pairs])} and {spread([b['cpu'] for _, b in pairs])} s; "
              f"first worker at its first mail {spread([b['serial'] for _, b in pairs])} s, the run's CPU before its "
              f"fork {spread([b['serial cpu'] for _, b in pairs])} s; the workers' ends apart "
              f"{spread([b['ends apart'] for _, b in pairs])} s, their mails apart "
              f"{spread([b['mails apart'] for _, b in pairs])}")
        for kind in sorted({kind for a, b in pairs for kind in (*a["synced"], *b["synced"])}):
            print(f"  fsyncs of {kind} (ms a batch): one worker {spread([a['synced'].get(kind, 0) for a, _ in pairs])}"
                  f", two {spread([b['synced'].get(kind, 0) for _, b in pairs])}")
    first = names[0]
    for name in names[1:]:
        rounds = list(zip(runs[first], runs[name]))
        ratios = [(b1["wall"] / b2["wall"]) / (a1["wall"] / a2["wall"]) for (a1, a2), (b1, b2) in rounds]
        print(f"{name} / {first}, round by round: 2 workers / 1 {spread(ratios)}; "
              f"two workers' wall {spread([b2['wall'] / a2['wall'] for (_, a2), (_, b2) in rounds])}")


if __name__ == "__main__":
    main()
