"""The shape of the code: every game has the same modules, in the same places, with one table of decisions; pbem/
is in layers, each importing only the ones below it; modules and the engine's functions stay short."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
import yaml

from pbem.rng import Rng
from pbem.store import registry

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
# the larger worked example of docs/adding-a-game.md, a game in a distribution of its own: it keeps the skeleton
EXAMPLE = ROOT / "examples" / "plugin-game" / "summit_race"


def game_folders() -> list[Path]:
    return sorted(folder for folder in GAMES.iterdir() if (folder / "meta.yaml").is_file()) + [EXAMPLE]


def modules(folder: Path) -> set[str]:
    return {path.name for path in folder.glob("*.py")}


def test_every_game_has_the_same_modules_and_a_phases_package():
    shapes = {folder.name: modules(folder) for folder in game_folders()}
    first = next(iter(shapes.values()))
    assert len(shapes) >= 5 and all(shape == first for shape in shapes.values()), shapes
    assert {"decisions.py", "setup.py", "views.py", "scoring.py", "report.py", "bot.py"} <= first
    assert "rules.py" not in first  # pbem builds the contract from the modules (pbem.store.gamerules)
    for folder in game_folders():
        assert (folder / "phases" / "__init__.py").is_file(), folder.name
        assert modules(folder / "phases") - {"__init__.py"}, f"{folder.name}: phases/ holds no phase"


def test_decisions_py_is_one_table_of_handlers_and_the_games_own_course():
    for folder in game_folders():
        tree = ast.parse((folder / "decisions.py").read_text())
        functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        names = {target.id for node in tree.body if isinstance(node, ast.Assign) for target in node.targets}
        assert functions | names <= {"HANDLERS", "advance"} and "HANDLERS" in names, folder.name


def test_a_games_id_and_rules_version_are_said_in_its_meta_yaml_only():
    """pbem writes them into every state and view (pbem.store.gamerules): no module of a game names them again."""
    for folder in game_folders():
        meta = yaml.safe_load((folder / "meta.yaml").read_text())
        for path in python_files(folder):
            words = set(code_words(path))
            assert meta["id"] not in words and "RULES_VERSION" not in words and "rules_version" not in words, path


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.id)
def test_the_table_has_one_handler_per_declared_decision_and_scoring_says_when_it_is_over(game):
    assert set(game.rules.HANDLERS) == set(game.meta["decisions"])
    scoring = importlib.import_module(f"{game.module}.scoring")
    state = game.rules.setup(["alice", "bob", "carol", "dave"][:game.min_players], game.resolve_options({}),
                             game.default_components(), Rng("structure", "t", 0))
    assert scoring.is_over(state) is False and game.rules.pending(state) is not None


GAME_MOST_LINES = 500


def python_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


def test_no_game_module_is_over_500_lines():
    too_long = {str(path.relative_to(ROOT)): lines for path in python_files(GAMES) + python_files(EXAMPLE)
                if (lines := len(path.read_text().splitlines())) > GAME_MOST_LINES}
    assert not too_long, too_long


# ---------------------------------------------------------------- pbem's layers
#
# pbem/ is a house of subpackages by job, in layers. The order below, top to bottom, is the architecture: a module
# may import its own layer and the layers below it, never one above (docs/architecture.md shows it). `kit` is
# pbem/'s own top-level modules, the game kit: what a game's code imports, and all that every layer stands on.
LAYERS = ("cli", "git", "mail", "clock", "engine", "play", "text", "store", "kit")
# The engine, where a function is at most 60 lines long and takes at most 7 parameters
ENGINE = ("clock", "engine", "play", "store", "kit")
MOST_LINES, MOST_FUNCTION_LINES, MOST_PARAMETERS = 400, 60, 7


def module_names(root: Path) -> dict[str, Path]:
    """Every module of the package at `root` (a folder named for it), by its dotted name."""
    names = {}
    for path in python_files(root):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def _docstrings(tree: ast.AST) -> set[int]:
    documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {id(node.body[0].value) for node in ast.walk(tree) if isinstance(node, documented) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that module `name` imports: at its top and inside its functions alike, and those it
    names in a string (loaded by importlib when first used: a lazy import is an import all the same)."""
    tree = ast.parse(path.read_text())
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found, docstrings = set(), _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            submodules = {f"{module}.{alias.name}" for alias in node.names} & known
            found |= submodules or {module}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.add(node.value)
    return {module for module in found if module in known and module != name and "." in module}


def layer(module: str) -> str:
    """`pbem.mail.compose` is in the layer `mail`; `pbem.rng` (a module at the top) in `kit`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS) else "kit"


def import_graph(root: Path) -> dict[str, set[str]]:
    names = module_names(root)
    return {name: imported(name, path, set(names)) for name, path in names.items()}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{module} -> {target}" for module, targets in graph.items() for target in targets
                  if LAYERS.index(layer(target)) < LAYERS.index(layer(module)))


def layer_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles between layers (each as the layers it passes through, from the first in LAYERS)."""
    edges: dict[str, set[str]] = {}
    for module, targets in graph.items():
        edges.setdefault(layer(module), set()).update(layer(t) for t in targets if layer(t) != layer(module))
    cycles = set()

    def walk(path: list[str]) -> None:
        for after in sorted(edges.get(path[-1], ())):
            if after == path[0]:
                start = path.index(min(path, key=LAYERS.index))
                cycles.add(tuple(path[start:] + path[:start]))
            elif after not in path and LAYERS.index(after) > LAYERS.index(path[0]):
                walk(path + [after])
    for first in LAYERS:
        walk([first])
    return sorted(list(cycle) for cycle in cycles)


def long_modules(root: Path) -> dict[str, int]:
    return {name: lines for name, path in module_names(root).items()
            if (lines := len(path.read_text().splitlines())) > MOST_LINES}


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Every parameter a caller may pass (positional, keyword-only, *args, **options); not a method's self."""
    args = function.args
    names = [*args.posonlyargs, *args.args, *args.kwonlyargs, *filter(None, (args.vararg, args.kwarg))]
    return len([arg for arg in names if arg.arg not in ("self", "cls")])


def wide_or_long_functions(root: Path) -> dict[str, str]:
    """The engine's functions over MOST_FUNCTION_LINES lines or MOST_PARAMETERS parameters."""
    found = {}
    for name, path in module_names(root).items():
        if layer(name) not in ENGINE:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines, count = node.end_lineno - node.lineno + 1, parameters(node)
                if lines > MOST_FUNCTION_LINES or count > MOST_PARAMETERS:
                    found[f"{name}.{node.name}"] = f"{lines} lines, {count} parameters"
    return found


def test_no_import_runs_back_up_a_layer():
    assert upward_imports(import_graph(ROOT / "pbem")) == []


def test_no_circle_between_layers():
    assert layer_cycles(import_graph(ROOT / "pbem")) == []


def test_every_module_of_pbem_is_in_a_layer_and_every_layer_has_modules():
    layers = {layer(name) for name in module_names(ROOT / "pbem") if name != "pbem"}
    assert layers == set(LAYERS)


MOST_COLUMNS = 120


def wide_lines(*roots: Path, base: Path = ROOT) -> dict[str, list[int]]:
    """{file (from `base`): the numbers of its lines over MOST_COLUMNS characters} of the Python files under
    `roots`."""
    wide = {}
    for path in (path for root in roots for path in python_files(root)):
        numbers = [number for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                   if len(line) > MOST_COLUMNS]
        if numbers:
            wide[str(path.relative_to(base))] = numbers
    return wide


def test_no_line_of_pbem_or_a_game_is_over_120_columns():
    assert wide_lines(ROOT / "pbem", GAMES, EXAMPLE, ROOT / "benchmarks", ROOT / "tools") == {}


def test_the_column_checker_finds_a_wide_line(tmp_path):
    (tmp_path / "wide.py").write_text("x = 1\n" + "y = '" + "a" * 120 + "'\n", encoding="utf-8")
    assert wide_lines(tmp_path, base=tmp_path) == {"wide.py": [2]}


def test_no_module_of_pbem_is_over_400_lines():
    assert long_modules(ROOT / "pbem") == {}


def test_no_engine_function_is_over_60_lines_or_7_parameters():
    assert wide_or_long_functions(ROOT / "pbem") == {}


def test_the_architecture_document_shows_the_layers_in_their_order():
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert " > ".join(LAYERS) in text


def test_the_subpackages_start_empty():
    """`import pbem.engine.writer` runs pbem/__init__.py and pbem/engine/__init__.py first: they import nothing,
    so a command pays only for the modules it uses."""
    for path in [ROOT / "pbem" / "__init__.py", *(ROOT / "pbem").glob("*/__init__.py")]:
        body = [node for node in ast.parse(path.read_text()).body
                if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
        assert all(isinstance(node, ast.Assign) for node in body), path  # a docstring, pbem's __version__


def plant(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / "pbem" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pbem"


def test_the_layer_checker_finds_each_planted_fault(tmp_path):
    """A tiny pbem with one fault of each kind: the checks above find each one, and nothing else."""
    long_body = "".join(f"    x = {n}\n" for n in range(60))
    fake = plant(tmp_path, {
        "__init__.py": "", "kit.py": "from . import helpers\n", "helpers.py": "",
        "store/__init__.py": "", "text/__init__.py": "", "engine/__init__.py": "", "mail/__init__.py": "",
        # store reaches up into text, lazily inside a function: a fault all the same
        "store/files.py": "def read():\n    from ..text import words\n    return words\n",
        "text/words.py": "from ..store import files\nfrom .. import kit\n",  # down: fine
        # the engine names a mail module for importlib: a lazy import up, and with mail's import a circle
        "engine/referee.py": 'import importlib\nLATER = "pbem.mail.send"\n\n\ndef turn(a, b, c, d, e, f, g, h):\n'
                             '    """8 parameters"""\n\n\ndef long():\n' + long_body,
        "mail/send.py": "from pbem.engine import referee\n" + "# filler\n" * 400,
    })
    graph = import_graph(fake)
    assert graph["pbem.kit"] == {"pbem.helpers"} and graph["pbem.text.words"] == {"pbem.store.files", "pbem.kit"}
    assert upward_imports(graph) == ["pbem.engine.referee -> pbem.mail.send", "pbem.store.files -> pbem.text.words"]
    assert layer_cycles(graph) == [["mail", "engine"], ["text", "store"]]
    assert long_modules(fake) == {"pbem.mail.send": 401}
    assert wide_or_long_functions(fake) == {"pbem.engine.referee.turn": "2 lines, 8 parameters",
                                            "pbem.engine.referee.long": "61 lines, 0 parameters"}


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
    """The games of this repository (a game installed from elsewhere may be called anything: a word pbem uses)."""
    names = set()
    for folder in game_folders():
        meta = yaml.safe_load((folder / "meta.yaml").read_text())
        names |= {meta["id"], meta["package"], meta["title"].lower()}
    found = {}
    for path in python_files(ROOT / "pbem"):
        for word in code_words(path):
            hits = [name for name in names if name in word.lower()]
            if hits:
                found.setdefault(str(path.relative_to(ROOT)), set()).update(hits)
    assert not found, found


# Modules that may skip whole, each for what the machine lacks (never for what pbem or a game lacks)
MACHINE_SKIPS = {"tests/pictures/test_browser.py": "no Chromium on this machine (CI installs it)",
                 "tests/pictures/test_phone.py": "no Chromium on this machine (CI installs it, and never skips it)"}


def test_no_test_module_skips_itself_whole():
    """A module-level skip makes a broken game vanish from the suite instead of failing it."""
    skipping = []
    for path in python_files(ROOT / "tests"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets) \
                    and "skip" in ast.unparse(node.value):
                skipping.append(str(path.relative_to(ROOT)))
    assert set(skipping) == set(MACHINE_SKIPS), skipping


@pytest.mark.xdist_group("scheduling")
def test_a_test_of_an_xdist_group_reaches_the_scheduler_with_its_group(request):
    """The suite's costly shared fixtures (the distributions, the git clubs, the reference tick) are made once a
    run only if --dist loadgroup (pyproject.toml) sends each group to one worker: by the group in its node id
    (tests/conftest.py sets it where pytest-xdist's own does not take)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by xdist's loadgroup scheduling (-n 0)")
    assert request.node.nodeid.endswith("@scheduling")
