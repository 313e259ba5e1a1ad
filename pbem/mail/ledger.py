"""The record of every message the referee has handled, per games root: each message is handled exactly once.

One small JSON file per message under ROOT/.pbem-mail/ledger/, named by the SHA-256 of its Message-ID (or of its
bytes when it has none), written atomically. A message is marked `pending` (with the game's move number) before
its move is submitted and `done` once its replies are sent, so a run killed in between finds out on the next run
whether the move was applied (the game's move number moved on) and only sends the replies then. Everything that
handles a game's mail holds that game's mail lock (pbem.mail.locks), so one game's messages are handled one at a
time while other games' are handled beside them.

In a batch (`Referee.batch`) a `pending` record is appended to the batch's own journal,
`.pbem-mail/journals/<pid>-<random>.log`, and flushed to disk there (no new file per message) before its move is
submitted; the `done` records wait in memory and are written together once the replies they follow are on disk
(`flush`), and the journal is then emptied. The batch holds its journal's flock(2) for as long as it lives. A run
killed meanwhile leaves its journal unlocked: whoever takes a mail lock next writes each pending record of every
such journal to its own file first (`_settle`, under the root's lock `.pbem-mail/lock`), and the next run sends
those messages' replies, as after any kill. A journal line torn by the kill is one whose move was never submitted.
A journal holds lines only of the games whose locks its batch holds (they are written to files before the locks
are let go), so a journal whose batch is alive never holds a line of a game another process has the lock of.

The journal is written in place, never grown line by line: its blocks are written with zeros once (JOURNAL_BYTES,
doubled when full) and each line written over zeros at the batch's own offset; emptying it writes zeros over what
was written (fdatasynced) and starts again at 0. An fdatasync of a line then writes that line's block, not also new
blocks and the file's size, which cost more again when two workers write at once (docs/performance.md, round
seven). So a journal holds whole lines, then zeros: a line torn by a kill or a crash is followed by zeros, and no
JSON reader takes it. A line is only zeroed once its message's own record is on disk (fsynced), so even a crash that
kept an emptied journal's old lines (its zeros not yet on disk) settles nothing new: a record on disk is never
written again.
"""
from __future__ import annotations

import contextlib
import datetime
import fcntl
import json
import os
from pathlib import Path

from .. import digests
from ..contract import PbemError
from ..store import safefiles
from .locks import NO_GAME, MailLocks

DIR = ".pbem-mail"
JOURNALS = "journals"
OLD_JOURNAL = "pending.log"  # the one journal of the runs before the journals of their own (settled like theirs)
JOURNAL_BYTES = 16 * 1024  # a journal's first size: 50 messages' pending records (outgoing.BATCH), ~250 bytes each


class Ledger:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.base = self.root / DIR
        self.entries = self.base / "ledger"
        self.journals = self.base / JOURNALS
        # in a batch: the done records not yet written and the pending records in the journal, by key
        self.waiting: dict[str, dict] | None = None
        self.journaled: dict[str, dict] = {}
        self.journal: Path | None = None  # this batch's own journal, once it has written one
        self._journal_fd: int | None = None
        self._journal_at = self._journal_size = 0  # where its next line goes; its size (zeros from there on)
        try:
            self.entries.mkdir(parents=True, exist_ok=True)
            self.journals.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            raise PbemError(f"{self.base}: cannot create the mail ledger ({exc.strerror})") from None
        self.locks = MailLocks(self.base)
        self.locks.after_take = self._settle

    def locked(self, game: str | None, *also: str | None):
        """The mail lock of `game` (None: of mail about no game; pbem.mail.locks) and those of the games `also`
        names, taken together, each once however deeply nested; a batch keeps them until its work is on disk."""
        return self.locks.hold(game or NO_GAME, *filter(None, also))

    def _file(self, key: str) -> Path:
        return self.entries / (digests.sha256(key.encode("utf-8", "surrogateescape")).hexdigest() + ".json")

    def get(self, key: str) -> dict | None:
        if self.waiting and key in self.waiting:
            return self.waiting[key]
        if key in self.journaled:
            return self.journaled[key]
        return self._on_disk(key)

    def _on_disk(self, key: str) -> dict | None:
        return self._on_disk_file(self._file(key))

    @staticmethod
    def _on_disk_file(path: Path) -> dict | None:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise PbemError(f"{path}: unreadable ledger entry ({exc})") from None

    def records(self) -> list[dict]:
        """Every record on disk (a referee in CI carries its mails' records from job to job: pbem.git.cimail)."""
        return [record for path in sorted(self.entries.glob("*.json"))
                if (record := self._on_disk_file(path)) is not None]

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
        """A pending record added to the batch's journal, on disk when this returns."""
        if self._journal_fd is None:
            self._open_journal()
        line = _text(record).encode("utf-8", "surrogateescape")
        end = self._journal_at + len(line)
        try:
            if end > self._journal_size:  # its blocks written once, with zeros, for the lines to come to write over
                size = max(2 * self._journal_size, JOURNAL_BYTES, end)
                os.pwrite(self._journal_fd, bytes(size - self._journal_size), self._journal_size)
                self._journal_size = size
            os.pwrite(self._journal_fd, line, self._journal_at)
            os.fdatasync(self._journal_fd)
        except OSError as exc:
            raise PbemError(f"{self.journal}: cannot write ({exc.strerror})") from None
        self._journal_at = end

    def _open_journal(self) -> None:
        """The batch's own journal, made and flock(2)ed under the root's lock (a settling run never takes it for
        a killed run's between the two)."""
        path = self.journals / f"{os.getpid()}-{os.urandom(6).hex()}.log"
        with self._root_lock():
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            except OSError as exc:
                raise PbemError(f"{path}: cannot write ({exc.strerror})") from None
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: no one else holds it
        self.journal, self._journal_fd = path, fd
        self._journal_at = self._journal_size = 0

    def begin_batch(self) -> None:
        self.waiting, self.journaled = {}, {}
        self.locks.keep = True

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
        self._empty_journal()

    def _empty_journal(self) -> None:
        """Zeros over the journal's lines, on disk, and the next line at its start (every line's message has its
        own record on disk now: fsynced above). Not truncated: the next lines write over the same blocks."""
        if self._journal_fd is None or self._journal_at == 0:
            return
        try:
            os.pwrite(self._journal_fd, bytes(self._journal_at), 0)
            os.fdatasync(self._journal_fd)
        except OSError as exc:
            raise PbemError(f"{self.journal}: cannot write ({exc.strerror})") from None
        self._journal_at = 0

    def drop_done(self) -> None:
        """Forget the done records not yet written (their replies did not reach the disk); the pending records stay
        in the journal."""
        if self.waiting:
            self.waiting.clear()

    def end_batch(self) -> None:
        """Write each record at once again, and let the locks go. What was not flushed is dropped: the done records
        of replies that may not be on disk (the journal still holds their pending records, for the next run: it
        stays when it holds any)."""
        self.waiting, self.journaled = None, {}
        self.locks.keep = False
        self.locks.release()
        if self._journal_fd is not None:
            if self._journal_at == 0:  # zeros only
                with contextlib.suppress(OSError):
                    os.unlink(self.journal)
            os.close(self._journal_fd)
            self.journal, self._journal_fd = None, None
            self._journal_at = self._journal_size = 0

    @contextlib.contextmanager
    def _root_lock(self):
        """The root's lock, held a moment: while a journal is made or a killed run's journals are settled."""
        try:
            fd = os.open(self.base / "lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise PbemError(f"{self.base / 'lock'}: cannot open the mail ledger's lock ({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _settle(self) -> None:
        """The pending records of every journal a killed run left (one whose flock no one holds), each written to
        its own file unless a record of its message is there already; then the journal removed."""
        with self._root_lock():
            names = [os.path.join(JOURNALS, entry.name) for entry in os.scandir(self.journals)
                     if entry.name.endswith(".log") and self.base / JOURNALS / entry.name != self.journal]
            for name in [OLD_JOURNAL, *names]:
                self._settle_journal(self.base / name)

    def _settle_journal(self, path: Path) -> None:
        try:
            fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise PbemError(f"{path}: cannot read ({exc.strerror})") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # a live batch's
            # read through the locking descriptor alone: on NFS a flock is a POSIX lock, let go when the process
            # closes any descriptor of the file
            data = b"".join(iter(lambda: os.read(fd, 1 << 20), b""))
            self._write_pending(data)
            os.unlink(path)
        finally:
            os.close(fd)

    def _write_pending(self, data: bytes) -> None:
        for line in data.splitlines():
            try:
                record = json.loads(line.decode("utf-8", "surrogateescape"))
            except ValueError:
                continue  # zeros, or the line a kill tore (then zeros): its move was never submitted
            key = record.get("message_id") if isinstance(record, dict) else None
            if isinstance(key, str) and record.get("state") == "pending" and self._on_disk(key) is None:
                safefiles.write_atomic(self._file(key), _text(record), 0o600)

    def unsent(self) -> Path:
        return self.base / "unsent"


def _text(record: dict) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n"
