"""The all-or-nothing commit of a move's files, and the per-game lock.

A move changes several files (referee state, logs, public status, each player's view). All of them are first
written as one bundle, fsynced, and committed by renaming it to `DIR/.txn/COMMIT.json` (the commit point); then
each file is put in place, and the bundle is marked applied. If the process dies before the commit, the next
writer deletes the half-written bundle (the previous state is intact); if it dies after, the next writer applies
the bundle again, and a reader reads through it.

The bundle is a redo log, so the files put in place are not fsynced: the applied bundle is kept, named by the
machine's boot (`APPLIED.<boot id>.json`), until the next commit point, and each bundle holds every file that may
not be on disk yet (the files it writes, and the other files of the layout as they are: `_carried`). A process
killed meanwhile loses nothing (the page cache holds the files); after the machine stopped, the first writer of the
next boot applies the last bundle again, and readers read through it. The files written once, when the game is made
(the layout's `fixed` ones), are fsynced then. Two inodes serve as bundles in turn (`bundle.tmp` is the one before
last, rewritten by the next move; the first move's, a spare the game's first transaction left), so a move makes no
new file and fsyncs two things: its bundle and `.txn/`. Where the system gives no boot id, each file is fsynced
before the bundle is marked applied (`APPLIED.json`).

A file is put in place by rewriting it (same inode), not by writing a new file and renaming it over the old one:
making a new file costs ext4 twenty to fifty times what rewriting one does, and a move writes ten (see
docs/architecture.md). A file half rewritten when the process dies is rewritten again from the bundle; pbem's
readers never see one (they wait on the lock, and read through a bundle to redo).

A bundle is applied only if it is authentic (an HMAC with the game's transaction key, kept with the referee's
files) and names only paths of the game's layout: a bundle planted in `.txn/` is refused, it cannot write
anywhere, not even a file the referee would write.

The game's lock (pbem.store.locks) is taken around every transaction; the writer who takes it applies first a
bundle left to redo (`recover`), a reader reads through it (`overlay`). Inside the lock the files are opened from
the directory locked (`commit`'s `root`).
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat

from .. import digests
from ..contract import PbemError
from .safefiles import (Missing, Unreadable, create_file, folder_of, open_folder, open_root, path_text, read,
                        read_at, refusal, rewrite, shown_path, sync_together, write_new)

TXN = ".txn"
COMMIT = "COMMIT.json"
APPLIED = "APPLIED.json"
APPLIED_NAME = re.compile(r"APPLIED\.[0-9a-f-]{36}\.json")
BOOT_TEXT = re.compile(r"[0-9a-f-]{36}")
BUNDLE_TMP = "bundle.tmp"
TXN_MODE = 0o700
BUNDLE_FORMAT = b"pbem-txn/1"
BUNDLE_HEAD = rb"pbem-txn/1 hmac-sha256:([0-9a-f]{64})"  # compiled at its first use: a bundle read back
KEY_TEXT = re.compile(r"[0-9a-f]{64}\n?")
MAX_BUNDLE_BYTES = 64 * 1024 * 1024  # a move writes a few dozen files of at most 4 MiB


class Layout:
    """Everything a transaction of one game may write: each file with its mode, each folder with its mode, where
    the transaction key lives (private; never written by a bundle), and the files written once, when the game is
    made (`fixed`: fsynced when written, never carried from bundle to bundle)."""

    __slots__ = ("files", "folders", "key", "fixed")

    def __init__(self, files: dict[str, int], folders: dict[str, int], key: str, fixed: frozenset = frozenset()):
        self.files, self.folders, self.key, self.fixed = files, folders, key, fixed


# ---------------------------------------------------------------- transactions

def _key(root: int, directory, layout: Layout, create: bool) -> bytes | None:
    """The game's transaction key (None when there is none). A writer makes one when it needs it and there is
    none yet (a game made before keys existed)."""
    where = shown_path(directory, layout.key)
    try:
        with folder_of(directory, layout.key, layout.folders if create else None, root) as (folder, name):
            try:
                text = read_at(folder, name, where, 200)
            except Missing:
                if not create:
                    return None
                import secrets  # here only: a key is made once a game
                write_new(folder, name, (secrets.token_hex(32) + "\n").encode(), 0o600, sync=True)
                os.fsync(folder)
                text = read_at(folder, name, where, 200)
    except Missing:
        return None
    if not KEY_TEXT.fullmatch(text.decode("ascii", "replace")):
        raise PbemError(f"{where}: damaged (not a transaction key written by pbem)")
    return text.strip()


def _mac(key: bytes, body: bytes) -> str:
    return digests.hmac_sha256(key, body)


def _bundle_bytes(key: bytes, files: dict[str, str]) -> bytes:
    body = json.dumps(files, ensure_ascii=False).encode("utf-8")
    return BUNDLE_FORMAT + b" hmac-sha256:" + _mac(key, body).encode() + b"\n" + body


def _open_txn(root: int, directory, create: bool) -> int | None:
    try:
        return open_folder(root, TXN, shown_path(directory, TXN), TXN_MODE if create else None)
    except Missing:
        return None


def _check_bundle(data: bytes, key: bytes, layout: Layout, where: str) -> dict[str, str]:
    """The files of a committed bundle, refused unless it carries this game's key's HMAC and names only files of
    the game's layout."""
    head, _, body = data.partition(b"\n")
    match = re.fullmatch(BUNDLE_HEAD, head)
    if not match or not digests.same(match.group(1).decode(), _mac(key, body)):
        raise PbemError(f"{where}: not a transaction written by this game's referee (its authentication code does "
                        f"not match); it was not applied. If no pbem process was killed here, someone planted it: "
                        f"remove it, then run `pbem verify`")
    try:
        files = json.loads(body.decode("utf-8"))
    except ValueError as exc:
        raise PbemError(f"{where}: damaged transaction ({exc})") from None
    if not isinstance(files, dict) or not all(isinstance(t, str) for t in files.values()):
        raise PbemError(f"{where}: damaged transaction (not a mapping of paths to texts)")
    unknown = sorted(relative for relative in files if relative not in layout.files)
    if unknown:
        raise PbemError(f"{where}: names paths a move never writes ({', '.join(map(repr, unknown[:5]))}); "
                        f"it was not applied")
    return files


def _boot() -> str | None:
    """This boot of the machine (Linux), or None where the system does not say. Files written and not fsynced are
    in the page cache, which every process reads, until the machine stops: a transaction applied in this boot
    needs no redo, one applied in an earlier boot may have lost what was not fsynced."""
    global _BOOT
    if _BOOT is None:
        try:
            with open("/proc/sys/kernel/random/boot_id", "rb") as handle:
                text = handle.read(100).decode("ascii", "replace").strip()
        except OSError:
            text = ""
        _BOOT = text if BOOT_TEXT.fullmatch(text) else ""
    return _BOOT or None


_BOOT: str | None = None


def _applied_name(boot: str | None) -> str:
    """What an applied bundle is called: by the boot it was applied in when its files were not fsynced."""
    return APPLIED if boot is None else f"APPLIED.{boot}.json"


def _to_redo(txn: int) -> str | None:
    """The bundle a reader reads through and the next writer applies (again): a committed one not yet applied,
    or one applied in an earlier boot without fsyncing its files (a machine stopped since may have lost them)."""
    names = os.listdir(txn)
    if COMMIT in names:
        return COMMIT
    here = _applied_name(_boot())
    return next((name for name in names if APPLIED_NAME.fullmatch(name) and name != here), None)


def _committed(root: int, txn: int, directory, layout: Layout, reader: bool) -> tuple[str, dict[str, str]] | None:
    """(its name, its files) of the bundle to redo (`_to_redo`), or None when there is none. A reader that may
    not read the referee's folder gets None too: the bundle holds referee files, which are not its business."""
    try:
        name = _to_redo(txn)
        if name is None:
            return None
        where = shown_path(directory, f"{TXN}/{name}")
        data = read_at(txn, name, where, MAX_BUNDLE_BYTES)
        key = _key(root, directory, layout, create=False)
    except Missing:
        return None
    except Unreadable:
        if reader:
            return None
        raise
    if key is None:
        if reader:
            return None
        raise PbemError(f"{where}: cannot be checked ({shown_path(directory, layout.key)} is missing); it was not "
                        f"applied. Remove it if no pbem process was killed here, then run `pbem verify`")
    return name, _check_bundle(data, key, layout, where)


def overlay(root: int, directory, layout: Layout) -> dict[str, str]:
    """For a reader: the files of a bundle to redo, read instead of what is in place (none for a reader that may
    not open `.txn/`: what it holds is the referee's business)."""
    try:
        txn = _open_txn(root, directory, create=False)
    except Unreadable:
        return {}
    if txn is None:
        return {}
    try:
        found = _committed(root, txn, directory, layout, reader=True)
    finally:
        os.close(txn)
    return found[1] if found else {}


def _apply(root: int, directory, files: dict[str, str], layout: Layout, sync: bool) -> None:
    """Put each file in place, never through a link (`_put`), folder by folder (created with their layout modes).
    The files fsynced (with their folder when renamed into it) are every one when `sync`, else only the layout's
    fixed ones."""
    by_folder: dict[str, list[str]] = {}
    for relative in files:
        by_folder.setdefault(relative.rpartition("/")[0], []).append(relative)
    durable = []  # descriptors to fsync before the bundle is marked applied
    try:
        for members in by_folder.values():
            with folder_of(directory, members[0], layout.folders, root) as (folder, _):
                durable += _put_all(folder, directory, {relative: files[relative] for relative in members}, layout,
                                    sync)
        sync_together(durable)
    finally:
        for fd in durable:
            os.close(fd)


def _put_all(folder: int, directory, files: dict[str, str], layout: Layout, sync: bool) -> list[int]:
    """The files of one folder put in place: the descriptors to fsync (the files `sync` or the layout's fixed ones
    ask for, and the folder when one of them was renamed into it)."""
    durable, renamed = [], False
    try:
        for relative, text in files.items():
            wanted = sync or relative in layout.fixed
            fd, replaced = _put(folder, directory, relative, text.encode("utf-8"), layout.files[relative])
            renamed = renamed or (replaced and wanted)
            if wanted:
                durable.append(fd)
            else:
                os.close(fd)
        if renamed:
            durable.append(os.dup(folder))
    except BaseException:
        for fd in durable:
            os.close(fd)
        raise
    return durable


def _put(folder: int, directory, relative: str, data: bytes, mode: int) -> tuple[int, bool]:
    """One file put in place with its layout mode: rewritten in place when it is the referee's outright, else a
    new file renamed over it. (its descriptor, whether it was renamed)."""
    name = relative.rpartition("/")[2]
    try:
        fd = rewrite(folder, name, data, mode)
        if fd is not None:
            return fd, False
        tmp = f".{name}.tmp"
        fd = create_file(folder, tmp, data, mode)
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        return fd, True
    except OSError as exc:
        raise PbemError(f"{shown_path(directory, relative)}: cannot write ({exc.strerror})") from None


def _finish(root: int, txn: int, directory, name: str, files: dict[str, str], layout: Layout) -> None:
    """Put the files of the committed bundle `name` in place and mark it applied. Where the boot is known, only
    the layout's fixed files are fsynced: the bundle is (it is the move), and it holds every file not yet on disk
    (see `_carried`); it stays, named by this boot, until the next commit point, and a writer of a later boot
    applies it again."""
    boot = _boot()
    _apply(root, directory, files, layout, sync=boot is None)
    os.replace(name, _applied_name(boot), src_dir_fd=txn, dst_dir_fd=txn)


def _carried(root: int, directory, layout: Layout, written: dict[str, str]) -> dict[str, str]:
    """The files this transaction does not write but the last bundle (applied without fsync) may hold alone: every
    other file of the layout that is there, as it is now (the page cache holds what the referee wrote), the fixed
    ones aside (fsynced when the game was made). With them the new bundle alone can redo everything."""
    carried = {}
    for relative in layout.files:
        if relative in written or relative in layout.fixed:
            continue
        try:
            # a public file a player garbled is carried as text (it is rewritten from the referee's files anyway)
            carried[relative] = read(directory, relative, MAX_BUNDLE_BYTES, root=root).decode("utf-8", "replace")
        except Missing:
            continue
    return carried


def _clear(txn: int, directory, keep: tuple[str, ...]) -> None:
    """Remove everything in `.txn` but the regular files named in `keep` (a bundle.tmp there is no bundle: its
    inode is reused)."""
    for name in os.listdir(txn):
        if name in keep and stat.S_ISREG(os.lstat(name, dir_fd=txn).st_mode):
            continue
        try:
            os.unlink(name, dir_fd=txn)
        except IsADirectoryError:
            raise PbemError(f"{shown_path(directory, f'{TXN}/{name}')}: a folder where pbem keeps its transaction "
                            f"files; remove it") from None
        except OSError as exc:
            if exc.errno not in (errno.EISDIR, errno.EPERM):
                raise
            raise PbemError(f"{shown_path(directory, f'{TXN}/{name}')}: cannot remove ({exc.strerror})") from None


def recover(root: int, directory, layout: Layout) -> None:
    """Apply (again) a bundle to redo (`_to_redo`); throw away an uncommitted one."""
    txn = _open_txn(root, directory, create=False)
    if txn is None:
        return
    try:
        found = _committed(root, txn, directory, layout, reader=False)
        if found is not None:
            _finish(root, txn, directory, *found, layout)
        _clear(txn, directory, keep=(_applied_name(_boot()), BUNDLE_TMP))
    finally:
        os.close(txn)


def _check_targets(root: int, directory, files, layout: Layout) -> None:
    """Before the commit point: every target is a regular file or absent, in real folders (no link anywhere).
    Each folder is opened once for all its files (a move writes ten files in three folders)."""
    by_folder: dict[str, list[str]] = {}
    for relative in files:
        if relative not in layout.files:
            raise ValueError(f"{relative}: not in the game's layout")  # a bug in the caller, never input
        by_folder.setdefault(relative.rpartition("/")[0], []).append(relative)
    modes = {}
    for members in by_folder.values():
        try:
            with folder_of(directory, members[0], root=root) as (folder, _):
                modes.update(_modes(folder, members))
        except Missing:
            continue  # the folder is not there yet: nor are its files
    for relative in files:
        mode = modes.get(relative)
        if mode is not None and not stat.S_ISREG(mode):
            kind = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
            raise PbemError(f"{shown_path(directory, relative)}: is {kind}; pbem never writes through links inside a "
                            f"game directory (nothing was changed; replace it by the real file)")


def _modes(folder: int, members: list[str]) -> dict[str, int]:
    """The modes of the files of one folder that are there (a link's own, not its target's)."""
    modes = {}
    for relative in members:
        with contextlib.suppress(FileNotFoundError):
            modes[relative] = os.lstat(relative.rpartition("/")[2], dir_fd=folder).st_mode
    return modes


def _write_bundle(txn: int, data: bytes) -> None:
    """The new bundle in `.txn/bundle.tmp`, fsynced: rewritten in place when it is there (the inode of the bundle
    before last, left there at the last commit point), so a move makes no new file."""
    fd = rewrite(txn, BUNDLE_TMP, data, 0o600)
    if fd is None:
        write_new(txn, BUNDLE_TMP, data, 0o600, sync=True)
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _spare_bundle(txn: int) -> None:
    """The next move's `bundle.tmp`, left by the game's first transaction as each later one leaves the bundle before
    last, as large as the bundle it committed (fixed files and all: more than one move adds), not fsynced: the first
    move too writes its bundle over blocks the file has (new ones cost several times as much: docs/performance.md)."""
    write_new(txn, BUNDLE_TMP, b"\n" * os.stat(COMMIT, dir_fd=txn).st_size, 0o600)


def commit(directory, files: dict[str, tuple[str, int]], layout: Layout, root: int | None = None) -> None:
    """Write {relative path: (text, mode)} into the game directory as one transaction. Call under the lock, with
    its `Held.root` (without it the directory is opened by its path)."""
    directory = path_text(directory)
    for relative, (_, mode) in files.items():
        if layout.files.get(relative) != mode:
            raise ValueError(f"{relative}: mode {mode:o} is not the layout's")  # a bug in the caller, never input
    texts = {relative: text for relative, (text, _) in files.items()}
    root = open_root(directory, root)
    try:
        _check_targets(root, directory, files, layout)
        key = _key(root, directory, layout, create=True)
        txn = _open_txn(root, directory, create=True)
        try:
            last = _applied_name(_boot())
            _clear(txn, directory, keep=(last, BUNDLE_TMP))
            # files are not fsynced where the boot is known: any of them may be in the page cache only
            carried = _carried(root, directory, layout, texts) if last != APPLIED else {}
            _write_bundle(txn, _bundle_bytes(key, {**carried, **texts}))
            os.replace(BUNDLE_TMP, COMMIT, src_dir_fd=txn, dst_dir_fd=txn)
            os.fsync(txn)  # the commit point: from here the new bundle alone redoes everything
            try:
                os.replace(last, BUNDLE_TMP, src_dir_fd=txn, dst_dir_fd=txn)  # its inode, for the next bundle
            except FileNotFoundError:  # the game's first transaction: no bundle before it to reuse
                _spare_bundle(txn)
            _finish(root, txn, directory, COMMIT, texts, layout)
        finally:
            os.close(txn)
    finally:
        os.close(root)
