"""A game from a distribution of its own (examples/plugin-game, Summit Race, the larger worked example of
docs/adding-a-game.md), installed beside pbem in a fresh environment: `pbem games` lists it, it is played by move
files signed by its players, it verifies, a whole game of it verifies; uninstalled, every command on its game
directory is refused with a clear message and exit code 2, and nothing in the directory changes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from support import build_distributions, fresh_install, pip_install, run_ok, snapshot

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "plugin-game"
PACKAGE = EXAMPLE / "summit_race"
# one xdist worker runs this file and tests/engine/test_engine_packaging.py: pbem's wheel and sdist are built once
pytestmark = pytest.mark.xdist_group("pbem-distributions")


@pytest.fixture(scope="module")
def example_wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("example-dist")
    build_distributions(EXAMPLE, out, tmp_path_factory.mktemp("example-source"), "--wheel")
    return next(out.glob("pbem_summit_race-*.whl"))


def test_the_examples_wheel_ships_its_modules_data_and_schemas_and_registers_the_game(example_wheel):
    names = zipfile.ZipFile(example_wheel).namelist()
    shipped = [path for path in PACKAGE.rglob("*") if path.is_file() and "__pycache__" not in path.parts]
    for path in shipped:
        assert f"summit_race/{path.relative_to(PACKAGE)}" in names, path
    entry_points = zipfile.ZipFile(example_wheel).read(next(n for n in names if n.endswith("entry_points.txt")))
    assert b"[pbem.games]\nsummit-race = summit_race" in entry_points


class Club:
    """A club's machine: pbem and the game installed from their own distributions, each command a real process
    (its own cache folder, so nothing is shared with this test's processes)."""

    def __init__(self, bin_dir: Path, home: Path):
        self.bin, self.env = bin_dir, {"XDG_CACHE_HOME": str(home / "cache")}

    def ok(self, *args) -> str:
        return run_ok(self.bin / "pbem", *args, env=self.env)

    def refused(self, *args) -> subprocess.CompletedProcess:
        done = subprocess.run([str(self.bin / "pbem"), *map(str, args)], capture_output=True, text=True, timeout=120,
                              env={**os.environ, **self.env})
        assert done.returncode == 2 and "Traceback" not in done.stderr, (args, done.returncode, done.stderr)
        return done

    def json(self, *args):
        return json.loads(self.ok(*args, "--format", "json"))

    def signed_move(self, game: Path, secrets: dict[str, str], choose) -> str:
        """The player to act sends a move file signed with their secret; the move chosen by `choose(moves)`."""
        moves = self.json("moves", game)
        player, number, text = moves["to_act"], moves["move_number"], choose(moves["moves"])
        move_file = game.parent / f"move-{number}.yaml"
        self.ok("sign", "--game", game.name, "--move-number", number, "--as", player, "--text", text,
                "--secret", secrets[player], "--output", move_file)
        self.ok("move", game, move_file, "--as", player)
        return text


def climb_if_you_can(moves: list[str]) -> str:
    return next((move for move in moves if move.startswith("climb")), "draw")


def test_a_game_from_its_own_distribution_is_listed_plays_verifies_and_is_refused_once_uninstalled(
        pbem_dist, example_wheel, tmp_path):
    club = Club(fresh_install(tmp_path, next(pbem_dist.glob("pbem-*.whl"))), tmp_path)
    assert "summit-race" not in club.ok("games")
    pip_install(club.bin, example_wheel)

    listed = {game["id"]: game for game in club.json("games")}
    assert listed["summit-race"]["title"] == "Summit Race" and listed["summit-race"]["players"] == {"min": 2,
                                                                                                  "max": 4}
    assert "route=short|long" in club.ok("games")

    game = tmp_path / "race"
    made = club.json("new", "summit-race", game, "--player", "ann", "--player", "ben", "--seed", "plug-in")
    secrets = {player["name"]: player["secret"] for player in made["players"]}
    played = [club.signed_move(game, secrets, climb_if_you_can) for _ in range(3)]
    assert played[0].startswith(("climb", "draw")) and club.json("status", game)["move_number"] == 4
    to_act = club.json("moves", game)["to_act"]
    assert "'climb 9' is not legal now" in club.refused("move", game, "--as", to_act, "--text", "climb 9",
                                                        "--move-number", 4).stderr
    assert "stale move" in club.refused("move", game, "--as", to_act, "--text", "draw", "--move-number", 1).stderr
    assert "verified" in club.ok("verify", game)
    assert "<svg" in club.ok("board", game, "--format", "svg")

    finished = tmp_path / "race-to-the-end"
    club.ok("demo", "summit-race", "--players", "3", "--seed", "plug-in", "--dir", finished)
    status = club.json("status", finished)
    assert status["finished"] and status["ranking"][0]["rank"] == 1
    assert "verified" in club.ok("verify", finished)

    run_ok(sys.executable, "-m", "pip", "--python", club.bin / "python", "uninstall", "-q", "-y", "pbem-summit-race")
    assert "summit-race" not in club.ok("games")
    before = snapshot(game)
    for command in (["status", game], ["moves", game], ["verify", game], ["board", game],
                    ["move", game, "--as", "ann", "--text", "draw", "--move-number", 4]):
        refused = club.refused(*command)
        assert "the game 'summit-race' is not installed here" in refused.stderr, (command, refused.stderr)
    assert snapshot(game) == before
