"""The installed games: every package registered under the `pbem.games` entry-point group, the four games of
pbem's own distribution the same way as a club's game from a package of its own.

An entry point is named for the game's id and points at its package (`coal-baron = pbem.games.coal_baron`); the
package's meta.yaml describes the game (id, package, title, players, rules version, options, notation,
decisions) and is read without importing any rules code, so `pbem games` stays fast. A game has one name, its
id: its package is that id with `_` for `-` (the last part of the module path), and meta.yaml must agree with
the entry point on both. The id and the rules version are said there only: pbem writes them into every state and
view (pbem.store.gamerules).

The entry points are read once per process by scanning the folders on sys.path for the distributions' metadata
(`*.dist-info/entry_points.txt`, `*.egg-info/entry_points.txt`): importlib.metadata gives the same answer, but
importing it costs a command milliseconds (email, zipfile, csv, pathlib) that a move must not pay.
"""
from __future__ import annotations

import importlib
import os
import sys
from functools import cached_property

from .. import notation
from ..contract import PbemError, UsageError
from . import packaged, yamlio

GROUP = "pbem.games"


class Game:
    """An installed game: its id, its package (the module path), its metadata (meta.yaml); the rest is loaded when
    first used."""

    def __init__(self, id: str, module: str, meta: dict):
        self.id, self.module, self.meta = id, module, meta

    def __repr__(self) -> str:
        return f"Game({self.id!r})"

    @property
    def package(self) -> str:
        """The package's own name (`coal_baron`): the game's id with `_` for `-`."""
        return self.module.rpartition(".")[2]

    @property
    def title(self) -> str:
        return self.meta["title"]

    @property
    def min_players(self) -> int:
        return self.meta["players"]["min"]

    @property
    def max_players(self) -> int:
        return self.meta["players"]["max"]

    @property
    def rules_version(self) -> int:
        return self.meta["rules_version"]

    def plays(self, rules_version: int) -> bool:
        """Can this pbem play on a game made under `rules_version`: its own, or one of the earlier versions its
        meta.yaml lists (`earlier_rules_versions`: every reading changed since is an option whose absence from a
        stored game keeps the earlier reading)?"""
        return rules_version == self.rules_version or rules_version in self.meta.get("earlier_rules_versions", [])

    @property
    def bot_version(self) -> int:
        """The version of the game's greedy bot (bot.py), raised whenever it may choose another move in some
        position: a `timeout (bot)` log entry records it, and verify recomputes only an entry of this version."""
        return self.meta["bot_version"]

    def _part(self, name: str):
        return importlib.import_module(f"{self.module}.{name}")

    def _own(self, name: str):
        """The game's module `name`, or None when its package has none (an error inside it is raised as it is)."""
        try:
            return self._part(name)
        except ModuleNotFoundError as exc:
            if exc.name != f"{self.module}.{name}":
                raise
            return None

    @cached_property
    def rules(self):
        """The contract's six functions (pbem/contract.py): built by pbem.store.gamerules from the game's modules, or,
        for a game without decisions.py, its own rules.py (a game written before pbem built them is played by it;
        a rules.py beside decisions.py is a leftover of one, which an old build folder can carry into a wheel)."""
        table = self._own("decisions")
        legacy = self._own("rules") if table is None else None
        if legacy is not None:
            return self._checked(legacy)
        from .gamerules import Rules
        parts = {"decisions": table, **{name: self._own(name) for name in ("setup", "views", "scoring")}}
        missing = [f"{name}.py" for name, module in parts.items() if module is None]
        if missing:
            raise PbemError(f"the game {self.id} is broken: its package has no {' nor '.join(missing)} "
                            f"(docs/adding-a-game.md)")
        return Rules(self, parts["setup"], parts["decisions"], parts["views"], parts["scoring"])

    def _checked(self, rules):
        """A rules.py of a game written before the kit: its setup module's RULES_VERSION is the one it writes into
        a state, which must be one this pbem plays (meta.yaml's, or one it lists as earlier)."""
        coded = getattr(self._part("setup"), "RULES_VERSION", self.rules_version)
        if not self.plays(coded):
            raise PbemError(f"the game {self.id} is broken: its meta.yaml says rules version {self.rules_version}, "
                            f"its code {coded}")
        return rules

    @cached_property
    def report(self):
        return self._part("report")

    @cached_property
    def draw(self):
        """The game's picture of a position: `draw(view, viewer, sheet)` (pbem.text.pictures)."""
        return self._part("draw")

    @cached_property
    def bot(self):
        """The game's heuristic player: `choose(view, legal, rnd) -> move`."""
        return self._part("bot")

    @cached_property
    def scoring(self):
        """The game's end and final score (`is_over`, `result`), and the search bot's `estimate` if it has one."""
        return self._part("scoring")

    @cached_property
    def unseen(self):
        """What a seat's view hides, imagined for the search bot: `sample_state(view, components, rnd)`; None for a
        game without the module (a plug-in written before it: its search seats play greedy)."""
        try:
            return self._part("unseen")
        except ModuleNotFoundError as exc:
            if exc.name != f"{self.module}.unseen":
                raise
            return None

    @cached_property
    def conditions(self):
        """The game's queue words (pbem.play.queues): the choice forms, conditions and disarming events of meta.yaml."""
        return self._part("conditions")

    @cached_property
    def templates(self) -> list[notation.Template]:
        return notation.compile_templates(self.meta["notation"])

    def data_file(self, name: str):
        return packaged.file(self.module, name)

    @cached_property
    def own_components(self) -> dict:
        """The game's own components, read once, for the bots: they only read them (a sampled position copies what
        it keeps), where default_components gives each caller a copy of its own."""
        return self.default_components()

    def default_components(self) -> dict:
        return yamlio.loads(self.data_file("components.yaml").read_bytes(), f"{self.id}/components.yaml")

    def parse_move(self, text: str, also: tuple[str, ...] = ()) -> dict:
        return notation.parse(self.templates, text, also, self.package)

    def format_move(self, move: dict) -> str:
        return notation.format_move(self.templates, move)

    def normalise(self, move: dict) -> dict:
        """A concrete move in its canonical form (a `set` field sorted): its text parsed back."""
        return self.parse_move(self.format_move(move))

    def resolve_options(self, given: dict[str, str], fill: bool = True) -> dict[str, str]:
        """Every option with its value: the given ones checked against their choices, the rest at default (with
        `fill=False`, only the given ones: a stored game's options, which may predate an option)."""
        declared = self.meta.get("options", {})
        for key, value in given.items():
            if key not in declared:
                known = ", ".join(declared) or "none"
                raise UsageError(f"{self.id} has no option {key!r} (options: {known})")
            if value not in declared[key]["choices"]:
                raise UsageError(f"option {key}={value}: choose one of {', '.join(declared[key]['choices'])}")
        return {key: given.get(key, spec["default"]) for key, spec in declared.items() if fill or key in given}


def _entry_points(text: str) -> list[tuple[str, str]]:
    """The (name, value) pairs of the `pbem.games` section of an entry_points.txt (an INI file)."""
    found, inside = [], False
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            inside = line == f"[{GROUP}]"
        elif inside and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            found.append((name.strip(), value.strip()))
    return found


def _scan() -> dict[str, str]:
    """{game id: package} of every installed game, the first found on sys.path winning (as for imports)."""
    games: dict[str, str] = {}
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:  # not a folder (a zip file), or gone
            continue
        for name in sorted(names):
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder or ".", name, "entry_points.txt"), encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError):
                continue
            if f"[{GROUP}]" in text:
                for game_id, module in _entry_points(text):
                    games.setdefault(game_id, module)
    return games


_installed: dict[str, str] | None = None
_cache: dict[str, Game] = {}


def installed() -> dict[str, str]:
    """{game id: package} of the installed games (read once per process)."""
    global _installed
    if _installed is None:
        _installed = _scan()
    return _installed


def forget() -> None:
    """Read the installed games again at the next lookup (after a game was installed or removed)."""
    global _installed
    _installed = None
    _cache.clear()


def get(game_id: str) -> Game:
    if game_id in _cache:
        return _cache[game_id]
    games = installed()
    if game_id not in games:
        raise UsageError(f"unknown game {game_id!r}; the games installed here are: {', '.join(sorted(games))}")
    _cache[game_id] = _load(game_id, games[game_id])
    return _cache[game_id]


def _load(game_id: str, module: str) -> Game:
    """The game registered as `game_id` in `module`, its meta.yaml checked against that registration."""
    where = f"{game_id} ({module})"
    try:
        text = packaged.read_bytes(module, "meta.yaml")
    except (ImportError, OSError) as exc:
        raise PbemError(f"the game {where} is installed but cannot be read ({exc})") from None
    meta = yamlio.loads(text, f"{game_id}/meta.yaml")
    if not isinstance(meta, dict) or meta.get("id") != game_id or meta.get("package") != module.rpartition(".")[2] \
            or meta["package"] != game_id.replace("-", "_"):
        raise PbemError(f"the game {where} is broken: its meta.yaml must name it (id: {game_id}, package: "
                        f"{game_id.replace('-', '_')})")
    return Game(game_id, module, meta)


def all_games() -> list[Game]:
    return [get(game_id) for game_id in installed()]
