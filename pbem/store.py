"""Safe writes of a game directory: one lock per game, all files of a move committed together or not at all.

A move changes several files (referee state, logs, public status, each player's view). They are first written
and fsynced into `DIR/.txn/`, then a COMMIT marker is written atomically, then each file is renamed into place.
If the process dies before the marker, the next command deletes the half-written transaction (the previous state
is intact); if it dies after, the next command finishes the renames. Either way the game is never half-moved.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
from pathlib import Path

from .contract import PbemError

TXN = ".txn"
COMMIT = "COMMIT"
LOCK = ".lock"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """One file replaced atomically (temp file, fsync, rename): for files outside a game's transaction."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(tmp, mode)
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def recover(directory: Path) -> None:
    """Finish a committed transaction, or throw away an uncommitted one."""
    txn = directory / TXN
    if not txn.is_dir():
        return
    marker = txn / COMMIT
    if marker.exists():
        for relative in marker.read_text(encoding="utf-8").splitlines():
            staged = txn / relative
            if staged.exists():
                target = directory / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(staged, target)
                _fsync_dir(target.parent)
    shutil.rmtree(txn)
    _fsync_dir(directory)


def commit(directory: Path, files: dict[str, tuple[str, int]]) -> None:
    """Write {relative path: (text, mode)} into the game directory as one transaction. Call under the lock."""
    txn = directory / TXN
    if txn.exists():
        shutil.rmtree(txn)
    txn.mkdir()
    for relative, (text, mode) in files.items():
        staged = txn / relative
        staged.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(staged, mode)
    for folder in {(txn / relative).parent for relative in files}:
        _fsync_dir(folder)
    write_atomic(txn / COMMIT, "\n".join(files) + "\n")
    recover(directory)


@contextlib.contextmanager
def locked(directory: Path, write: bool = True):
    """Serialize everything that touches one game. Readers on a read-only copy go ahead without the lock."""
    try:
        fd = os.open(directory / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if write or exc.errno not in (errno.EACCES, errno.EROFS, errno.EPERM):
            raise PbemError(f"{directory}: cannot lock the game ({exc.strerror})") from None
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        recover(directory)
        yield
    finally:
        os.close(fd)
