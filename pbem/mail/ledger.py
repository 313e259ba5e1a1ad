"""The record of every message the referee has handled, per games root: each message is handled exactly once.

One small JSON file per message under ROOT/.pbem-mail/ledger/, named by the SHA-256 of its Message-ID (or of its
bytes when it has none), written atomically. A message is marked `pending` (with the game's move number) before
its move is submitted and `done` once its replies are sent, so a run killed in between finds out on the next run
whether the move was applied (the game's move number moved on) and only sends the replies then.
A lock serializes everything that handles mail under one root (several deliveries may arrive at once).

In a batch (`Referee.batch`) the `done` records wait in memory and are written together, after the replies they
follow are on disk (`flush`): one fsync for many messages. A `pending` record is always on disk before its move
is submitted. A run killed before a flush leaves pending records and unmoved messages: the next run sends their
replies, as after any kill.
"""
from __future__ import annotations

import contextlib
import datetime
import fcntl
import hashlib
import json
import os
from pathlib import Path

from .. import store
from ..contract import PbemError

DIR = ".pbem-mail"


class Ledger:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.base = self.root / DIR
        self.entries = self.base / "ledger"
        self.waiting: dict[str, dict] | None = None  # done records not yet written (in a batch), by key
        self._lock: int | None = None
        try:
            self.entries.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PbemError(f"{self.base}: cannot create the mail ledger ({exc.strerror})") from None

    @contextlib.contextmanager
    def locked(self):
        """The root's lock, taken once however deeply nested (a batch holds it for all its messages)."""
        if self._lock is not None:
            yield self
            return
        fd = os.open(self.base / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._lock = fd
            yield self
        finally:
            self._lock = None
            os.close(fd)

    def _file(self, key: str) -> Path:
        return self.entries / (hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest() + ".json")

    def get(self, key: str) -> dict | None:
        if self.waiting and key in self.waiting:
            return self.waiting[key]
        path = self._file(key)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise PbemError(f"{path}: unreadable ledger entry ({exc})") from None

    def put(self, key: str, record: dict) -> None:
        """Record what became of a message: on disk now, except a `done` record in a batch (see `flush`)."""
        record = {"message_id": key, **record,
                  "time": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()}
        if self.waiting is not None and record["state"] == "done":
            self.waiting[key] = record
            return
        store.write_atomic(self._file(key), _text(record), 0o600)

    def flush(self) -> None:
        """Write the done records of a batch, all fsynced together. Call once their replies are on disk."""
        if self.waiting:
            store.write_atomic_together({self._file(key): _text(record) for key, record in self.waiting.items()},
                                        0o600)
            self.waiting.clear()

    def unsent(self) -> Path:
        return self.base / "unsent"


def _text(record: dict) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n"
