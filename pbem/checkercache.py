"""Compiled schema checks kept between processes, so that a command loads them instead of compiling them.

Compiling a game's schemas (pbem.schemacheck) takes about as long as a move's own work; loading the compiled code
takes a fiftieth of that. The first command that needs a set of schemas compiles it and keeps the code object
(marshal) in a file named after the set and a digest of everything that made it: the schemas' bytes, the
compiler's own source and the Python that compiled it. Change any of them and the name changes: a file is never
used for schemas it was not made from.

Where: beside the schemas, in `__pycache__` (as Python keeps its bytecode) when pbem's folder may be written;
else in the user's cache folder (`$XDG_CACHE_HOME/pbem`, by default `~/.cache/pbem`); else nowhere (every
command compiles, as before). The file runs as code, so it is believed only if it was written by someone who could
change pbem's code anyway: its owner must be the user running pbem or the owner of pbem's installed folder, no
one else may write it, it is a plain file reached without a symbolic link, and it holds the digest it is named
after and as many bytes as it says. Anything else is ignored and the schemas are compiled (and the file written
again where it may be). A file is written whole under another name, fsynced and renamed into place, so a reader
never sees part of one.
"""
from __future__ import annotations

import functools
import marshal
import os
import stat
import sys

from . import schemacheck

MAGIC = b"pbem-checks 2\n"
SUFFIX = ".checks"
DIGEST = 8  # bytes
HEADER = len(MAGIC) + DIGEST + 8  # the magic, the digest of the inputs, the payload's length
LABEL_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")

try:  # the 64-bit SipHash CPython keys its hash-based bytecode with (PEP 552): a fifth of SHA-256's time
    from _imp import source_hash as _source_hash

    def _hash(data: bytes) -> bytes:
        return _source_hash(0x7062656D, data)
except ImportError:  # another Python
    from .digests import sha256

    def _hash(data: bytes) -> bytes:
        return sha256(data).digest()[:DIGEST]


@functools.lru_cache(maxsize=None)
def _compiler_digest() -> bytes | None:
    """The compiler's source and the Python running it: what the code compiled from a schema depends on."""
    try:
        with open(schemacheck.__file__, "rb") as handle:
            return _hash(MAGIC + sys.version.encode() + b"\0" + handle.read())
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


def places(beside: str | None) -> list[str]:
    """The folders tried, in order: `beside`'s __pycache__ (when given), then the user's cache folder."""
    found = [os.path.join(beside, "__pycache__")] if beside else []
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        base = os.path.join(home, ".cache") if os.path.isabs(home) else ""
    if base:
        found.append(os.path.join(base, "pbem"))
    return found


def trusted_owners() -> set[int]:
    """Whoever could change pbem's code: the user running it, and the owner of its installed folder."""
    owners = {os.geteuid()}
    try:
        owners.add(os.stat(os.path.dirname(os.path.abspath(schemacheck.__file__))).st_uid)
    except (OSError, TypeError):
        pass
    return owners


def read(path: str, key: bytes, owners: set[int]) -> bytes | None:
    """The payload of a kept file, if it may be believed (see the module's docstring); else None."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_uid not in owners or info.st_mode & 0o022:
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


def write(folder: str, name: str, key: bytes, payload: bytes, prune: bool) -> bool:
    """Keep a payload as folder/name (a new file renamed into place: a reader sees all of it or none); False if the
    folder cannot be written. With `prune`, the older files of the same set in that folder are removed (beside
    the schemas: one installed pbem uses that folder; the user's cache may serve several)."""
    try:
        os.makedirs(folder, mode=0o755 if folder.endswith("__pycache__") else 0o700, exist_ok=True)
        temporary = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(MAGIC + key + len(payload).to_bytes(8, "big") + payload)
                handle.flush()
                os.fsync(handle.fileno())  # all of it on disk before its name: a crash leaves no torn file
            os.chmod(temporary, 0o644)  # readable by everyone who may run this pbem, whatever the umask
            os.replace(temporary, os.path.join(folder, name))
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        return False
    label = name.rsplit("-", 1)[0]
    for other in os.listdir(folder) if prune else ():
        if other.endswith(SUFFIX) and other.rsplit("-", 1)[0] == label and other != name:
            try:
                os.unlink(os.path.join(folder, other))
            except OSError:
                pass
    return True


def checks(label: str, texts: dict[str, bytes], beside: str | None) -> dict[str, schemacheck.Check]:
    """The check of each schema file of a set (name -> its bytes; the names are those its $refs use), loaded from
    a kept file when one may be believed, else compiled (and kept for the next command where it may be)."""
    key = digest(texts)
    if key is None:
        return schemacheck.load(schemacheck.compile_checks(_parsed(texts)))
    name, folders, owners = file_name(label, key), places(beside), trusted_owners()
    for folder in folders:
        payload = read(os.path.join(folder, name), key, owners)
        if payload is not None:
            try:
                return schemacheck.load(marshal.loads(payload))
            except Exception:  # a file of another build that still matched: compile instead
                break
    code = schemacheck.compile_checks(_parsed(texts))
    payload = marshal.dumps(code)
    for index, folder in enumerate(folders):
        if write(folder, name, key, payload, prune=index == 0 and beside is not None):
            break
    return schemacheck.load(code)


def _parsed(texts: dict[str, bytes]) -> dict[str, dict]:
    import json
    return {name: json.loads(text) for name, text in texts.items()}
