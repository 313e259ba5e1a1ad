"""Compiled schema checks kept between processes, so that a command loads them instead of compiling them.

Compiling a game's schemas (pbem.store.schemacheck) takes longer than a move's own work (~45 ms for Coal Baron's);
loading the compiled code takes a thirtieth of that. The first command that needs a set of schemas compiles it and keeps
the code object (marshal) in a file named after the set and a digest of everything that made it: the schemas' bytes, the
compiler's own source and the Python that compiled it. Change any of them and the name changes: a file is never used for
schemas it was not made from.

Where: in the user's cache folder (`$XDG_CACHE_HOME/pbem`, by default `~/.cache/pbem`), never in pbem's installed
folder (which may be read-only, and which an uninstall must leave empty); where that folder cannot be written,
nowhere, and every command compiles. The file runs as code, so it is believed only if the user running pbem wrote
it: owned by that user, writable by no one else, a plain file reached without a symbolic link, holding the digest
it is named after and as many bytes as it says. Anything else is ignored and the schemas are compiled (and the file
written again). A file is written whole under another name, fsynced and renamed into place, so a reader never sees
part of one. The newest few files of a set are kept (several installed pbems may share the folder), older ones
removed.
"""
from __future__ import annotations

import functools
import marshal
import os
import stat
import sys

from . import schemacheck, schemarefs

MAGIC = b"pbem-checks 2\n"
SUFFIX = ".checks"
DIGEST = 8  # bytes
HEADER = len(MAGIC) + DIGEST + 8  # the magic, the digest of the inputs, the payload's length
KEEP = 4  # files of one set kept: several installed pbems of one user may use the cache
LABEL_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")

try:  # the 64-bit SipHash CPython keys its hash-based bytecode with (PEP 552): a fifth of SHA-256's time
    from _imp import source_hash as _source_hash

    def _hash(data: bytes) -> bytes:
        return _source_hash(0x7062656D, data)
except ImportError:  # another Python
    from ..digests import sha256

    def _hash(data: bytes) -> bytes:
        return sha256(data).digest()[:DIGEST]


@functools.lru_cache(maxsize=None)
def _compiler_digest() -> bytes | None:
    """The compiler's source (its modules) and the Python running it: what the code compiled from a schema depends
    on."""
    try:
        sources = []
        for module in (schemacheck, schemarefs):
            with open(module.__file__, "rb") as handle:
                sources.append(handle.read())
        return _hash(MAGIC + sys.version.encode() + b"\0" + b"\0".join(sources))
    except (OSError, TypeError):  # no file (a frozen or zipped pbem): nothing to key the cache on
        return None


def digest(texts: dict[str, bytes]) -> bytes | None:
    """What the compiled checks of these schema files depend on (None: it cannot be known, keep nothing): a
    digest of the compiler's, then each file's name, length and bytes."""
    compiler = _compiler_digest()
    if compiler is None:
        return None
    return _hash(compiler + b"".join(b"\0%s\0%d\0%s" % (name.encode(), len(texts[name]), texts[name])
                                     for name in sorted(texts)))


def file_name(label: str, key: bytes) -> str:
    safe = label if 0 < len(label) <= 64 and LABEL_CHARACTERS.issuperset(label) else "schemas"
    return f"{safe}-{key.hex()}{SUFFIX}"


def folder() -> str | None:
    """The user's cache folder for pbem, or None where there is none."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative: ignored, as the XDG specification asks
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "pbem")


def read(path: str, key: bytes) -> bytes | None:
    """The payload of a kept file, if it may be believed (see the module's docstring); else None."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
            return None
        with os.fdopen(os.dup(descriptor), "rb") as handle:
            data = handle.read(HEADER + 16 * 1024 * 1024)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    payload = data[HEADER:]
    if data[:len(MAGIC)] != MAGIC or data[len(MAGIC):len(MAGIC) + DIGEST] != key \
            or int.from_bytes(data[len(MAGIC) + DIGEST:HEADER], "big") != len(payload):
        return None
    return payload


def write(where: str, name: str, key: bytes, payload: bytes) -> None:
    """Keep a payload as where/name (a new file renamed into place: a reader sees all of it or none), and only the
    newest few files of its set; nothing if the folder cannot be written."""
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
        temporary = os.path.join(where, f".{name}.{os.getpid()}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(MAGIC + key + len(payload).to_bytes(8, "big") + payload)
                handle.flush()
                os.fsync(handle.fileno())  # all of it on disk before its name: a crash leaves no torn file
            os.replace(temporary, os.path.join(where, name))
        except BaseException:
            os.unlink(temporary)
            raise
        _prune(where, name)
    except OSError:
        pass


def _prune(where: str, name: str) -> None:
    """Remove the files of `name`'s set but the newest KEEP (by when they were written)."""
    label = name.rsplit("-", 1)[0]
    ours = []
    for other in os.listdir(where):
        if other.endswith(SUFFIX) and other.rsplit("-", 1)[0] == label:
            info = os.lstat(os.path.join(where, other))
            if info.st_uid == os.geteuid():
                ours.append((info.st_mtime_ns, other))
    for _, other in sorted(ours, reverse=True)[KEEP:]:
        if other != name:
            os.unlink(os.path.join(where, other))


def checks(label: str, texts: dict[str, bytes]) -> dict[str, schemacheck.Check]:
    """The check of each schema file of a set (name -> its bytes; the names are those its $refs use), loaded from
    a kept file when one may be believed, else compiled (and kept for the next command)."""
    key, where = digest(texts), folder()
    if key is None or where is None:
        return schemacheck.load(schemacheck.compile_checks(_parsed(texts)))
    name = file_name(label, key)
    payload = read(os.path.join(where, name), key)
    if payload is not None:
        try:
            return schemacheck.load(marshal.loads(payload))
        except Exception:  # a file that still matched but does not load: compile instead
            pass
    code = schemacheck.compile_checks(_parsed(texts))
    write(where, name, key, marshal.dumps(code))
    return schemacheck.load(code)


def _parsed(texts: dict[str, bytes]) -> dict[str, dict]:
    import json
    return {name: json.loads(text) for name, text in texts.items()}
