"""Work over many games shared out among worker processes (`pbem mail inbox --workers N`, `pbem tick --workers N`):
the work of one game always goes to one worker, in the order it was given, and the workers run side by side.

A worker is a fork of the process that shares the work out: it starts with everything that process has read and
imported, at no cost of its own, and tells it what it did through a pipe as it goes (`report`). Each game is
still written under its own lock, and everything a worker does is one of the transactions a single process would
make, so a worker that dies (killed, out of memory) loses or doubles nothing the locks and transactions do not
already keep: the process that shares the work out is told it stopped (`Stopped`), and says which work was left.
"""
from __future__ import annotations

import os
from typing import Callable, Hashable, Iterator

class Stopped:
    """A worker ended without finishing its share: its exit code (negative: the signal that killed it) and what it
    said of why, if it could."""

    def __init__(self, code: int | None, why: str | None = None):
        self.code, self.why = code, why

    def text(self) -> str:
        if self.why:
            return self.why
        if self.code is not None and self.code < 0:
            return f"its worker process was killed (signal {-self.code})"
        return f"its worker process stopped (exit status {self.code})"


class Failed:
    """What a worker reports when its work raised: the error, said for the command's output."""

    def __init__(self, why: str):
        self.why = why


def cores() -> int:
    """The processor cores this process may run on (the default number of workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def partition(keys: list[Hashable], workers: int) -> list[list[int]]:
    """The indices of `keys` shared among at most `workers` workers: all the indices of one key go to one worker,
    each share in the order of the indices. The largest groups are placed first, each on the share with the fewest
    indices so far, so the workers finish at about the same time."""
    groups: dict[Hashable, list[int]] = {}
    for index, key in enumerate(keys):
        groups.setdefault(key, []).append(index)
    shares: list[list[int]] = [[] for _ in range(max(1, min(workers, len(groups))))]
    for indices in sorted(groups.values(), key=lambda group: (-len(group), group[0])):
        min(shares, key=len).extend(indices)
    return [sorted(share) for share in shares if share]


def run(shares: list[list[int]], work: Callable[[list[int], Callable[[object], None]], None]
        ) -> Iterator[tuple[int, object]]:
    """Fork a worker for each share, which calls `work(share, report)`; yields (the worker's number, what it
    reported) as the reports come, and for a worker that did not end well, last, (its number, Stopped)."""
    import multiprocessing
    from multiprocessing.connection import wait
    context = multiprocessing.get_context("fork")  # a worker starts from this process's memory: nothing to load
    readers, failures = {}, {}
    try:
        for number, share in enumerate(shares):
            receiver, sender = context.Pipe(duplex=False)
            worker = context.Process(target=_worker, args=(work, share, sender), name=f"pbem worker {number + 1}")
            worker.start()
            sender.close()
            readers[receiver] = (number, worker)
        while readers:
            for receiver in wait(list(readers)):
                number, worker = readers[receiver]
                try:
                    said = receiver.recv()
                except EOFError:  # the worker is gone
                    receiver.close()
                    del readers[receiver]
                    worker.join()
                    if worker.exitcode != 0:
                        yield number, Stopped(worker.exitcode, failures.get(number))
                    continue
                if isinstance(said, Failed):
                    failures[number] = said.why
                    continue
                yield number, said
    finally:  # left early: each worker still ends its share (its work under way is never cut), heard to its end
        for receiver, (_, worker) in readers.items():
            _drain(receiver)
            worker.join()


def _drain(receiver) -> None:
    try:
        while True:
            receiver.recv()
    except (EOFError, OSError):
        receiver.close()


def _worker(work, share: list[int], sender) -> None:
    """A worker's life: its share done, every report sent; trouble is reported (not a traceback) and ends it."""
    try:
        work(share, sender.send)
    except BaseException as exc:  # noqa: BLE001 — said to the parent, which tells the user; the worker ends
        try:
            sender.send(Failed(f"its worker stopped: {type(exc).__name__}: {exc}"))
        finally:
            os._exit(1)
    sender.close()
