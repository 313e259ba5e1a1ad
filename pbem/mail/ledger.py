"""The record of every message the referee has handled, per games root: each message is handled exactly once.

One small JSON file per message under ROOT/.pbem-mail/ledger/, named by the SHA-256 of its Message-ID (or of its
bytes when it has none), written atomically. A message is marked `pending` (with the game's move number) before
its move is submitted and `done` once its replies are sent, so a run killed in between finds out on the next run
whether the move was applied (the game's move number moved on) and only sends the replies then.
A lock serializes everything that handles mail under one root (several deliveries may arrive at once).

In a batch (`Referee.batch`) a `pending` record is appended to one journal, `.pbem-mail/pending.log`, and
flushed to disk there (no new file per message) before its move is submitted; the `done` records wait in memory
and are written together once the replies they follow are on disk (`flush`), and the journal is then emptied. A
run killed meanwhile leaves its journal: whoever takes the lock next writes each pending record in it to its own
file first (`_settle`), and the next run sends those messages' replies, as after any kill. A journal line torn by
the kill is one whose move was never submitted.
"""
from __future__ import annotations

import contextlib
import datetime
import fcntl
import hashlib
import json
import os
from pathlib import Path

from ..contract import PbemError
from ..store import safefiles

DIR = ".pbem-mail"
JOURNAL = "pending.log"


class Ledger:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.base = self.root / DIR
        self.entries = self.base / "ledger"
        self.journal = self.base / JOURNAL
        # in a batch: the done records not yet written and the pending records in the journal, by key
        self.waiting: dict[str, dict] | None = None
        self.journaled: dict[str, dict] = {}
        self._journal_fd: int | None = None
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
            self._settle()
            yield self
        finally:
            self._lock = None
            os.close(fd)

    def _file(self, key: str) -> Path:
        return self.entries / (hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest() + ".json")

    def get(self, key: str) -> dict | None:
        if self.waiting and key in self.waiting:
            return self.waiting[key]
        if key in self.journaled:
            return self.journaled[key]
        return self._on_disk(key)

    def _on_disk(self, key: str) -> dict | None:
        path = self._file(key)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise PbemError(f"{path}: unreadable ledger entry ({exc})") from None

    def put(self, key: str, record: dict) -> None:
        """Record what became of a message: on disk now, or in a batch (see the module's text) in the journal
        (pending) or at the next flush (done)."""
        record = {"message_id": key, **record,
                  "time": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()}
        if self.waiting is None:
            safefiles.write_atomic(self._file(key), _text(record), 0o600)
        elif record["state"] == "done":
            self.waiting[key] = record
        else:
            self._append(record)
            self.journaled[key] = record

    def _append(self, record: dict) -> None:
        """A pending record added to the journal, on disk when this returns."""
        try:
            if self._journal_fd is None:
                self._journal_fd = os.open(self.journal, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW
                                           | os.O_CLOEXEC, 0o600)
            os.write(self._journal_fd, _text(record).encode("utf-8", "surrogateescape"))
            os.fdatasync(self._journal_fd)
        except OSError as exc:
            raise PbemError(f"{self.journal}: cannot write ({exc.strerror})") from None

    def begin_batch(self) -> None:
        self.waiting, self.journaled = {}, {}

    def flush(self) -> None:
        """Write the done records of a batch, all fsynced together (call once their replies are on disk), and
        each pending record without one (a message that broke the referee) to its own file; then empty the
        journal."""
        if self.waiting is None:
            return
        if self.waiting:
            safefiles.write_atomic_together({self._file(key): _text(record) for key, record in self.waiting.items()},
                                        0o600)
        for key, record in self.journaled.items():
            if key not in self.waiting:
                safefiles.write_atomic(self._file(key), _text(record), 0o600)
        self.waiting.clear()
        self.journaled.clear()
        if self._journal_fd is not None:
            os.ftruncate(self._journal_fd, 0)  # every line is in a file of its own now (durable or not: see _settle)

    def end_batch(self) -> None:
        """Write each record at once again. What was not flushed is dropped: the done records of replies that may
        not be on disk (the journal still holds their pending records, for the next run)."""
        self.waiting, self.journaled = None, {}
        if self._journal_fd is not None:
            os.close(self._journal_fd)
            self._journal_fd = None

    def _settle(self) -> None:
        """The pending records a killed batch left in the journal, each written to its own file unless a record of
        its message is there already, then the journal emptied."""
        try:
            data = self.journal.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise PbemError(f"{self.journal}: cannot read ({exc.strerror})") from None
        for line in data.splitlines():
            try:
                record = json.loads(line.decode("utf-8", "surrogateescape"))
            except ValueError:
                continue  # the line a kill tore: its move was never submitted
            key = record.get("message_id") if isinstance(record, dict) else None
            if isinstance(key, str) and record.get("state") == "pending" and self._on_disk(key) is None:
                safefiles.write_atomic(self._file(key), _text(record), 0o600)
        if data:
            os.truncate(self.journal, 0)

    def unsent(self) -> Path:
        return self.base / "unsent"


def _text(record: dict) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n"
