"""A mail batch's journal fdatasync, as main wrote it (a new file, each line appended) against as pbem.mail.ledger
writes it now (its blocks written with zeros once, each line written over them), in one process or in two at once
as two workers, each mail also rewriting a 40 KB bundle in place with its fsync (docs/performance.md, round seven).

    chrt -f 1 python benchmarks/journalsync.py --rounds 30 --processes 2

Paired rounds, the two ways alternating; each round gives the fdatasync time of all the processes' journal lines
together (50 a process, as a worker's share of bench.py's batch). Prints the medians [interquartile range] and the
median of the paired ratios.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

LINE = (b'{"game": "gf012", "message_id": "<bench.12@players.example>", "move_number": 1, "player": "ann", '
        b'"source": "maildir:1796488848.M349552P17964Q4.vm", "state": "pending", '
        b'"time": "2026-12-05T17:00:00+00:00"}\n')  # a pending record as the ledger writes one (~250 bytes)
LINES = 50  # a worker's share of bench.py's batch: one pending record a mail
FIRST_SIZE = 16 * 1024  # pbem.mail.ledger.JOURNAL_BYTES


def journal(folder: str, in_place: bool) -> float:
    """A batch's journal lines, each fdatasynced, and a bundle rewritten after each: the seconds of the fdatasyncs."""
    bundle = os.open(os.path.join(folder, f"bundle-{os.getpid()}"), os.O_RDWR | os.O_CREAT, 0o600)
    os.pwrite(bundle, os.urandom(40960), 0)
    os.fsync(bundle)
    path = os.path.join(folder, f"{os.getpid()}-{time.monotonic_ns()}.log")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | (0 if in_place else os.O_APPEND), 0o600)
    at = size = 0
    took = 0.0
    for _ in range(LINES):
        start = time.perf_counter()
        if in_place:
            if at + len(LINE) > size:
                grown = max(2 * size, FIRST_SIZE)
                os.pwrite(fd, bytes(grown - size), size)
                size = grown
            os.pwrite(fd, LINE, at)
            at += len(LINE)
        else:
            os.write(fd, LINE)
        os.fdatasync(fd)
        took += time.perf_counter() - start
        os.pwrite(bundle, os.urandom(40960), 0)
        os.fsync(bundle)
    os.close(fd)
    os.unlink(path)
    os.close(bundle)
    return took


def one_round(folder: str, in_place: bool, processes: int) -> float:
    """The journal fdatasyncs of `processes` processes at once, in milliseconds together."""
    read, write = os.pipe()
    children = []
    for _ in range(processes):
        pid = os.fork()
        if pid == 0:
            os.close(read)
            os.write(write, f"{journal(folder, in_place)}\n".encode())
            os._exit(0)
        children.append(pid)
    os.close(write)
    for pid in children:
        os.waitpid(pid, 0)
    said = b"".join(iter(lambda: os.read(read, 4096), b""))
    os.close(read)
    return 1000 * sum(float(seconds) for seconds in said.split())


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered):.2f} [{ordered[len(ordered) // 4]:.2f}–{ordered[(3 * len(ordered)) // 4]:.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--folder", help="where the files go (default: a new folder in the system's temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        one_round(folder, False, args.processes)  # untimed: the folder's blocks
        appended, in_place = [], []
        for n in range(args.rounds):
            for way in ((False, True) if n % 2 == 0 else (True, False)):
                (in_place if way else appended).append(one_round(folder, way, args.processes))
    lines = LINES * args.processes
    print(f"{args.processes} process(es), {lines} journal lines a round, fdatasync ms a round: appended to a new file "
          f"{spread(appended)}, written in place {spread(in_place)}; in place / appended, paired: "
          f"{spread([b / a for a, b in zip(appended, in_place)])} ({args.rounds} pairs)")


if __name__ == "__main__":
    main()
