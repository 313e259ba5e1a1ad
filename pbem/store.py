"""Safe writes of a game directory: one lock per game, all files of a move committed together or not at all.

A move changes several files (referee state, logs, public status, each player's view). All of them are first
written as one bundle, fsynced, and committed by renaming it to `DIR/.txn/COMMIT.json`; then each file is
written (temp file and rename) into place, and the bundle is marked applied. If the process dies before the
commit, the next command deletes the half-written bundle (the previous state is intact); if it dies after, the
next command applies the bundle again. Either way the game is never half-moved. One fsynced bundle instead of
one fsync per file keeps a move fast (the bundle stays until the next move, so it can always be re-applied).
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
from pathlib import Path

from .contract import PbemError

TXN = ".txn"
COMMIT = "COMMIT.json"
APPLIED = "APPLIED.json"
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


def _apply(directory: Path, files: dict[str, list]) -> None:
    folders = set()
    for relative, (text, mode) in files.items():
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        folders.add(target.parent)
    for folder in folders:
        _fsync_dir(folder)


def recover(directory: Path) -> None:
    """Apply a committed bundle that was not marked applied; throw away an uncommitted one."""
    txn = directory / TXN
    if not txn.is_dir():
        return
    committed = txn / COMMIT
    if committed.exists():
        _apply(directory, json.loads(committed.read_text(encoding="utf-8")))
        os.replace(committed, txn / APPLIED)
    for leftover in txn.iterdir():
        if leftover.name != APPLIED:
            leftover.unlink()


def commit(directory: Path, files: dict[str, tuple[str, int]]) -> None:
    """Write {relative path: (text, mode)} into the game directory as one transaction. Call under the lock."""
    txn = directory / TXN
    txn.mkdir(mode=0o700, exist_ok=True)
    for leftover in txn.iterdir():
        leftover.unlink()
    bundle = txn / "bundle.tmp"
    fd = os.open(bundle, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({relative: [text, mode] for relative, (text, mode) in files.items()}, handle, ensure_ascii=False)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(bundle, txn / COMMIT)
    _fsync_dir(txn)
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
