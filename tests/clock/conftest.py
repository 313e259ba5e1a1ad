"""Fixtures of the clock tests: a game with deadlines made through the CLI at a fixed time, and its clock."""
from __future__ import annotations

import datetime
import email
import email.policy
from pathlib import Path

import pytest

from pbem.clock import clock
from pbem.engine import engine
from pbem.text import times
from support import NAMES, Pbem

T0 = "2025-12-01T12:00:00Z"
ORGANISER = "referee@club.example"


def at(hours: float) -> str:
    """The time `hours` after T0, as --now takes it."""
    return times.iso(times.parse_time(T0) + datetime.timedelta(hours=hours))


class ClockGame:
    """A game under a games root, with each player's address, made at T0; its mails go to an outbox Maildir."""

    def __init__(self, tmp_path: Path, *options, game: str = "coal-baron", players: int = 2, seed: str = "clock"):
        self.pbem = Pbem()  # a refusal's message (what `pbem` prints on stderr) is in `err`
        self.root = tmp_path / "games"
        self.root.mkdir()
        self.dir = self.root / "g1"
        self.outbox = tmp_path / "outbox"
        self.names = NAMES[:players]
        args = ["new", game, self.dir, "--seed", seed, "--now", T0, "--organiser", ORGANISER, "--format", "json",
                *options]
        for name in self.names:
            args += ["--player", f"{name}:{name}@club.example"]
        result = self.pbem(*args)
        assert result.code == 0, result.err
        self.secrets = {p["name"]: p["secret"] for p in result.json()["players"]}
        self.seen = 0

    at = staticmethod(at)

    @staticmethod
    def body(msg) -> str:
        return msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")

    @property
    def gd(self) -> engine.GameDir:
        return engine.open_game(self.dir)

    def env(self) -> dict:
        return engine.load_state(self.gd)

    def public(self) -> dict:
        return engine.status(self.gd)

    def tick(self, hours: float, *extra):
        result = self.pbem("tick", self.root, "--now", at(hours), "--outbox", self.outbox, "--format", "json", *extra)
        assert result.code == 0, result.err
        return result.json()

    def new_mails(self) -> list:
        """The mails written to the outbox since the last call, oldest first."""
        folder = self.outbox / "new"
        files = sorted(folder.iterdir(), key=lambda p: (p.stat().st_mtime_ns, p.name)) if folder.is_dir() else []
        fresh = files[self.seen:]
        self.seen = len(files)
        return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in fresh]

    def first_legal(self) -> tuple[str, str]:
        """(the player to act, their first legal move in text)."""
        from support import legal_turn
        player, text, _ = legal_turn(self.dir)
        return player, text


@pytest.fixture
def clock_game(tmp_path):
    def make(*options, where: str = "", **kwargs) -> ClockGame:
        base = tmp_path / where if where else tmp_path
        base.mkdir(exist_ok=True)
        return ClockGame(base, *options, **kwargs)
    return make
