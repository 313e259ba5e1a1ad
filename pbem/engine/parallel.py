"""Work over many games shared out among worker processes (`pbem mail inbox --workers N`, `pbem tick --workers N`):
the work of one game always goes to one worker, in the order it was given, and the workers run side by side.

A worker is a fork of the process that shares the work out: it starts with everything that process has read and
imported, at no cost of its own, and tells it what it did through a pipe as it goes (`report`). Each game is
still written under its own lock, and everything a worker does is one of the transactions a single process would
make, so a worker that dies (killed, out of memory) loses or doubles nothing the locks and transactions do not
already keep: the process that shares the work out is told it stopped (`Stopped`), and says which work was left.
`beside` runs work that only reads (the mail's parsing) in a fork while the process goes on with its own.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import sys
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
    reports come, and for a worker that did not end well, last, (its number, Stopped).

    Plain os.fork and a pipe a worker, not multiprocessing (whose import alone is ~24 M instructions of the run's
    serial part), and the run reads all a worker has said at each wake-up, waking at most every PAUSE_MS while
    they work (not at each report: a worker says three things a mail, and each wake-up of the run takes a core
    from a worker) and at once when one ends."""
    import pickle  # noqa: F401 — here, not at a command's start: imported once, before the fork, for the workers too
    tickets, per_ticket = _tickets(len(work_groups))
    heard: dict[int, _Heard] = {}  # by the read end of its pipe
    try:
        with _frozen():
            for number in range(min(workers, len(work_groups))):
                heard_from = _fork(number, lambda: work(_claims(work_groups, tickets, per_ticket), _report), heard)
                heard[heard_from.fd] = heard_from
        os.close(tickets)
        tickets = None
        listening, ends = select.poll(), select.poll()
        for fd in heard:
            listening.register(fd, select.POLLIN)
            ends.register(fd, 0)  # its pipe hung up (the worker ended) only
        while heard:
            for fd, _ in listening.poll():
                worker = heard[fd]
                for said in worker.read():
                    if isinstance(said, Failed):
                        worker.why = said.why
                    elif isinstance(said, Claimed):
                        worker.taken += said.indices
                    else:
                        yield worker.number, said
                if worker.ended:
                    listening.unregister(fd)
                    ends.unregister(fd)
                    del heard[fd]
                    code = worker.wait()
                    if code != 0:
                        yield worker.number, Stopped(code, worker.why, worker.taken)
            if heard:  # what the workers say meanwhile waits in their pipes, read at the next wake-up; an end wakes
                ends.poll(PAUSE_MS)  # the run at once
    finally:  # left early: each worker still ends its work (its work under way is never cut), heard to its end
        if tickets is not None:
            os.close(tickets)
        for worker in heard.values():
            while not worker.ended:
                worker.read()
            worker.wait()


@contextlib.contextmanager
def _frozen():
    """Every object of the run out of its garbage collector's sight while it forks its workers (gc.freeze): a
    worker's collections then never walk what it inherited, whose every object header they would write, so copy,
    page by page (a long batch collects every 100,000 allocations: docs/performance.md, round eight). The run sees
    them again once its workers are forked."""
    import gc
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


class _Heard:
    """The run's side of one worker: its process, the read end of its pipe, what it said in part."""

    def __init__(self, number: int, pid: int, fd: int):
        self.number, self.pid, self.fd = number, pid, fd
        self.why: str | None = None
        self.taken: list[int] = []
        self.ended = False
        self._bytes = b""

    def read(self) -> list[object]:
        """What the worker said since the last read, every report it has written whole; `ended` once it closed its
        end (exited or killed)."""
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            self.ended = True
            os.close(self.fd)
        self._bytes += chunk
        import pickle
        said, at = [], 0
        while len(self._bytes) - at >= LENGTH:
            size = int.from_bytes(self._bytes[at:at + LENGTH], "big")
            if len(self._bytes) - at - LENGTH < size:
                break
            said.append(pickle.loads(self._bytes[at + LENGTH:at + LENGTH + size]))
            at += LENGTH + size
        self._bytes = self._bytes[at:]
        return said

    def wait(self) -> int:
        """The worker's exit code, once it is gone (negative: the signal that killed it)."""
        return os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])


LENGTH = 4  # bytes: a report's length, before its pickle
PAUSE_MS = 50  # the least time between two wake-ups of the run by its workers' reports (a pipe holds 64 KiB of them)


def _fork(number: int, work: Callable[[], None], heard: dict[int, _Heard]) -> _Heard:
    """Start worker `number`, doing `work` with its reports going into a pipe of its own (`_report`)."""
    pid, read, write = _fork_with_pipe()
    if pid == 0:  # the worker: it never returns from here
        code = 1
        try:
            os.close(read)
            for fd in heard:  # the other workers' pipes are the run's to read
                os.close(fd)
            _Reporter.fd = write
            code = _worker(work)
        finally:
            os._exit(code)
    os.close(write)
    return _Heard(number, pid, read)


class _Reporter:
    """Where a worker's reports go: the write end of its pipe (set in the worker, once forked)."""

    fd: int = -1


def _report(said: object) -> None:
    """A worker's report to the run, written whole into its pipe (the run reads as they come)."""
    import pickle
    data = pickle.dumps(said, pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(LENGTH, "big") + data)
    while view:
        view = view[os.write(_Reporter.fd, view):]


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


def _claims(work_groups: list[list[int]], tickets: int, per_ticket: int) -> Iterator[int]:
    """The indices of the groups a worker takes, a ticket at a time, the parent told of each ticket first."""
    while len(ticket := os.read(tickets, TICKET)) == TICKET:
        first = int.from_bytes(ticket, "big")
        indices = [index for group in work_groups[first:first + per_ticket] for index in group]
        _report(Claimed(indices))
        yield from indices


def _worker(work: Callable[[], None]) -> int:
    """A worker's life: the groups it takes done, every report sent; trouble is reported (not a traceback) and ends
    it. Its exit code."""
    try:
        work()
    except BaseException as exc:  # noqa: BLE001 — said to the parent, which tells the user; the worker ends
        with contextlib.suppress(BaseException):
            _report(Failed(f"its worker stopped: {type(exc).__name__}: {exc}"))
        return 1
    _flush_output()
    return 0


class Beside:
    """A value being computed in a process of its own (`beside`), while this one works on."""

    def __init__(self, pid: int, fd: int):
        self.pid, self.fd = pid, fd

    def result(self) -> object | None:
        """The value, once the process has given it and ended; None if it could not (the caller computes it)."""
        import pickle
        data = b"".join(iter(lambda: os.read(self.fd, 1 << 20), b""))
        os.close(self.fd)
        self.fd = None
        code = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        try:
            return pickle.loads(data) if code == 0 else None
        except Exception:  # noqa: BLE001 — cut short: computed again by the caller
            return None

    def end(self) -> None:
        """Its process ended and waited for, if its value was not taken (the caller stopped: it is not needed)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)


def beside(compute: Callable[[], object]) -> Beside:
    """`compute()` run in a fork of this process while this one goes on: for work that only reads, on a core that
    would wait meanwhile. Its value comes back pickled through a pipe."""
    import pickle
    pid, read, write = _fork_with_pipe()
    if pid == 0:  # never returns from here
        code = 1
        try:
            os.close(read)
            view = memoryview(pickle.dumps(compute(), pickle.HIGHEST_PROTOCOL))
            while view:
                view = view[os.write(write, view):]
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    return Beside(pid, read)


def _fork_with_pipe() -> tuple[int, int, int]:
    """A pipe, then a fork of this process: (the fork's pid, 0 in the fork; the pipe's read end; its write end),
    both ends open in both processes. What is buffered is written first, once, not once more by the fork."""
    read, write = os.pipe()
    _flush_output()
    try:
        pid = os.fork()
    except BaseException:
        os.close(read)
        os.close(write)
        raise
    return pid, read, write


def _flush_output() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # closed or gone: nothing of it to write
            stream.flush()
