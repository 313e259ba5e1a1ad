"""The per-game lock: no one who cannot write a game can hold it (it is the referee's user's alone), and whoever
holds it holds up the others for a while only: a command waits PBEM_LOCK_TIMEOUT seconds, then says so and exits
2 with nothing done; `pbem tick ROOT` skips a locked game, ticks the others and names the one it skipped."""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from pbem.engine import engine
from pbem.store import locks
from support import NAMES, Pbem, default_game, legal_turn, snapshot


def new_game(directory: Path, *options: str) -> Path:
    game = default_game()
    players = sum((["--player", name] for name in NAMES[:game.min_players]), [])
    result = Pbem()("new", game.id, directory, *players, "--seed", "lock", *options)
    assert result.code == 0, result.err
    return directory


@pytest.fixture
def held(request):
    """Hold a game's lock as another process would (flock on its own open file), until the test ends."""
    opened = []

    def hold(directory: Path, kind=fcntl.LOCK_SH):
        fd = os.open(directory / locks.LOCK, os.O_RDONLY)
        fcntl.flock(fd, kind)
        opened.append(fd)
    yield hold
    for fd in opened:
        os.close(fd)


def test_the_lock_file_is_the_referees_alone(tmp_path):
    game = new_game(tmp_path / "g1")
    assert os.stat(game / locks.LOCK).st_mode & 0o777 == 0o600


def test_a_lock_file_an_older_pbem_left_open_to_all_is_made_private_by_the_next_move(tmp_path):
    game = new_game(tmp_path / "g1")
    os.chmod(game / locks.LOCK, 0o644)
    player, move, number = legal_turn(game)
    assert Pbem()("move", game, "--as", player, "--text", move, "--move-number", number).code == 0
    assert os.stat(game / locks.LOCK).st_mode & 0o777 == 0o600


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, to try the lock as another user (CI runs as root)")
def test_another_local_user_who_can_read_the_game_cannot_open_its_lock():
    base = Path(tempfile.mkdtemp(prefix="pbem-lock-"))  # not under pytest's private tmp: nobody must reach it
    try:
        base.chmod(0o755)
        game = new_game(base / "g1")
        probe = ("import os, sys\nos.setgid(65534); os.setuid(65534)\nopen(sys.argv[1] + '/public.yaml').read()\n"
                 "try:\n    os.open(sys.argv[1] + '/.lock', os.O_RDONLY)\nexcept PermissionError:\n"
                 "    sys.exit(0)\nsys.exit(7)\n")
        done = subprocess.run([sys.executable, "-c", probe, str(game)], capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr.decode()  # the public files readable, the lock not
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("command", ["move", "status", "verify"])
def test_a_held_lock_makes_a_command_give_up_after_the_timeout_with_exit_2(tmp_path, held, monkeypatch, command):
    game = new_game(tmp_path / "g1")
    player, move, number = legal_turn(game)
    held(game, fcntl.LOCK_EX if command != "move" else fcntl.LOCK_SH)
    monkeypatch.setenv("PBEM_LOCK_TIMEOUT", "0.5")
    before = snapshot(game)
    args = {"move": ("--as", player, "--text", move, "--move-number", number), "status": (), "verify": ()}[command]
    started = time.monotonic()
    result = Pbem()(command, game, *args)
    assert result.code == 2
    assert time.monotonic() - started < 10
    assert f"{game / locks.LOCK}: the game is locked by another process (waited 0.5 s)" in result.err
    assert snapshot(game) == before


def test_a_lock_timeout_that_is_not_a_number_is_a_usage_error(tmp_path, monkeypatch):
    game = new_game(tmp_path / "g1")
    monkeypatch.setenv("PBEM_LOCK_TIMEOUT", "forever")
    result = Pbem()("status", game)
    assert result.code == 1 and "PBEM_LOCK_TIMEOUT" in result.err


def test_tick_skips_a_locked_game_ticks_the_others_and_names_the_one_it_skipped(tmp_path, held, monkeypatch):
    root = tmp_path / "games"
    options = ("--now", "2025-12-01T12:00:00Z", "--deadline", "1h", "--on-timeout", "first-legal")
    first, second = new_game(root / "g1", *options), new_game(root / "g2", *options)
    held(first)
    monkeypatch.setenv("PBEM_LOCK_TIMEOUT", "0.5")
    before = snapshot(first)
    result = Pbem()("tick", root, "--now", "2025-12-01T14:00:00Z", "--no-mail")
    assert result.code == 2
    assert "skipped: g1:" in result.out and "locked by another process" in result.out
    assert "g2: " in result.out and "timed out" in result.out
    assert snapshot(first) == before
    assert engine.status(engine.open_game(second))["move_number"] > 1
