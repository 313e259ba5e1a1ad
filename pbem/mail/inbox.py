"""Mailboxes of waiting moves: a Maildir, an mbox file or an IMAP folder, handled in arrival order.

Each message is handled exactly once, even when a run is killed and started again: the ledger (ledger.py) knows
every Message-ID handled, and a handled message is moved aside —

- Maildir: from new/ into cur/ with the Seen flag (messages already in cur/ without it are handled too);
- mbox: appended to PATH.processed and removed from PATH (rewritten atomically at the end of the batch);
- IMAP: flagged \\Seen and moved into a folder (default `pbem-processed`, created when missing).

A message that cannot be handled because of trouble on the referee's side stays where it is and is reported; the
batch goes on with the next one.
"""
from __future__ import annotations

import os
import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from ..contract import PbemError, UsageError
from . import parse
from .batches import Waiting, handle_all
from .commands import Referee
from .outcome import Outcome

if TYPE_CHECKING:  # the mbox and IMAP modules are imported by the functions that read those boxes: a Maildir, the
    import imaplib  # common case, never needs them, and a run's start is the part workers do not share
    import mailbox

HEADER_BYTES = 64 * 1024


# ---------------------------------------------------------------- Maildir

def _maildir_items(path: Path) -> Iterator[Waiting]:
    for sub in ("new", "cur", "tmp"):
        if not (path / sub).is_dir():
            raise UsageError(f"--maildir {path}: not a Maildir (no {sub}/)")
    found = []
    for sub in ("new", "cur"):
        for name in os.listdir(path / sub):
            if name.startswith("."):
                continue
            unique, _, info = name.partition(":")
            if sub == "cur" and "S" in info.partition(",")[2]:
                continue  # seen: handled (by us or read by a person)
            try:
                stat = os.stat(path / sub / name)
            except FileNotFoundError:
                continue
            found.append((stat.st_mtime_ns, unique, sub, name, stat.st_size))
    for _, unique, sub, name, size in sorted(found):
        file = path / sub / name
        try:
            with open(file, "rb") as handle:
                raw = handle.read(parse.MAX_MESSAGE_BYTES + 1 if size <= parse.MAX_MESSAGE_BYTES else HEADER_BYTES)
        except FileNotFoundError:
            continue  # another program took it meanwhile

        def done(file=file, unique=unique, name=name):
            info = name.partition(":")[2]
            flags = info.partition(",")[2] if info.startswith("2,") else ""
            target = path / "cur" / f"{unique}:2,{''.join(sorted(set(flags) | {'S'}))}"
            os.replace(file, target)
        yield Waiting(raw, size, f"maildir:{unique}", done)


def maildir(referee: Referee, path, workers: int = 1) -> list[Outcome]:
    return handle_all(referee, _maildir_items(Path(path)), workers)


# ---------------------------------------------------------------- mbox

def mbox(referee: Referee, path, workers: int = 1) -> list[Outcome]:
    import mailbox
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"--mbox {path}: no such file")
    box = mailbox.mbox(path, create=False)
    processed = mailbox.mbox(path.with_name(path.name + ".processed"), create=True)
    box.lock()
    try:
        moved = []
        outcomes = handle_all(referee, _mbox_items(box, moved), workers)
        if moved:
            processed.lock()
            try:
                for _, raw in moved:
                    processed.add(mailbox.mboxMessage(raw))
                processed.flush()
            finally:
                processed.unlock()
            for key, _ in moved:
                box.remove(key)
            box.flush()  # rewritten into a new file and renamed: a crash leaves the old or the new mbox
    finally:
        box.unlock()
        box.close()
        processed.close()
    return outcomes


def _mbox_items(box: mailbox.mbox, moved: list) -> Iterator[Waiting]:
    """The messages of the mbox; each one handled is added to `moved` (the mbox is rewritten at the end)."""
    from .. import digests
    for key in list(box.keys()):
        raw = box.get_bytes(key)
        digest = digests.sha256(raw).hexdigest()
        yield Waiting(raw[:parse.MAX_MESSAGE_BYTES + 1], len(raw), f"mbox:{digest}",
                      lambda key=key, raw=raw: moved.append((key, raw)))


# ---------------------------------------------------------------- IMAP

@dataclass
class ImapUrl:
    secure: bool
    host: str
    port: int
    user: str
    password: str
    folder: str

    @classmethod
    def parse(cls, url: str) -> "ImapUrl":
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("imap", "imaps") or not parts.hostname:
            raise UsageError(f"--imap {url!r}: write imap://USER@HOST[:PORT]/FOLDER (or imaps://...)")
        user = urllib.parse.unquote(parts.username or "") or os.environ.get("PBEM_IMAP_USER", "")
        password = urllib.parse.unquote(parts.password or "") or os.environ.get("PBEM_IMAP_PASSWORD", "")
        if not user or not password:
            raise UsageError("--imap: give the user in the URL and the password in PBEM_IMAP_PASSWORD")
        folder = urllib.parse.unquote(parts.path.lstrip("/")) or "INBOX"
        secure = parts.scheme == "imaps"
        try:
            port = parts.port or (993 if secure else 143)
        except ValueError:
            raise UsageError(f"--imap {url!r}: bad port") from None
        return cls(secure, parts.hostname, port, user, password, folder)


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ok(result, what: str):
    status, data = result
    if status != "OK":
        answer = b" ".join(d for d in data if isinstance(d, bytes)).decode(errors="replace")
        raise PbemError(f"IMAP {what} failed: {answer}")
    return data


def _connect(url: ImapUrl) -> imaplib.IMAP4:
    import imaplib
    import ssl
    context = ssl.create_default_context(cafile=os.environ.get("PBEM_IMAP_CAFILE") or None)
    try:
        if url.secure:
            client = imaplib.IMAP4_SSL(url.host, url.port, ssl_context=context, timeout=30)
        else:
            client = imaplib.IMAP4(url.host, url.port, timeout=30)
            mode = os.environ.get("PBEM_IMAP_STARTTLS", "auto").lower()
            if mode not in ("0", "no", "off") and "STARTTLS" in client.capabilities:
                client.starttls(ssl_context=context)
            elif mode in ("1", "yes", "on"):
                raise PbemError(f"the IMAP server {url.host}:{url.port} offers no STARTTLS")
            elif url.host not in ("127.0.0.1", "::1", "localhost") and mode not in ("0", "no", "off"):
                raise PbemError(f"refusing to send the IMAP password to {url.host} unencrypted (the server offers "
                                f"no STARTTLS): use imaps://, or PBEM_IMAP_STARTTLS=0 on a trusted network")
        client.login(url.user, url.password)
    except imaplib.IMAP4.error as exc:
        raise PbemError(f"IMAP login to {url.host}:{url.port} as {url.user} failed ({exc})") from None
    except (OSError, ssl.SSLError) as exc:
        raise PbemError(f"cannot connect to the IMAP server {url.host}:{url.port} ({exc})") from None
    return client


def imap(referee: Referee, url_text: str, processed: str = "pbem-processed", workers: int = 1) -> list[Outcome]:
    """The folder's messages, fetched and moved aside over one connection (this process's, with workers too: the
    workers handle what it fetched: pbem.mail.batches)."""
    import imaplib
    url = ImapUrl.parse(url_text)
    client = _connect(url)
    try:
        _ok(client.select(_quote(url.folder)), f"select {url.folder}")
        validity = (client.response("UIDVALIDITY")[1] or [b"0"])[0]
        validity = validity.decode() if isinstance(validity, bytes) else str(validity)
        status, _ = client.create(_quote(processed))  # an error here means it exists: fine
        status, data = client.capability()  # what the server offers once logged in (MOVE, UIDPLUS)
        can_move = status == "OK" and b"MOVE" in b" ".join(d for d in data if isinstance(d, bytes)).upper().split()
        uids = _ok(client.uid("SEARCH", None, "UNDELETED"), "search")[0].split()
        items = _imap_items(client, [uid.decode() for uid in sorted(uids, key=int)],
                            f"imap:{url.host}/{url.folder}:{validity}", processed, can_move)
        outcomes = handle_all(referee, items, workers)
        if not can_move:
            client.expunge()
    except imaplib.IMAP4.error as exc:
        raise PbemError(f"IMAP {url.host}:{url.port}: {exc}") from None
    finally:
        try:
            client.logout()
        except (OSError, imaplib.IMAP4.error):
            pass
    return outcomes


def _imap_items(client: imaplib.IMAP4, uids: list[str], where: str, processed: str, can_move: bool
                ) -> Iterator[Waiting]:
    """Each message fetched (only its head when it is too large to read), moved aside into `processed` when done."""
    for uid in uids:
        data = _ok(client.uid("FETCH", uid, "(RFC822.SIZE)"), "fetch size")
        match = re.search(rb"RFC822\.SIZE (\d+)", b" ".join(d if isinstance(d, bytes) else d[0] for d in data if d))
        size = int(match.group(1)) if match else 0
        part = "BODY.PEEK[HEADER]" if size > parse.MAX_MESSAGE_BYTES else "BODY.PEEK[]"
        data = _ok(client.uid("FETCH", uid, f"({part})"), "fetch")
        raw = next((d[1] for d in data if isinstance(d, tuple)), b"")

        def done(uid=uid):
            _ok(client.uid("STORE", uid, "+FLAGS", r"(\Seen)"), "store \\Seen")
            if can_move:
                _ok(client.uid("MOVE", uid, _quote(processed)), f"move to {processed}")
            else:
                _ok(client.uid("COPY", uid, _quote(processed)), f"copy to {processed}")
                _ok(client.uid("STORE", uid, "+FLAGS", r"(\Deleted)"), "store \\Deleted")
        yield Waiting(raw, size, f"{where}:{uid}", done)
