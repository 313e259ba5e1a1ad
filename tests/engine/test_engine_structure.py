"""The shape of the code: every game has the same modules, in the same places, with one table of decisions."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from pbem import registry
from pbem.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"


def game_folders() -> list[Path]:
    return sorted(folder for folder in GAMES.iterdir() if (folder / "meta.yaml").is_file())


def modules(folder: Path) -> set[str]:
    return {path.name for path in folder.glob("*.py")}


def test_every_game_has_the_same_modules_and_a_phases_package():
    shapes = {folder.name: modules(folder) for folder in game_folders()}
    first = next(iter(shapes.values()))
    assert len(shapes) >= 4 and all(shape == first for shape in shapes.values()), shapes
    assert {"rules.py", "setup.py", "views.py", "scoring.py", "report.py", "bot.py"} <= first
    for folder in game_folders():
        assert (folder / "phases" / "__init__.py").is_file(), folder.name
        assert modules(folder / "phases") - {"__init__.py"}, f"{folder.name}: phases/ holds no phase"


def test_rules_py_is_the_contract_and_one_table_of_handlers():
    contract = {"setup", "pending", "legal_moves", "apply", "view", "result"}
    for folder in game_folders():
        tree = ast.parse((folder / "rules.py").read_text())
        functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        names = {target.id for node in tree.body if isinstance(node, ast.Assign) for target in node.targets}
        assert functions == contract, f"{folder.name}/rules.py defines {sorted(functions - contract)}"
        assert names == {"HANDLERS"}, f"{folder.name}/rules.py assigns {sorted(names)}"


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.id)
def test_the_table_has_one_handler_per_declared_decision_and_scoring_says_when_it_is_over(game):
    assert set(game.rules.HANDLERS) == set(game.meta["decisions"])
    scoring = importlib.import_module(f"{game.module}.scoring")
    state = game.rules.setup(["alice", "bob", "carol", "dave"][:game.min_players], game.resolve_options({}),
                             game.default_components(), Rng("structure", "t", 0))
    assert scoring.is_over(state) is False and game.rules.pending(state) is not None
