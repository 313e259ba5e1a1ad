"""The shape of the code: every game has the same modules, in the same places, with one table of decisions."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from pbem.rng import Rng
from pbem.store import registry

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
# the worked example of docs/adding-a-game.md, a game in a distribution of its own: the template keeps the skeleton
EXAMPLE = ROOT / "examples" / "plugin-game" / "summit_race"


def game_folders() -> list[Path]:
    return sorted(folder for folder in GAMES.iterdir() if (folder / "meta.yaml").is_file()) + [EXAMPLE]


def modules(folder: Path) -> set[str]:
    return {path.name for path in folder.glob("*.py")}


def test_every_game_has_the_same_modules_and_a_phases_package():
    shapes = {folder.name: modules(folder) for folder in game_folders()}
    first = next(iter(shapes.values()))
    assert len(shapes) >= 5 and all(shape == first for shape in shapes.values()), shapes
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


MOST_LINES = 500
# Files over the limit, each with what is left to split (the test fails once one is back under it: shorten the list)
LONG_FILES: dict[str, str] = {}


def python_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


def test_no_file_of_pbem_and_no_game_module_is_over_500_lines():
    too_long = {}
    for path in python_files(ROOT / "pbem") + python_files(GAMES) + python_files(EXAMPLE):
        lines = len(path.read_text().splitlines())
        if lines > MOST_LINES:
            too_long[str(path.relative_to(ROOT))] = lines
    assert set(too_long) == set(LONG_FILES), too_long


def code_words(path: Path):
    """The names and the string literals of a module, its docstrings and comments left out."""
    tree = ast.parse(path.read_text())
    documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree) if isinstance(node, documented) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.value
        elif isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr


def test_pbem_names_no_game_outside_its_comments():
    names = set()
    for game in registry.all_games():
        names |= {game.id, game.package, game.title.lower()}
    found = {}
    for path in python_files(ROOT / "pbem"):
        for word in code_words(path):
            hits = [name for name in names if name in word.lower()]
            if hits:
                found.setdefault(str(path.relative_to(ROOT)), set()).update(hits)
    assert not found, found


# Modules that may skip whole, each for what the machine lacks (never for what pbem or a game lacks)
MACHINE_SKIPS = {"tests/pictures/test_browser.py": "no Chromium on this machine (CI installs it)"}


def test_no_test_module_skips_itself_whole():
    """A module-level skip makes a broken game vanish from the suite instead of failing it."""
    skipping = []
    for path in python_files(ROOT / "tests"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets) \
                    and "skip" in ast.unparse(node.value):
                skipping.append(str(path.relative_to(ROOT)))
    assert set(skipping) == set(MACHINE_SKIPS), skipping
