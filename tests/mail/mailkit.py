"""Helpers of the mail tests: real servers on 127.0.0.1 (aiosmtpd receiving the referee's replies, a private
dovecot serving IMAP), games created through the CLI with players' addresses, and players writing mail."""
from __future__ import annotations

import contextlib
import copy
import email
import email.policy
import email.utils
import json
import mailbox
import os
import random
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import bots
from pbem.cli.commands import cli
from pbem.engine import engine
from pbem.rng import Rng
from pbem.store import registry
from support import playable_games

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]  # the largest table (Chartered) seats six
ORGANISER = "referee@club.example"


def mail_games() -> list[registry.Game]:
    """Every registered game whose rules and report import (a game being written may not have them yet)."""
    return playable_games()


def game_params():
    """One pytest param per installed game (a game whose modules do not import fails the suite: playable_games)."""
    return [pytest.param(game.id, id=game.id) for game in playable_games()]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file of a game directory with its bytes (the lock aside): to prove a rejected mail changed nothing."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def run_cli(*args, input: bytes | None = None):
    """The CLI in-process, with main()'s mapping of errors to exit codes."""
    from click.exceptions import Exit
    from pbem.contract import PbemError
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input, standalone_mode=False)
    code = 0
    if result.exception is not None:
        if isinstance(result.exception, PbemError):
            code = result.exception.exit_code
        elif isinstance(result.exception, Exit):
            code = result.exception.exit_code
        elif isinstance(result.exception, SystemExit):
            code = result.exception.code or 0
        else:
            raise result.exception
    result.code = code
    return result


# ---------------------------------------------------------------- SMTP

class SmtpSink:
    """An aiosmtpd server on 127.0.0.1 that keeps every message it receives."""

    def __init__(self, **controller_args):
        from aiosmtpd.controller import Controller
        self.messages: list = []
        self.envelopes: list = []
        self.lock = threading.Lock()
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, **controller_args)

    @classmethod
    @contextlib.contextmanager
    def running(cls, *args, **kwargs):
        """A sink (made with these arguments) started for the `with` block and stopped after it."""
        sink = cls(*args, **kwargs)
        sink.controller.start()
        try:
            yield sink
        finally:
            sink.controller.stop()

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(msg)
            self.envelopes.append(envelope)
        return "250 OK"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def take(self) -> list:
        with self.lock:
            taken, self.messages = self.messages, []
            self.envelopes = []
        return taken

    def to(self, address: str) -> list:
        return [m for m in self.messages if address in m["To"]]


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (cert.pem, key.pem in `directory`), for the TLS test servers."""
    import shutil
    if not shutil.which("openssl"):
        pytest.skip("openssl is needed to make the test server's certificate")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


# ---------------------------------------------------------------- IMAP (dovecot)

DOVECOT_CONF = """\
base_dir = {base}/run
state_dir = {base}/state
log_path = {base}/dovecot.log
protocols = imap
listen = 127.0.0.1
{ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
default_internal_user = {internal}
default_internal_group = {group}
default_login_user = {login}
first_valid_uid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {base}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={base}/home/%u
}}
mail_location = maildir:~/Maildir
mail_fsync = never
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
  }}
}}
service anvil {{
  chroot =
}}
"""


class Dovecot:
    user, password = "referee", "imap-s3cret"

    def __init__(self, base: Path, port: int, process: subprocess.Popen, imaps_port: int = 0):
        self.base, self.port, self.process, self.imaps_port = base, port, process, imaps_port

    @property
    def cafile(self) -> Path:
        return self.base / "cert.pem"

    def url(self, folder: str = "INBOX", secure: bool = False) -> str:
        if secure:
            return f"imaps://{self.user}@127.0.0.1:{self.imaps_port}/{folder}"
        return f"imap://{self.user}@127.0.0.1:{self.port}/{folder}"

    def client(self):
        import imaplib
        client = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        client.login(self.user, self.password)
        return client

    def append(self, raw: bytes, folder: str = "INBOX") -> None:
        client = self.client()
        try:
            status, data = client.append(folder, None, None, raw)
            assert status == "OK", data
        finally:
            client.logout()

    def count(self, folder: str) -> int:
        client = self.client()
        try:
            status, data = client.select(folder, readonly=True)
            if status != "OK":
                return 0
            status, data = client.uid("SEARCH", None, "UNDELETED")
            return len(data[0].split())
        finally:
            client.logout()


# ---------------------------------------------------------------- games and players

class MailGame:
    """A game created with `pbem new` with every player's address and an organiser."""

    def __init__(self, root: Path, game_id: str, players: dict[str, dict]):
        self.root, self.id, self.players = root, game_id, players
        self.dir = root / game_id

    @property
    def gd(self):
        return engine.open_game(self.dir)

    def address(self, name: str) -> str:
        return self.players[name]["email"]

    def secret(self, name: str) -> str:
        return self.players[name]["secret"]

    def env(self) -> dict:
        return engine.load_state(self.gd)

    def to_act(self) -> str | None:
        return engine.status(self.gd)["to_act"]

    def snapshot(self) -> dict[str, bytes]:
        return snapshot(self.dir)


def create_game(root: Path, game_type: str, count: int | None = None, game_id: str = "g1", seed: str = "mailseed",
                welcome: str | None = None, options: tuple = ()) -> MailGame:
    """`options`: more options of `pbem new` (--now, --deadline, --notify...). Every player hears of every move
    (`--notify every`) unless `options` say otherwise: the tests of the transport follow every mail."""
    game = registry.get(game_type)
    count = count or game.min_players
    assert count <= len(NAMES), f"mailkit names {len(NAMES)} players, not {count}"
    args = ["new", game.id, root / game_id, "--seed", seed, "--organiser", ORGANISER, "--format", "json",
            "--notify", "every", *options]
    for name in NAMES[:count]:
        args += ["--player", f"{name}:{name}@players.example"]
    if welcome:
        args += ["--smtp", welcome]
    result = run_cli(*args)
    assert result.code == 0, result.output
    data = json.loads(result.stdout)
    return MailGame(root, game_id, {p["name"]: p for p in data["players"]})


_counter = iter(range(1, 10 ** 9))


def write_mail(sender: str, body: str, subject: str = "move", *, message_id: str | None = None,
               in_reply_to: str | None = None, extra_headers: dict | None = None) -> bytes:
    """A plain text mail as a mail program writes it."""
    from email.message import EmailMessage
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender
    msg["To"] = ORGANISER
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate()
    msg["Message-ID"] = message_id or f"<t{next(_counter)}.{time.time_ns()}@players.example>"
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    for key, value in (extra_headers or {}).items():
        msg[key] = value
    msg.set_content(body)
    return msg.as_bytes()


def move_mail(game: MailGame, player: str, moves: list[str], *, move_number: int | None = None,
              password: str | None = None, quote: str | None = None, **kwargs) -> bytes:
    lines = [f"Password: {password if password is not None else game.secret(player)}"]
    if move_number is not None:
        lines.append(f"Move-Number: {move_number}")
    lines += moves
    body = "\n".join(lines) + "\n"
    if quote:
        body += "\nOn Sun, 29 Nov 2026 at 10:00, Referee <referee@club.example> wrote:\n" + \
            "".join(f"> {line}\n" for line in quote.splitlines()) + "\n-- \n" + player.title() + "\n"
    return write_mail(game.address(player), body, kwargs.pop("subject", f"Re: [{game.id}] my move"), **kwargs)


def receive(root: Path, raw: bytes, smtp: SmtpSink | None = None, outbox: Path | None = None):
    args = ["mail", "receive", "--games", root]
    args += ["--smtp", smtp.address] if smtp else ["--outbox", outbox]
    return run_cli(*args, input=raw)


def seated_game(root: Path, game_type: str, count: int, seed: str) -> MailGame:
    """A new mail game whose `seats` list its players from the one to act first, round the table."""
    game = create_game(root, game_type, count, seed=seed)
    first = engine.status(game.gd)["to_act"]
    names = list(game.players)
    game.seats = names[names.index(first):] + names[:names.index(first)]
    return game


def outbox_mails(outbox: Path) -> dict[str, list[str]]:
    """The subjects and bodies written to the outbox since the last call, by recipient (the outbox is emptied)."""
    found: dict[str, list[str]] = {}
    box = mailbox.Maildir(outbox, create=False)
    for key in list(box.keys()):
        msg = email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
        found.setdefault(msg["To"], []).append(msg["Subject"] + "\n" + body_of(msg))
        box.remove(key)
    return found


def body_of(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def turns_ahead(game, count: int, seed: int = 3) -> list[tuple[str, list[str]]]:
    """The next `count` turns as a bot would play them, worked out on a copy of the game (the referee's state is
    only read): [(player, moves)]. Each turn is one decision, so it is legal whatever chance brings."""
    gd = game.gd
    env = engine.load_state(gd)
    state, rnd, turns = copy.deepcopy(env["state"]), random.Random(seed), []
    for number in range(env["move_number"], env["move_number"] + count):
        pending = gd.game.rules.pending(state)
        if pending is None:
            break
        player = pending["player"]
        move = bots.choose(gd.game.rules.legal_moves(state, player), rnd)
        state = engine.play_turn(gd.game, state, player, [move], Rng(env["seed"], gd.id, number))
        turns.append((player, [gd.game.format_move(move)]))
    return turns


def waiting_moves(path: Path, game, turns, name: str) -> list[str]:
    """A Maildir at `path` holding one mail per turn, in arrival order; their Message-IDs."""
    box = mailbox.Maildir(path, create=True)
    ids = []
    for index, turn in enumerate(turns):
        ids.append(f"<{name}.{index}@players.example>")
        # no Move-Number: only the ledger stops a double application
        key = box.add(move_mail(game, *turn, message_id=ids[-1]))
        stamp = time.time() - 100 + index
        os.utime(box._path + "/new/" + key, (stamp, stamp))
    return ids
