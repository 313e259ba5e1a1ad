"""pbem is ready to publish: `python -m build` gives a wheel and an sdist, each installs in a fresh environment
(no editable checkout anywhere on its path) and passes a smoke test."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

import pbem
from support import fresh_install, run_ok as run

ROOT = Path(__file__).resolve().parents[2]
# one xdist worker runs this file and tests/plugin/test_plugin_game.py: pbem's wheel and sdist are built once a run
pytestmark = pytest.mark.xdist_group("pbem-distributions")


def source_games() -> list[Path]:
    return sorted(folder for folder in (ROOT / "games").iterdir() if (folder / "meta.yaml").is_file())


def play_one_move(bin_dir: Path, game_id: str, count: int, game: Path) -> None:
    """A new game of `game_id` for `count` players, one move by whoever must act (the first concrete legal one),
    and a verify."""
    players = [arg for name in ("ann", "ben", "cy", "dee", "eve", "fay")[:count] for arg in ("--player", name)]
    run(bin_dir / "pbem", "new", game_id, game, *players, "--seed", "smoke")
    moves = json.loads(run(bin_dir / "pbem", "moves", game, "--format", "json"))
    concrete = next(move for move in moves["moves"] if ".." not in move and "(" not in move)
    run(bin_dir / "pbem", "move", game, "--as", moves["to_act"], "--text", concrete, "--move-number",
        moves["move_number"])
    assert "verified" in run(bin_dir / "pbem", "verify", game)


def smoke(bin_dir: Path, tmp_path: Path) -> None:
    assert run(bin_dir / "pbem", "--version").strip() == f"pbem, version {pbem.__version__}"
    listed = {g["id"]: g for g in json.loads(run(bin_dir / "pbem", "games", "--format", "json"))}
    for folder in source_games():
        game_id = folder.name.replace("_", "-")
        play_one_move(bin_dir, game_id, listed[game_id]["players"]["min"], tmp_path / f"smoke-{game_id}")
    # the installed package is the artefact, not this checkout
    where = run(bin_dir / "python", "-c", "import pbem, pathlib; print(pathlib.Path(pbem.__file__).parent)",
                cwd=tmp_path)
    assert not Path(where.strip()).is_relative_to(ROOT)  # a path's parts, not its text: /tmp/ci-pt is not in /tmp/ci


def test_the_wheel_ships_every_game_schema_and_data_file_and_installs_alone(pbem_dist, tmp_path):
    wheel = next(pbem_dist.glob("pbem-*.whl"))
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    entry_points = archive.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    for game_dir in source_games():
        shipped = [path for path in game_dir.rglob("*") if path.is_file() and "__pycache__" not in path.parts]
        assert {"meta.yaml", "components.yaml", "rules.md", "decisions.py"} <= {path.name for path in shipped}
        assert any(path.parent.name == "schemas" for path in shipped) and (game_dir / "phases").is_dir()
        for path in shipped:  # every module, data file and schema of the game
            assert f"pbem/games/{path.relative_to(ROOT / 'games')}" in names, path
        game_id = game_dir.name.replace("_", "-")
        assert f"{game_id} = pbem.games.{game_dir.name}" in entry_points  # registered under its id
    for schema in (ROOT / "schemas").rglob("*.json"):
        assert f"pbem/schemas/{schema.relative_to(ROOT / 'schemas')}" in names
    for data in (path for path in (ROOT / "pbem").rglob("*") if path.is_file() and path.suffix not in (".py", ".pyc")):
        assert f"pbem/{data.relative_to(ROOT / 'pbem')}" in names, data  # templates, the pictures' fonts.yaml, CI files
    assert not [n for n in names if not n.startswith(("pbem/", "pbem-"))], "only pbem at the top of site-packages"
    assert any(n.endswith("licenses/LICENSE") for n in names)
    smoke(fresh_install(tmp_path, wheel), tmp_path)


def test_the_sdist_builds_and_installs_alone(pbem_dist, tmp_path):
    smoke(fresh_install(tmp_path, next(pbem_dist.glob("pbem-*.tar.gz"))), tmp_path)
