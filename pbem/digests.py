"""SHA-256, HMAC-SHA256 and a constant-time comparison, without importing hashlib.

`import hashlib` (and hmac, which imports it) initialises OpenSSL: about 4 ms in every process, a twentieth of
the bare imports a `pbem move` is measured against (benchmarks/). CPython's own SHA-256 (the built-in module
`_sha256`, `_sha2` from Python 3.12) gives the same digests, and HMAC (RFC 2104) is two hashes over it. Where
neither built-in exists, hashlib, hmac and their comparison are used. A test checks both against hashlib and hmac.

A process that handles many mails (a batch of `pbem mail inbox`, its workers) takes OpenSSL's SHA-256 once it has
more than one (`for_many`): once started it hashes about five times as fast (a mail's move is a bundle
HMAC-signed and a state file hashed twice: ~5% of a mail's instructions with the built-in), which pays for its
start within the second mail.
"""
from __future__ import annotations

try:
    from _sha256 import sha256
except ImportError:  # Python 3.12 and later
    try:
        from _sha2 import sha256
    except ImportError:
        from hashlib import sha256
try:
    from _operator import _compare_digest as same  # what hmac.compare_digest is when OpenSSL's is not loaded
except ImportError:
    from hmac import compare_digest as same

BLOCK = 64  # SHA-256's block size in bytes
_INNER = bytes(byte ^ 0x36 for byte in range(256))
_OUTER = bytes(byte ^ 0x5C for byte in range(256))


def for_many() -> None:
    """SHA-256 by OpenSSL (hashlib) from now on in this process, for what hashes much (see above). The digests are
    the same; a module that took `sha256` by name keeps the built-in."""
    global sha256
    from hashlib import sha256


def hmac_sha256(key: bytes, message: bytes) -> str:
    """HMAC-SHA256 of `message` (hexadecimal), as hmac.new(key, message, hashlib.sha256).hexdigest()."""
    if len(key) > BLOCK:
        key = sha256(key).digest()
    key = key.ljust(BLOCK, b"\0")
    inner = sha256(key.translate(_INNER) + message).digest()
    return sha256(key.translate(_OUTER) + inner).hexdigest()


__all__ = ["for_many", "hmac_sha256", "same", "sha256"]
