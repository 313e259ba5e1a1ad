"""The mail locks of a games root, one a game: whatever handles the mail of a game holds that game's lock — a message
for it, from the ledger's look-up to its answers and records; what a tick owes its players; a seat's welcome — so
each game's mail is handled by one process at a time, in the order it is given, while other games' mail is handled
beside it (`pbem mail inbox --workers N`). Mail that names no game holds the lock of no game (NO_GAME), `pbem mail
resend` the lock of the unsent mail (UNSENT): no game's id starts with `_`.

ROOT/.pbem-mail/locks/<game id>.lock, flock(2)ed: the system lets a lock go when its process dies, however it dies.

A batch keeps the locks it took until its replies and records are on disk (`release`): until then the ledger on
disk does not say its messages were handled. Whoever finds a lock taken, between two messages, first lets go of the
locks it holds (a batch makes what it did under them durable first: `before_wait`), then waits, then takes again
what the message needs: the locks a message needs (its game's, and the game an earlier run recorded its Message-ID
for) are taken together, so no one ever waits while holding a lock, and no two processes wait for each other.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import Callable

from ..contract import PbemError

NO_GAME = "_none"
UNSENT = "_unsent"
FOLDER = "locks"


class MailLocks:
    """The mail locks this process holds under one root. `keep`: a batch's (kept until `release`); `before_wait`:
    what a batch does before it waits for a lock between messages (make its work durable, `release`);
    `after_take`: what is done each time a lock is had (the ledger settles what a killed run left)."""

    def __init__(self, base: Path):
        self.folder = base / FOLDER
        try:
            self.folder.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            raise PbemError(f"{self.folder}: cannot create the mail locks' folder ({exc.strerror})") from None
        self.held: dict[str, int] = {}
        self.depth = 0  # how many `hold`s are open: a batch is between two messages at 0
        self.keep = False
        self.before_wait: Callable[[], None] | None = None
        self.after_take: Callable[[], None] | None = None

    @contextlib.contextmanager
    def hold(self, *keys: str):
        """The locks of `keys` (a game's id, NO_GAME or UNSENT), each taken once however deeply nested. Outside a
        batch every lock is let go when the outermost `hold` ends."""
        while not all(self._take(key) for key in sorted(set(keys)) if key not in self.held):
            pass  # it had to let go of what it held to wait: take again what it let go
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            if self.depth == 0 and not self.keep:
                self.release()

    def _take(self, key: str) -> bool:
        """The lock of `key` taken, waiting for it if need be; False when that meant letting go of the others. (Only
        between two messages: inside a `hold` nothing may be let go, so no caller takes a new lock there.)"""
        path = self.folder / f"{key}.lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise PbemError(f"{path}: cannot open the mail lock ({exc.strerror})") from None
        kept = True
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if self.held and self.depth == 0:  # between two messages: what is held is made durable, let go
                    (self.before_wait or self.release)()
                    kept = False
                fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            os.close(fd)
            raise
        self.held[key] = fd
        if self.after_take is not None:
            self.after_take()
        return kept

    def release(self) -> None:
        """Let every lock go (a batch: once what was done under them is on disk)."""
        held, self.held = self.held, {}
        for fd in held.values():
            os.close(fd)
