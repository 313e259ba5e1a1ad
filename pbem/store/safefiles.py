"""Safe access to a game directory's files: no symbolic link followed, nothing written but where asked.

A game directory may be writable by players (play by git), so nothing in it is trusted for where to write:
every path below it is opened one folder at a time from a folder descriptor with O_NOFOLLOW, and a symbolic link
(or a folder where a file should be) is refused with a clear message. The game directory itself is the user's
choice and is opened as given, or taken from the descriptor of whoever holds its lock (`root`, passed down
explicitly: pbem.store.transactions).

A file is rewritten in place (same inode) only when it is the referee's outright: a regular file of this user,
linked once; anything else (absent, another user's, a second name of another file) is replaced by a new file
renamed over it (`rewrite`, `create_file`). Files outside a game's transaction (the mail ledger, a signed move
file) are replaced atomically (`write_atomic`).
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat

from ..contract import PbemError
from ..messages import Message, lazy, nlazy

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC  # NONBLOCK: a planted FIFO never hangs us
NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
REWRITE_FLAGS = os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


# ---------------------------------------------------------------- sizes in words
# (a file refused for its size is named with how large it is and the limit: here, in the other readers, by git)

def size_words(count: int) -> Message:
    """A byte count as a person reads it: `812 bytes`, `65,537 bytes`, `10.0 MB` (a message, in its reader's
    language)."""
    if count >= 1024 * 1024:
        return lazy("{count} MB", count=f"{count / (1024 * 1024):.1f}")
    return nlazy("{count} byte", "{count} bytes", count, count=f"{count:,}")


def limit_words(count: int) -> Message:
    """A size limit in round units: `64 KB`, `2 MB` (a message)."""
    if count >= 1024 * 1024 and count % (1024 * 1024) == 0:
        return lazy("{count} MB", count=count // (1024 * 1024))
    if count >= 1024 and count % 1024 == 0:
        return lazy("{count} KB", count=count // 1024)
    return nlazy("{count} byte", "{count} bytes", count, count=count)


def not_utf8(where: str, exc: UnicodeDecodeError) -> Message:
    # TRANSLATORS: {reason}: Python's reason, in English ("invalid start byte"); {byte}: where in the file.
    return lazy("{where}: not UTF-8 text ({reason} at byte {byte})", where=where, reason=exc.reason, byte=exc.start)


def cannot_read(where: str, exc: OSError) -> Message:
    # TRANSLATORS: {reason}: the operating system's reason, in English ("Permission denied").
    return lazy("{where}: cannot read ({reason})", where=where, reason=exc.strerror)


def too_large(where, limit: int) -> Message:
    """The one refusal of a file over its size limit, which is not read further."""
    return lazy("{where}: file too large (more than {limit})", where=where, limit=limit_words(limit))


def read_bounded(path, limit: int, source: str | None = None) -> bytes:
    """The bytes of a file a user gave (a league file, a key, a message; `-`: standard input), at most `limit`:
    never more than `limit` + 1 bytes are read, and a larger file is refused (too_large), as are a missing file, a
    folder and one that cannot be read, each named as `source` (default: its path)."""
    where = source or (lazy("standard input") if str(path) == "-" else str(path))
    try:
        if str(path) == "-":
            import sys
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
    except FileNotFoundError:
        raise Missing(lazy("{where}: no such file", where=where)) from None
    except IsADirectoryError:
        raise PbemError(lazy("{where}: is a directory, not a file", where=where)) from None
    except OSError as exc:
        raise PbemError(cannot_read(where, exc)) from None
    if len(data) > limit:
        raise PbemError(too_large(where, limit))
    return data


class Missing(PbemError):
    """A file that is not there (callers may treat absence as a normal case)."""


class Unreadable(PbemError):
    """A file or folder this user may not open (a player's account reading the referee's folder)."""


def path_text(path) -> str:
    """A path as str(pathlib.Path(path)) writes it (no empty or `.` parts, no trailing slash), without importing
    pathlib: its import costs milliseconds at the start of every command, which names paths only in messages."""
    text = os.fspath(path)
    root = "//" if text[:2] == "//" and text[2:3] != "/" else "/" if text[:1] == "/" else ""
    return root + "/".join(part for part in text.split("/") if part not in ("", ".")) or "."


def shown_path(directory, relative: str) -> str:
    """How a file below the game directory is named in messages."""
    return os.path.join(path_text(directory), relative)


def parts_of(relative: str) -> list[str]:
    parts = relative.split("/")
    if relative.startswith("/") or any(p in ("", ".", "..") or "\0" in p for p in parts):
        raise PbemError(f"{relative!r}: not a path inside the game directory")
    return parts


def refusal(parent: int, name: str, where: str, exc: OSError, want: str) -> PbemError:
    """Why `name` could not be opened as a `want` ('file' or 'folder'): a link, the wrong kind, or the OS's reason."""
    try:
        mode = os.lstat(name, dir_fd=parent).st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISLNK(mode):
        return PbemError(lazy("{where}: is a symbolic link; pbem never follows links inside a game directory "
                              "(replace it by the real file)", where=where) if want == "file" else
                         lazy("{where}: is a symbolic link; pbem never follows links inside a game directory "
                              "(replace it by the real folder)", where=where))
    if exc.errno == errno.ENOENT:
        return Missing(lazy("{where}: no such file", where=where) if want == "file" else
                       lazy("{where}: no such folder", where=where))
    if exc.errno in (errno.EACCES, errno.EPERM):
        return Unreadable(_cannot_open(where, exc))
    if mode is not None and (stat.S_ISDIR(mode) != (want == "folder")):
        return PbemError(lazy("{where}: is not a file", where=where) if want == "file" else
                         lazy("{where}: is not a folder", where=where))
    return PbemError(_cannot_open(where, exc))


def _cannot_open(where: str, exc: OSError) -> Message:
    # TRANSLATORS: {reason}: the operating system's reason, in English ("Permission denied").
    return lazy("{where}: cannot open ({reason})", where=where, reason=exc.strerror)


def open_root(directory, root: int | None = None) -> int:
    """A descriptor of the game directory: a duplicate of `root` (the one a lock was taken with, passed down by
    whoever holds it, so that inside the lock the directory locked is the one read, and its path is not walked
    again: a third of the openat calls of a move), else the directory opened by its path."""
    if root is not None:
        return os.dup(root)
    try:
        return os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise Missing(lazy("{where}: no such folder", where=str(directory))) from None
    except OSError as exc:
        raise PbemError(lazy("{where}: cannot open the game directory ({error})", where=str(directory),
                             error=exc.strerror)) from None


def open_folder(parent: int, name: str, where: str, create_mode: int | None = None) -> int:
    """A folder below `parent`, never through a link; created with exactly `create_mode` when given and missing."""
    try:
        return os.open(name, DIR_FLAGS, dir_fd=parent)
    except OSError as exc:
        if exc.errno != errno.ENOENT or create_mode is None:
            raise refusal(parent, name, where, exc, "folder") from None
    try:
        os.mkdir(name, create_mode, dir_fd=parent)
    except FileExistsError:
        pass  # made by someone else meanwhile: opened (and checked) below like any existing folder
    except OSError as exc:
        raise PbemError(f"{where}: cannot create the folder ({exc.strerror})") from None
    try:
        fd = os.open(name, DIR_FLAGS, dir_fd=parent)
    except OSError as exc:
        raise refusal(parent, name, where, exc, "folder") from None
    os.fchmod(fd, create_mode)  # exactly this mode, whatever the umask
    return fd


@contextlib.contextmanager
def folder_of(directory, relative: str, folders: dict[str, int] | None = None, root: int | None = None):
    """(descriptor of the folder holding `relative`, the file's name); folders created with their layout mode
    when `folders` is given; from `root` when the caller holds the directory (see `open_root`)."""
    parts = parts_of(relative)
    fd = open_root(directory, root)
    try:
        for index, name in enumerate(parts[:-1]):
            path = "/".join(parts[:index + 1])
            mode = None if folders is None else folders.get(path, 0o755)
            child = open_folder(fd, name, shown_path(directory, path), mode)
            os.close(fd)
            fd = child
        yield fd, parts[-1]
    finally:
        os.close(fd)


def read_at(folder: int, name: str, where: str, limit: int) -> bytes:
    try:
        fd = os.open(name, READ_FLAGS, dir_fd=folder)
    except OSError as exc:
        raise refusal(folder, name, where, exc, "file") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise PbemError(lazy("{where}: is not a regular file", where=where))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise PbemError(cannot_read(where, exc)) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise PbemError(too_large(where, limit))
    return data


def read(directory, relative: str, limit: int, overlay: dict[str, str] | None = None, root: int | None = None
         ) -> bytes:
    """The bytes of DIR/relative, never through a link; from `overlay` (a committed bundle not yet applied)
    when it holds that file; from `root` when the caller holds the directory."""
    if overlay and relative in overlay:
        return overlay[relative].encode("utf-8")
    with folder_of(directory, relative, root=root) as (folder, name):
        return read_at(folder, name, shown_path(directory, relative), limit)


def exists(directory, relative: str, overlay: dict[str, str] | None = None, root: int | None = None) -> bool:
    """Is there a regular file at DIR/relative (False: nothing there)? A link on the way is refused, not followed,
    and so is anything else that is not a regular file (a FIFO, a folder): naming it, not as if nothing were
    there."""
    if overlay and relative in overlay:
        return True
    try:
        with folder_of(directory, relative, root=root) as (folder, name):
            mode = os.lstat(name, dir_fd=folder).st_mode
    except Missing:
        return False
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(mode):
        raise PbemError(lazy("{where}: is a symbolic link; pbem never follows links inside a game directory "
                             "(replace it by the real file)", where=shown_path(directory, relative)))
    if not stat.S_ISREG(mode):
        where = shown_path(directory, relative)
        raise PbemError(lazy("{where}: is a folder, where pbem keeps a file (remove it)", where=where)
                        if stat.S_ISDIR(mode) else
                        lazy("{where}: is not a regular file, where pbem keeps a file (remove it)", where=where))
    return True


def make_folder(path, mode: int = 0o755) -> None:
    """A folder and any missing parents, each created with exactly `mode` (whatever the umask)."""
    from pathlib import Path
    path = Path(path)
    missing = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode)
        except FileExistsError:
            continue
        except OSError as exc:
            raise PbemError(f"{folder}: cannot create the folder ({exc.strerror})") from None
        os.chmod(folder, mode)


def create_file(folder: int, name: str, data: bytes, mode: int) -> int:
    """Write a file that did not exist and return its descriptor, for the caller to fsync and close (a stale one
    of that name, link or file, is removed first: it is looked for only when creating fails, which it seldom
    does)."""
    try:
        fd = os.open(name, NEW_FLAGS, mode, dir_fd=folder)
    except FileExistsError:
        os.unlink(name, dir_fd=folder)
        fd = os.open(name, NEW_FLAGS, mode, dir_fd=folder)
    try:
        os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_new(folder: int, name: str, data: bytes, mode: int, sync: bool = False) -> None:
    """Write a file that did not exist (see `create_file`), fsynced when asked."""
    fd = create_file(folder, name, data, mode)
    try:
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def rewrite(folder: int, name: str, data: bytes, mode: int) -> int | None:
    """Rewrite `name` in place when it is the referee's outright (a regular file of this user, linked once), and
    return its descriptor, to be fsynced and closed by the caller; None when it must be replaced by a new file
    (it is absent, or anything else: a link, a FIFO, another user's file, a second name of another file)."""
    try:
        fd = os.open(name, REWRITE_FLAGS, dir_fd=folder)
    except OSError:
        return None  # absent, a symbolic link (ELOOP), a folder, a FIFO nobody reads: the caller's new file
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or info.st_uid != os.geteuid():
            os.close(fd)
            return None
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if info.st_size > len(data):  # only what is left of a longer file: ten of a move's eleven truncations were
            os.ftruncate(fd, len(data))  # to the size the file had once written: a system call for nothing
        if stat.S_IMODE(info.st_mode) != mode:
            os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def sync_together(fds: list[int]) -> None:
    """fsync every descriptor, one after the other (what must be durable in a given order is never passed
    together). On a journaling filesystem the first fsync commits every change made so far, so the others find
    little left to do; fsyncs in parallel threads were measured to cost more CPU and more wall time (benchmarks/:
    a mail batch), the threads' start included."""
    for fd in fds:
        os.fsync(fd)


def write_atomic(path, text: str, mode: int = 0o644, durable: bool = True) -> None:
    """One file replaced atomically (temp file, fsync, rename): for files outside a game's transaction."""
    write_atomic_together({path: text}, mode, durable)


def write_atomic_together(texts: dict, mode: int = 0o644, durable: bool = True) -> None:
    """Files of one folder each replaced atomically (temp file, rename), with one fsync pass for all of them: every
    temp file is on disk before any is renamed, and the renames before this returns. `durable=False`: no fsync, for
    a record a crash may take back (still never half written)."""
    from pathlib import Path
    paths = [Path(path) for path in texts]
    folders = {path.parent for path in paths}
    if len(folders) != 1:
        raise ValueError("write_atomic_together: the files of one folder")  # a bug in the caller, never input
    folder = folders.pop()
    fd = open_root(folder)
    written = []
    try:
        try:
            for path, text in zip(paths, texts.values()):
                tmp = f".{path.name}.tmp{os.getpid()}"
                written.append(create_file(fd, tmp, text.encode("utf-8"), mode))
            if durable:
                sync_together(written)
            for path in paths:
                os.replace(f".{path.name}.tmp{os.getpid()}", path.name, src_dir_fd=fd, dst_dir_fd=fd)
            if durable:
                os.fsync(fd)
        except OSError as exc:
            raise PbemError(f"{paths[0] if len(paths) == 1 else folder}: cannot write ({exc.strerror})") from None
    finally:
        for opened in written:
            os.close(opened)
        os.close(fd)
