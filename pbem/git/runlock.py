"""One process at a time for a piece of work (the referee's run of a game): the others leave it a request and
return, and the process holding the lock answers every request before it stops.
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path

from ..contract import PbemError


def one_at_a_time(lock: Path, work) -> list:
    """Run `work` unless another process runs it for the same `lock`: then leave a request (LOCK.pending) for that
    one and return []. The process that holds the lock runs `work` again while requests came meanwhile, and
    checks once more after letting go, so no request is ever left unanswered. Returns what each round gave."""
    request = lock.with_name(lock.name + ".pending")
    _touch(request)
    done = []
    while True:
        fd = _try_lock(lock.with_name(lock.name + ".lock"))
        if fd is None:
            return done  # the holder answers the request
        try:
            while request.exists():
                request.unlink(missing_ok=True)
                done.append(work())
        finally:
            os.close(fd)
        if not request.exists():
            return done


def _touch(path: Path) -> None:
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
    except OSError as exc:
        raise PbemError(f"{path}: cannot leave a request to the running referee ({exc.strerror})") from None


def _try_lock(path: Path) -> int | None:
    """An exclusive lock on `path` (made if missing, never through a link), or None if another process holds it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise PbemError(f"{path}: cannot make the referee's lock ({exc.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd
