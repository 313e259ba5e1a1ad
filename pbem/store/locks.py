"""The per-game lock: one writer at a time, readers wait for it.

Every change of a game is made under its lock (a file `.lock` in the game directory, flock'd), and every read
waits for a writer to finish (a shared lock). The writer who takes it first applies a transaction a killed writer
left to redo (pbem.store.transactions.recover); a reader reads through one (`overlay`). Neither waits for ever: a
process that holds the lock too long makes the others give up with a clear message (exit 2, nothing done).

The lock's holder gets the game directory's descriptor (`Held.root`), opened when the lock was taken; it passes
it to every read and to `commit`, so that inside the lock the files are opened from the directory locked.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat

from ..contract import PbemError, UsageError
from ..messages import lazy
from .safefiles import open_root, path_text, refusal, shown_path
from .transactions import Layout, overlay, recover

LOCK = ".lock"
LOCK_MODE = 0o600  # only the referee's user may open it, so only they can hold the game up
LOCK_WAIT = 30.0  # seconds a command waits for a game's lock before it gives up (exit 2)


class Held:
    """What the holder of a game's lock (or a reader under its shared lock) gets: the game directory's descriptor,
    to open its files from, and the files of a committed bundle not yet applied, to read through (a reader's
    only: a writer applies the bundle first)."""

    __slots__ = ("root", "overlay")

    def __init__(self, root: int, overlay: dict[str, str]):
        self.root, self.overlay = root, overlay


class Locked(PbemError):
    """The game's lock was not had within the wait: another process holds it (exit 2, nothing done)."""


def lock_wait(wait: float | None = None) -> float:
    """How long to wait for a game's lock, in seconds: `wait`, else PBEM_LOCK_TIMEOUT, else LOCK_WAIT."""
    if wait is not None:
        return wait
    text = os.environ.get("PBEM_LOCK_TIMEOUT")
    if text is None:
        return LOCK_WAIT
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 86400:
        raise UsageError(f"PBEM_LOCK_TIMEOUT={text[:40]!r}: a number of seconds from 0 to 86400")
    return value


def _lock_file(root: int, directory, create: bool) -> int | None:
    """The game's lock file, opened without following a link; None when a reader finds none (or may not open it).
    A writer makes it private (LOCK_MODE, whatever mode an older pbem gave it): only who may open a file can lock
    it, and no one who cannot write the game should be able to hold up its writers."""
    flags = (os.O_RDWR | os.O_CREAT if create else os.O_RDONLY) | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    where = shown_path(directory, LOCK)
    try:
        fd = os.open(LOCK, flags, LOCK_MODE, dir_fd=root)
    except OSError as exc:
        if not create and exc.errno in (errno.ENOENT, errno.EACCES, errno.EPERM):
            return None
        error = refusal(root, LOCK, where, exc, "file")
        # TRANSLATORS: {error}: why the lock file could not be opened (a sentence of its own).
        raise PbemError(lazy("{error} (cannot lock the game)", error=error.args[0])) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise PbemError(lazy("{where}: is not a regular file (cannot lock the game)", where=where))
    if create and stat.S_IMODE(info.st_mode) != LOCK_MODE:
        with contextlib.suppress(PermissionError):  # another user's file: theirs to fix (the wait still ends)
            os.fchmod(fd, LOCK_MODE)
    return fd


def _take(fd: int, kind: int, where: str, wait: float) -> None:
    """flock, waiting at most `wait` seconds (a process that holds the lock for ever must not hang the referee)."""
    try:
        fcntl.flock(fd, kind | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    import time  # here only: the lock is free almost always
    deadline, pause = time.monotonic() + wait, 0.005
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Locked(lazy("{where}: the game is locked by another process (waited {seconds} s): another pbem is "
                              "still at work on it, or someone holds its lock file. Nothing was done; try again "
                              "later (PBEM_LOCK_TIMEOUT sets the wait)", where=where, seconds=f"{wait:g}"))
        time.sleep(min(pause, left))
        pause = min(pause * 2, 0.2)
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            continue


@contextlib.contextmanager
def locked(directory, layout: Layout, wait: float | None = None):
    """Serialize everything that writes one game; a committed bundle left by a killed writer is applied first.
    Yields the lock's `Held` (its root: pass it to the reads and to `commit`). Waits at most `wait` seconds for
    the lock (`lock_wait`), then raises Locked."""
    directory = path_text(directory)
    root = open_root(directory)
    try:
        fd = _lock_file(root, directory, create=True)
        try:
            _take(fd, fcntl.LOCK_EX, shown_path(directory, LOCK), lock_wait(wait))
            recover(root, directory, layout)
            yield Held(root, {})
        finally:
            os.close(fd)
    finally:
        os.close(root)


@contextlib.contextmanager
def reading(directory, layout: Layout, wait: float | None = None):
    """For commands that only read: wait for a writer to finish (a shared lock, only if the lock file exists and
    this user may open it: a reader creates no file), at most `wait` seconds (`lock_wait`). Yields the `Held`: the
    directory's descriptor and the files of a committed bundle not yet applied, to read through."""
    directory = path_text(directory)
    root = open_root(directory)
    try:
        fd = _lock_file(root, directory, create=False)
        try:
            if fd is not None:
                _take(fd, fcntl.LOCK_SH, shown_path(directory, LOCK), lock_wait(wait))
            yield Held(root, overlay(root, directory, layout))
        finally:
            if fd is not None:
                os.close(fd)
    finally:
        os.close(root)
