"""Work over many games shared out among worker processes (`pbem mail inbox --workers N`, `pbem tick --workers N`):
the work of one game always goes to one worker, in the order it was given, and the workers run side by side.

A worker is a fork of the process that shares the work out: it starts with everything that process has read and
imported, at no cost of its own, and tells it what it did through a pipe as it goes (`report`). Each game is
still written under its own lock, and everything a worker does is one of the transactions a single process would
make, so a worker that dies (killed, out of memory) loses or doubles nothing the locks and transactions do not
already keep: the process that shares the work out is told it stopped (`Stopped`), and says which work was left.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
from typing import Callable, Hashable, Iterator


class Stopped:
    """A worker ended before its work was done: its exit code (negative: the signal that killed it), what it said of
    why, if it could, and the indices of the groups it had taken."""

    def __init__(self, code: int | None, why: str | None = None, taken: list[int] | None = None):
        self.code, self.why = code, why
        self.taken = taken or []  # some may be done

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


def groups(keys: list[Hashable]) -> list[list[int]]:
    """The indices of `keys` grouped by key, each group in the order of its indices: the work of one game, which
    one worker does in order. The largest groups first, so that the last ones taken are small and the workers end
    at about the same time."""
    found: dict[Hashable, list[int]] = {}
    for index, key in enumerate(keys):
        found.setdefault(key, []).append(index)
    return sorted(found.values(), key=lambda group: (-len(group), group[0]))


def run(work_groups: list[list[int]], workers: int,
        work: Callable[[Iterator[int], Callable[[object], None]], None]) -> Iterator[tuple[int, object]]:
    """Fork `workers` workers (no more than there are groups), each of which calls `work(indices, report)`:
    `indices` gives the indices of one group after another, each the next group no worker has taken yet, so a worker
    slowed down (a costlier game, a busy core) takes fewer. Yields (the worker's number, what it reported) as the
    reports come, and for a worker that did not end well, last, (its number, Stopped)."""
    import multiprocessing
    from multiprocessing.connection import wait
    context = multiprocessing.get_context("fork")  # a worker starts from this process's memory: nothing to load
    tickets, per_ticket = _tickets(len(work_groups))
    readers, failures, taken = {}, {}, {}
    try:
        for number in range(min(workers, len(work_groups))):
            receiver, sender = context.Pipe(duplex=False)
            claims = _claims(work_groups, tickets, per_ticket, sender)
            worker = context.Process(target=_worker, args=(work, claims, sender), name=f"pbem worker {number + 1}")
            worker.start()
            sender.close()
            readers[receiver] = (number, worker)
            taken[number] = []
        os.close(tickets)
        tickets = None
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
                        yield number, Stopped(worker.exitcode, failures.get(number), taken[number])
                    continue
                if isinstance(said, Failed):
                    failures[number] = said.why
                elif isinstance(said, Claimed):
                    taken[number] += said.indices
                else:
                    yield number, said
    finally:  # left early: each worker still ends its work (its work under way is never cut), heard to its end
        if tickets is not None:
            os.close(tickets)
        for receiver, (_, worker) in readers.items():
            _drain(receiver)
            worker.join()


class Claimed:
    """What a worker says before it starts on a group: the indices it took (a dead worker's are told left)."""

    def __init__(self, indices: list[int]):
        self.indices = indices


TICKET = 4  # bytes: a ticket is a group's number (the first of the groups it stands for)


def _tickets(count: int) -> tuple[int, int]:
    """A pipe holding one ticket per group (or per run of groups, when there are more groups than the pipe holds):
    the read end, and how many groups a ticket stands for. The workers share it: a read of TICKET bytes takes one
    ticket whole, and the kernel gives each ticket to one worker only; a worker killed holds no lock."""
    read, write = os.pipe()
    try:
        capacity = 4096  # what any system's pipe holds
        if hasattr(fcntl, "F_SETPIPE_SZ"):  # Linux: made big enough for every ticket where it may be, and asked
            with contextlib.suppress(OSError):
                fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, count * TICKET)
            capacity = fcntl.fcntl(write, fcntl.F_GETPIPE_SZ)
        per_ticket = -(-count * TICKET // capacity) if count * TICKET > capacity else 1
        os.write(write, b"".join(first.to_bytes(TICKET, "big") for first in range(0, count, per_ticket)))
    except BaseException:
        os.close(read)
        raise
    finally:
        os.close(write)  # read to its end, the pipe says so: no ticket left
    return read, per_ticket


def _claims(work_groups: list[list[int]], tickets: int, per_ticket: int, sender) -> Iterator[int]:
    """The indices of the groups a worker takes, a ticket at a time, the parent told of each ticket first."""
    while len(ticket := os.read(tickets, TICKET)) == TICKET:
        first = int.from_bytes(ticket, "big")
        indices = [index for group in work_groups[first:first + per_ticket] for index in group]
        sender.send(Claimed(indices))
        yield from indices


def _drain(receiver) -> None:
    try:
        while True:
            receiver.recv()
    except (EOFError, OSError):
        receiver.close()


def _worker(work, claims: Iterator[int], sender) -> None:
    """A worker's life: the groups it takes done, every report sent; trouble is reported (not a traceback) and ends
    it."""
    try:
        work(claims, sender.send)
    except BaseException as exc:  # noqa: BLE001 — said to the parent, which tells the user; the worker ends
        try:
            sender.send(Failed(f"its worker stopped: {type(exc).__name__}: {exc}"))
        finally:
            os._exit(1)
    sender.close()
