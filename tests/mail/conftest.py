"""Fixtures of the mail tests: real servers on 127.0.0.1 (aiosmtpd receiving the referee's replies, a private
dovecot serving IMAP) and games created through the CLI with players' addresses. Helpers live in mailkit.py."""
from __future__ import annotations

import grp
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from support import load_helpers

load_helpers("mailkit", Path(__file__).parent)

from mailkit import (DOVECOT_CONF, Dovecot, MailGame, SmtpSink, create_game, free_port, mail_games,  # noqa: E402
                     make_certificate)


@pytest.fixture
def smtp():
    with SmtpSink.running() as sink:
        yield sink


def _run_dovecot(tls: bool):
    binary = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)
    if binary is None:
        pytest.skip("the dovecot binary is absent (CI installs it: .ci/system-setup.sh runs apt-get install "
                    "dovecot-imapd)")
    # not under pytest's temporary directory: that is private to us (0700), and dovecot's own users must read the
    # password file and (as nobody) the mail directories
    base = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    base.chmod(0o755)
    for sub in ("run", "state", "home"):
        (base / sub).mkdir()
    if os.geteuid() == 0:  # dovecot refuses to serve mail as root: the mail user is nobody
        internal, group, login, uid, gid = "dovecot", "dovecot", "dovenull", 65534, 65534
        os.chown(base / "home", uid, gid)
    else:  # a rootless dovecot: every service runs as us
        me = pwd.getpwuid(os.getuid()).pw_name
        internal, group, login, uid, gid = me, grp.getgrgid(os.getgid()).gr_name, me, os.getuid(), os.getgid()
    (base / "passwd").write_text(f"{Dovecot.user}:{{PLAIN}}{Dovecot.password}::::::\n")
    port, imaps_port, ssl = free_port(), 0, "ssl = no"
    if tls:
        make_certificate(base)
        imaps_port = free_port()
        ssl = f"ssl = yes\nssl_cert = <{base}/cert.pem\nssl_key = <{base}/key.pem"
    conf = base / "dovecot.conf"
    conf.write_text(DOVECOT_CONF.format(base=base, internal=internal, group=group, login=login, uid=uid, gid=gid,
                                         port=port, imaps_port=imaps_port, ssl=ssl))
    process = subprocess.Popen([binary, "-F", "-c", str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                log = (base / "dovecot.log").read_text() if (base / "dovecot.log").exists() else ""
                out = process.stdout.read().decode(errors="replace") if process.stdout else ""
                shutil.rmtree(base, ignore_errors=True)
                pytest.fail(f"dovecot did not start: {out}\n{log}")
            time.sleep(0.05)
    try:
        yield Dovecot(base, port, process, imaps_port)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def dovecot():
    """A private dovecot on 127.0.0.1 serving IMAP without TLS."""
    yield from _run_dovecot(tls=False)


@pytest.fixture
def dovecot_tls():
    """A private dovecot with a self-signed certificate: IMAPS, and STARTTLS on plain IMAP."""
    yield from _run_dovecot(tls=True)


@pytest.fixture
def games_root(tmp_path) -> Path:
    root = tmp_path / "games"
    root.mkdir()
    return root


@pytest.fixture(scope="session")
def _template_game(tmp_path_factory):
    """One new game, made once through the CLI; each test gets a fresh copy of its files."""
    games = mail_games()
    if not games:
        return None
    root = tmp_path_factory.mktemp("template")
    return create_game(root, games[0].id)


@pytest.fixture
def mail_game(games_root, _template_game):
    """A new game of the first registered game that is playable, in the test's own games root."""
    if _template_game is None:
        pytest.skip("no registered game has its rules and report yet")
    shutil.copytree(_template_game.dir, games_root / _template_game.id, symlinks=True)
    return MailGame(games_root, _template_game.id, _template_game.players)


@pytest.fixture(autouse=True)
def _clean_smtp_env(monkeypatch):
    for name in ("PBEM_SMTP_USER", "PBEM_SMTP_PASSWORD", "PBEM_SMTP_STARTTLS", "PBEM_SMTP_SSL", "PBEM_SMTP_CAFILE",
                 "PBEM_SMTP_TIMEOUT", "PBEM_FROM", "PBEM_IMAP_USER", "PBEM_IMAP_PASSWORD", "PBEM_IMAP_STARTTLS",
                 "PBEM_IMAP_CAFILE"):
        monkeypatch.delenv(name, raising=False)
