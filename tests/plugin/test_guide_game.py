"""The game of docs/adding-a-game.md, High Card, built from the guide's text alone (its code blocks that name a file
are the template of a new game), installed with pip in a fresh environment beside this checkout's pbem: it plays
to the end through the command line and verifies; and pbem's generic tests, those that run over every installed
game (each named with the game's id), pass over it without editing pbem (about 10 seconds)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from support import run_ok

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-game.md"
pytestmark = pytest.mark.xdist_group("guide-game")  # one xdist worker: the fresh environment made once a run
FILE_BLOCK = re.compile(r"^```\w+ (\S+)\n(.*?)^```$", re.M | re.S)  # ```python high_card/setup.py


def guide_files() -> dict[str, str]:
    """{path in the game's distribution: text} of every code block of the guide that names its file."""
    return dict(FILE_BLOCK.findall(GUIDE.read_text(encoding="utf-8")))


class Fresh:
    """A new virtual environment that reaches pbem and its dependencies through this one's packages (a .pth file),
    with the guide's game installed by pip; each command a real process with its own cache folder."""

    def __init__(self, root: Path):
        self.venv, self.env = root / "venv", {"XDG_CACHE_HOME": str(root / "cache")}
        run_ok(sys.executable, "-m", "venv", "--without-pip", self.venv)
        site = next(self.venv.glob("lib/python*/site-packages"))
        here = sysconfig.get_paths()["purelib"]
        (site / "this-checkout.pth").write_text(f"import site; site.addsitedir({here!r})\n")
        self.python = self.venv / "bin" / "python"

    def install(self, source: Path) -> None:
        run_ok(sys.executable, "-m", "pip", "--python", self.python, "install", "-q", "--no-deps",
               "--no-build-isolation", source)

    def pbem(self, *args) -> str:
        return run_ok(self.python, "-m", "pbem.cli", *args, env=self.env, cwd=self.venv)

    def json(self, *args):
        return json.loads(self.pbem(*args, "--format", "json"))


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Fresh:
    root = tmp_path_factory.mktemp("guide-game")
    source = root / "high-card"
    for path, text in guide_files().items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(text, encoding="utf-8")
    environment = Fresh(root)
    environment.install(source)
    return environment


def test_the_guide_shows_every_file_of_its_game():
    files = guide_files()
    listed = {"pyproject.toml", *(f"high_card/{name}" for name in (
        "__init__.py", "meta.yaml", "components.yaml", "setup.py", "decisions.py", "scoring.py", "views.py",
        "report.py", "draw.py", "bot.py", "conditions.py", "rules.md"))}
    schemas = {f"high_card/schemas/{part}.schema.json" for part in ("components", "state", "public-view", "player-view")}
    assert set(files) == listed | schemas
    assert "rules.py" not in " ".join(files)  # pbem builds the contract from the modules


def test_the_guides_game_installed_on_its_own_plays_to_the_end_by_signed_move_files_and_verifies(fresh, tmp_path):
    assert "high-card" in {game["id"] for game in fresh.json("games")}
    table = tmp_path / "table"
    made = fresh.json("new", "high-card", table, "--player", "ann", "--player", "ben", "--seed", "guide")
    secrets = {player["name"]: player["secret"] for player in made["players"]}
    while (moves := fresh.json("moves", table))["to_act"] is not None:
        player, number = moves["to_act"], moves["move_number"]
        mine = fresh.json("moves", table, "--as", player)  # the mover's moves, described from their view
        move_file = tmp_path / f"move-{number}.yaml"
        fresh.pbem("sign", "--game", "table", "--move-number", number, "--as", player, "--text", mine["moves"][-1],
                   "--secret", secrets[player], "--output", move_file)
        fresh.pbem("move", table, move_file, "--as", player)
    status = fresh.json("status", table)
    assert status["finished"] and sorted(row["player"] for row in status["ranking"]) == ["ann", "ben"]
    assert fresh.json("verify", table)["result"] == "ok"
    assert "Verified" in fresh.pbem("demo", "high-card", "--players", "3", "--seed", "guide")


def test_pbems_generic_tests_pass_over_the_guides_game_without_editing_pbem(fresh, tmp_path):
    """The tests that run over every installed game, picked by its id, in the fresh environment (where pbem's own
    games are installed too: the suite passes with any correct game beside them)."""
    done = subprocess.run([str(fresh.python), "-m", "pytest", str(ROOT / "tests"), "--rootdir", str(ROOT),
                           "-c", str(ROOT / "pyproject.toml"), "-k", "high-card", "-n", "0", "-v",
                           "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'inner'}"],
                          cwd=tmp_path,  # not the checkout, whose pbem/ is not the installed package
                          capture_output=True, text=True, timeout=1200, env={**os.environ, **fresh.env})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", done.stdout).group(1))
    assert passed >= 30, done.stdout[-2000:]  # the generic tests did run over it (38 when written)
