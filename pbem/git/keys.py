"""Encryption with age (the pyrage binding): to a player's SSH public key (ssh-ed25519, ssh-rsa) or age key.

What is committed encrypted: each player's view (to that player), a move with a hidden choice (to the referee),
and, for a referee that runs in CI, the referee's own files (to the referee). Everything is ASCII-armored so a
repository holds text only.
"""
from __future__ import annotations

import gzip
import hashlib
import re
import zlib

from ..contract import PbemError
from ..store.safefiles import read_bounded

SSH_TYPES = ("ssh-ed25519", "ssh-rsa")
AGE_RECIPIENT = re.compile(r"age1[02-9ac-hj-np-z]{58}")
AGE_IDENTITY = re.compile(r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}")
ARMOR_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
MAX_IDENTITY_BYTES = 64 * 1024
MAX_PLAIN = 4 * 1024 * 1024
GZIP_MAGIC = b"\x1f\x8b"


def _pyrage():
    import pyrage  # imported on use: only the git transport needs it
    return pyrage


def parse_recipient(text: str, source: str) -> str:
    """A public key in its canonical one-line form ("ssh-ed25519 AAAA..." without the comment, or "age1...")."""
    words = text.strip().split()
    if len(words) == 1 and AGE_RECIPIENT.fullmatch(words[0]):
        key = words[0]
    elif len(words) >= 2 and words[0] in SSH_TYPES:
        key = f"{words[0]} {words[1]}"
    else:
        raise PbemError(f"{source}: not an SSH public key (ssh-ed25519 or ssh-rsa) nor an age public key (age1...)")
    try:
        _recipient(key)
    except PbemError:
        raise PbemError(f"{source}: the key does not decode (a damaged or truncated public key)") from None
    return key


def is_ssh(recipient: str) -> bool:
    return recipient.split()[0] in SSH_TYPES


def _recipient(key: str):
    pyrage = _pyrage()
    try:
        if is_ssh(key):
            return pyrage.ssh.Recipient.from_str(key)
        return pyrage.x25519.Recipient.from_str(key)
    except Exception as exc:  # noqa: BLE001 — pyrage raises its own types and ValueError alike
        raise PbemError(f"bad public key: {exc}") from None


def encrypt(text: str, recipients: list[str], compress: bool = False) -> str:
    """Armored age ciphertext of `text` that only the holders of these keys can read; `compress`: gzip it first
    (a view is re-encrypted at every move, and ciphertext does not compress in git: `age -d ... | gunzip`)."""
    data = text.encode("utf-8")
    if compress:
        data = gzip.compress(data, mtime=0)
    return _pyrage().encrypt(data, [_recipient(key) for key in recipients], armored=True).decode("ascii")


class Identity:
    """A private key read from a file or a CI secret: an age identity or an unencrypted OpenSSH private key."""

    def __init__(self, text: str, source: str):
        self.source = source
        self.text = text.strip()
        pyrage = _pyrage()
        found = AGE_IDENTITY.search(self.text)
        try:
            if found:
                self._identity = pyrage.x25519.Identity.from_str(found.group())
                self.recipient = str(self._identity.to_public())
            elif "OPENSSH PRIVATE KEY" in self.text or "RSA PRIVATE KEY" in self.text:
                self._identity = pyrage.ssh.Identity.from_buffer(self.text.encode() + b"\n")
                self.recipient = None  # an SSH private key file does not say its public key; not needed here
            else:
                raise PbemError(f"{source}: not an age identity (AGE-SECRET-KEY-1...) nor an OpenSSH private key")
        except PbemError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise PbemError(f"{source}: cannot use this private key ({exc}); a key protected by a passphrase "
                            f"cannot be used: give an unprotected copy or an age identity") from None

    @classmethod
    def from_file(cls, path) -> "Identity":
        return cls(read_bounded(path, MAX_IDENTITY_BYTES).decode("utf-8", "replace"), str(path))

    def decrypt(self, armored: str | bytes, what: str) -> str:
        data = armored.encode("ascii", "replace") if isinstance(armored, str) else armored
        if not data.lstrip().startswith(ARMOR_BEGIN.encode()):
            raise PbemError(f"{what}: not an age-encrypted file")
        try:
            plain = _pyrage().decrypt(data, [self._identity])
        except Exception as exc:  # noqa: BLE001
            raise PbemError(f"{what}: cannot decrypt it with {self.source} ({exc})") from None
        if plain.startswith(GZIP_MAGIC):
            try:
                plain = zlib.decompressobj(wbits=31).decompress(plain, MAX_PLAIN + 1)
            except zlib.error:
                raise PbemError(f"{what}: decrypted, but the compressed text inside is damaged") from None
        if len(plain) > MAX_PLAIN:
            raise PbemError(f"{what}: more than {MAX_PLAIN} bytes once decrypted")
        try:
            return plain.decode("utf-8")
        except UnicodeDecodeError:
            raise PbemError(f"{what}: decrypted, but not UTF-8 text") from None

    @property
    def ssh_private_key(self) -> str | None:
        """The OpenSSH private key text when this identity is one (it can then sign commits), else None."""
        return self.text + "\n" if "OPENSSH PRIVATE KEY" in self.text else None

    def mac_key(self) -> bytes:
        """A key only this identity's holder has: it authenticates what the referee encrypted to itself (age
        proves nothing about who encrypted a file, since anyone may encrypt to a public key)."""
        return hashlib.sha256(b"pbem-referee-archive\x00" + self.text.encode("utf-8")).digest()


def new_ssh_key(path=None) -> tuple[str, str]:
    """A fresh unprotected OpenSSH ed25519 key (private text, public line "ssh-ed25519 AAAA..."), made by
    ssh-keygen; written to `path` and `path`.pub when given (mode 0600), else only returned. The referee signs its
    commits with it (and a referee in CI also decrypts with it)."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path
    if shutil.which("ssh-keygen") is None:
        raise PbemError("ssh-keygen is not installed: the referee signs its commits with an SSH key, which "
                        "ssh-keygen (OpenSSH's client tools) makes and uses")
    with tempfile.TemporaryDirectory(prefix="pbem-key-") as tmp:
        target = Path(path) if path is not None else Path(tmp) / "key"
        done = subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "pbem referee", "-f",
                               str(target)], capture_output=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise PbemError(f"ssh-keygen could not make the referee's key: "
                            f"{done.stderr.decode('utf-8', 'replace').strip()}")
        private = target.read_text(encoding="utf-8")
        public = parse_recipient(target.with_name(target.name + ".pub").read_text(encoding="utf-8"), "the new key")
    return private, public


def new_identity() -> tuple[str, str]:
    """A fresh age identity (secret text, public recipient): the local referee's key for hidden moves."""
    identity = _pyrage().x25519.Identity.generate()
    return str(identity), str(identity.to_public())
