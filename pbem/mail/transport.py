"""Sending the referee's mail: through an SMTP server (STARTTLS and login where configured) or into a Maildir.

SMTP settings, besides `--smtp HOST:PORT`:

    PBEM_SMTP_USER, PBEM_SMTP_PASSWORD   log in (only ever over an encrypted connection, unless the server is on
                                         this machine: 127.0.0.1, ::1 or localhost)
    PBEM_SMTP_STARTTLS                   "auto" (default: when the server offers it), "1" (required), "0" (never)
    PBEM_SMTP_SSL=1                      TLS from the first byte (port 465 implies it)
    PBEM_SMTP_CAFILE                     a CA file to check the server's certificate against (a club's own CA)
    PBEM_SMTP_TIMEOUT                    seconds (default 30)
"""
from __future__ import annotations

import contextlib
import functools
import os
import socket
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING

from .. import digests
from ..contract import PbemError, UsageError
from ..store import safefiles

if TYPE_CHECKING:
    import ssl

LOCAL_HOSTS = {"127.0.0.1", "::1", "localhost"}


class Refused(PbemError):
    """The mail server was reached and refused this mail (its recipients, its content), not every mail: a referee
    in CI sends the other mails it owes (pbem.git.cimail)."""


def refused_for_good(exc: smtplib.SMTPRecipientsRefused | smtplib.SMTPDataError) -> bool:
    """A permanent refusal (RFC 5321 4.2.1: a 5yz reply, for every recipient), not a 4yz one to try again later."""
    import smtplib
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return bool(exc.recipients) and all(code >= 500 for code, _ in exc.recipients.values())
    return exc.smtp_code >= 500


def parse_hostport(spec: str, default_port: int = 25) -> tuple[str, int]:
    spec = spec.strip()
    if spec.startswith("["):  # [::1]:25
        host, _, rest = spec[1:].partition("]")
        port = rest.lstrip(":") or str(default_port)
    elif spec.count(":") == 1:
        host, port = spec.split(":")
    else:
        host, port = spec, str(default_port)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--smtp {spec!r}: write HOST:PORT (for example mail.example.org:587)")
    return host, int(port)


def _flag(name: str, default: str) -> str:
    value = os.environ.get(name, default).strip().lower()
    return {"yes": "1", "true": "1", "on": "1", "no": "0", "false": "0", "off": "0"}.get(value, value)


def _recipients(msg: EmailMessage) -> list[str]:
    import email.utils
    return [addr for _, addr in email.utils.getaddresses(msg.get_all("To", []) + msg.get_all("Cc", [])) if addr]


@dataclass
class Smtp:
    host: str
    port: int
    user: str | None = None
    password: str | None = None
    starttls: str = "auto"  # auto | 1 | 0
    tls: bool = False
    cafile: str | None = None
    timeout: float = 30.0

    @classmethod
    def from_spec(cls, spec: str, user: str | None = None, starttls: str | None = None) -> "Smtp":
        host, port = parse_hostport(spec)
        mode = (starttls or _flag("PBEM_SMTP_STARTTLS", "auto"))
        if mode not in ("auto", "1", "0"):
            raise UsageError("PBEM_SMTP_STARTTLS: auto, 1 or 0")
        try:
            timeout = float(os.environ.get("PBEM_SMTP_TIMEOUT", "30"))
        except ValueError:
            raise UsageError("PBEM_SMTP_TIMEOUT: a number of seconds") from None
        return cls(host, port, user or os.environ.get("PBEM_SMTP_USER") or None,
                   os.environ.get("PBEM_SMTP_PASSWORD") or None, mode,
                   _flag("PBEM_SMTP_SSL", "0") == "1" or port == 465, os.environ.get("PBEM_SMTP_CAFILE") or None,
                   timeout)

    def _context(self) -> ssl.SSLContext:
        import ssl
        return ssl.create_default_context(cafile=self.cafile)

    def describe(self) -> str:
        return f"SMTP {self.host}:{self.port}"

    def prepare(self) -> None:
        """Nothing to make ready: whether the server answers is known only when there is mail to send."""

    def hold(self) -> None:
        """Nothing to hold: a mail is sent at once, and the server's acceptance is what makes it safe."""

    def flush(self) -> None:
        """Nothing held (see `hold`)."""

    def release(self) -> None:
        """Nothing held (see `hold`)."""

    def send(self, messages: list[EmailMessage], once: bool = False) -> list[str]:
        """Send every message over one connection; returns the addresses that accepted a mail. (`once` changes
        nothing here: a server keeps no list of what it took; the mail ledger does, see Referee.send_owed.)"""
        if not messages:
            return []
        import smtplib  # with ssl, only when there is mail to send by SMTP: an outbox run never needs them
        import ssl
        try:
            if self.tls:
                client = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=self._context())
            else:
                client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        except (OSError, smtplib.SMTPException) as exc:
            raise PbemError(f"cannot connect to the SMTP server {self.host}:{self.port} ({exc})") from None
        sent = []
        try:
            client.ehlo_or_helo_if_needed()
            encrypted = self.tls
            if not self.tls and self.starttls != "0":
                if client.has_extn("starttls"):
                    client.starttls(context=self._context())
                    client.ehlo()
                    encrypted = True
                elif self.starttls == "1":
                    raise PbemError(f"the SMTP server {self.host}:{self.port} does not offer STARTTLS "
                                    f"(PBEM_SMTP_STARTTLS=1 requires it)")
            if self.user:
                if not encrypted and self.host not in LOCAL_HOSTS:
                    raise PbemError(f"refusing to send the SMTP password to {self.host} unencrypted: the server "
                                    f"offers no STARTTLS (use port 465 or PBEM_SMTP_SSL=1)")
                if self.password is None:
                    raise UsageError("PBEM_SMTP_USER is set but PBEM_SMTP_PASSWORD is not")
                client.login(self.user, self.password)
            for msg in messages:
                refused = client.send_message(msg)
                sent += [addr for addr in _recipients(msg) if addr not in refused]
        except smtplib.SMTPAuthenticationError:
            raise PbemError(f"the SMTP server {self.host}:{self.port} refused the login of {self.user!r}") from None
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError) as exc:
            if not refused_for_good(exc):  # a 4xx (greylisting, a full queue): the same mail may go later
                raise PbemError(f"the SMTP server {self.host}:{self.port} put off a mail ({exc})") from None
            raise Refused(f"the SMTP server {self.host}:{self.port} refused a mail ({exc})") from None
        except ssl.SSLError as exc:
            raise PbemError(f"TLS with the SMTP server {self.host}:{self.port} failed ({exc.reason or exc})") from None
        except (OSError, smtplib.SMTPException) as exc:
            raise PbemError(f"sending through {self.host}:{self.port} failed ({exc})") from None
        finally:
            try:
                client.quit()
            except (OSError, smtplib.SMTPException):
                client.close()
        return sent


@dataclass
class Outbox:
    """A Maildir the mails are written into (new/), for another program to send or a person to read."""

    path: Path
    prepared: bool = field(default=False, repr=False, compare=False)  # its folders made and checked
    # in a batch (`hold`): the mails written into tmp/ and not yet fsynced nor put into new/ (`flush`)
    held: list[tuple[str, int, str]] | None = field(default=None, repr=False, compare=False)

    def describe(self) -> str:
        return f"outbox {self.path}"

    def prepare(self) -> None:
        """Make the outbox a Maildir (its new/, cur/ and tmp/ folders, in a missing or an existing folder: Python's
        mailbox creates them only with the folder itself) and check it can be written, before any game changes."""
        if self.prepared:
            return
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            for sub in ("tmp", "new", "cur"):
                (self.path / sub).mkdir(mode=0o700, exist_ok=True)
            probe = self.path / "tmp" / f".pbem-probe-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise PbemError(f"cannot use {self.path} as an outbox Maildir ({exc.strerror or exc})") from None
        self.prepared = True

    def hold(self) -> None:
        """From now on, keep the mails in tmp/ until `flush` puts them all into new/ at once (one fsync pass)."""
        if self.held is None:
            self.held = []

    def send(self, messages: list[EmailMessage], once: bool = False) -> list[str]:
        """Write the mails into new/ (in a batch, `hold`: into tmp/ until `flush`). `once`: each under a name made
        from its Message-ID, and not again while new/ holds it (a run killed after delivering a mail it owed, before
        recording that, makes it again)."""
        if not messages:
            return []
        self.prepare()
        if once:
            named = {_once_name(msg): msg for msg in messages}
            named = {name: msg for name, msg in named.items() if not (self.path / "new" / name).exists()}
            messages, names = list(named.values()), list(named)
        else:
            names = None
        try:
            written = _write_tmp(self.path, [msg.as_bytes(policy=_unix_lines(msg.policy)) for msg in messages],
                                 names)
            if self.held is None:
                _publish(self.path, written)
            else:
                self.held += written
        except OSError as exc:
            raise PbemError(f"cannot write to the outbox {self.path} ({exc.strerror or exc})") from None
        return [address for msg in messages for address in _recipients(msg)]

    def flush(self) -> None:
        """Put the mails held since `hold` (or the last flush) into new/, each on disk first. If that fails, the
        mails not yet in new/ are dropped: their messages get no done record, so the next run answers them."""
        if self.held:
            written, self.held = self.held, []
            try:
                _publish(self.path, written)
            except BaseException as exc:
                _discard(self.path, [name for name, _, _ in written])
                if isinstance(exc, OSError):
                    raise PbemError(f"cannot write to the outbox {self.path} ({exc.strerror or exc})") from None
                raise

    def release(self) -> None:
        """Deliver each mail at once again (mails still held, never flushed, are dropped as a failed flush's)."""
        held, self.held = self.held or [], None
        for _, fd, _ in held:
            os.close(fd)
        _discard(self.path, [name for name, _, _ in held])


@functools.lru_cache(maxsize=None)
def _unix_lines(policy):
    """The policy writing lines as a Maildir file has them (LF), made once per policy, not once per mail."""
    return policy.clone(linesep="\n")


_delivered = iter(range(1, 1 << 62))


def _host() -> str:
    return socket.gethostname().replace("/", r"\057").replace(":", r"\072")


def _once_name(msg: EmailMessage) -> str:
    """The name in new/ of a mail delivered once: made from its Message-ID (unique, as a Maildir name must be)."""
    digest = digests.sha256(str(msg["Message-ID"]).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return f"pbem-{digest}.{_host()}"


def _write_tmp(maildir: Path, mails: list[bytes], names: list[str] | None = None) -> list[tuple[str, int, str]]:
    """Maildir delivery's first half, as Python's mailbox does it: each mail written to tmp/ under a unique name.
    Returns (that name, an open descriptor, its name in new/: the same, or `names`') of each, for `_publish`."""
    host = _host()
    written = []
    try:
        for index, raw in enumerate(mails):
            now = time.time()
            name = f"{int(now)}.M{int(now % 1 * 1e6)}P{os.getpid()}Q{next(_delivered)}.{host}"
            fd = os.open(maildir / "tmp" / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            written.append((name, fd, name if names is None else names[index]))
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
    except BaseException:
        for _, fd, _ in written:
            os.close(fd)
        raise
    return written


def _publish(maildir: Path, written: list[tuple[str, int, str]]) -> None:
    """Maildir delivery's second half: every mail flushed to disk, then linked into new/ (and new/ flushed)."""
    try:
        safefiles.sync_together([fd for _, fd, _ in written])
    finally:
        for _, fd, _ in written:
            os.close(fd)
    for name, _, final in written:
        with contextlib.suppress(FileExistsError):  # a mail delivered once (`once`), there already
            os.link(maildir / "tmp" / name, maildir / "new" / final)
        os.unlink(maildir / "tmp" / name)
    folder = os.open(maildir / "new", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _discard(maildir: Path, names: list[str]) -> None:
    """Remove mails left in tmp/ (those already put into new/ are gone from there)."""
    for name in names:
        with contextlib.suppress(OSError):
            os.unlink(maildir / "tmp" / name)


def make(smtp: str | None, outbox, user: str | None = None, starttls: str | None = None):
    if smtp and outbox:
        raise UsageError("give one of --smtp HOST:PORT or --outbox MAILDIR, not both")
    if smtp:
        return Smtp.from_spec(smtp, user, starttls)
    if outbox:
        return Outbox(Path(outbox))
    raise UsageError("say how to send the referee's mail: --smtp HOST:PORT or --outbox MAILDIR")


def hostname() -> str:
    return socket.getfqdn() or "localhost"
