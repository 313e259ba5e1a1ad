"""The registered games. Metadata (meta.yaml) loads without importing any rules code."""
from __future__ import annotations

import importlib
from functools import cached_property

from . import notation, packaged, yamlio
from .contract import UsageError

GAMES = {  # game id (contract) -> package
    "coal-baron": "coal_baron",
    "gold-fever": "gold_fever",
    "chartered": "chartered",
    "heartland-hauling": "heartland_hauling",
}


class Game:
    """A registered game: its id, its package, its metadata (meta.yaml); the rest is loaded when first used."""

    def __init__(self, id: str, package: str, meta: dict):
        self.id, self.package, self.meta = id, package, meta

    def __repr__(self) -> str:
        return f"Game({self.id!r})"

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

    @cached_property
    def rules(self):
        return importlib.import_module(f"pbem.games.{self.package}.rules")

    @cached_property
    def report(self):
        return importlib.import_module(f"pbem.games.{self.package}.report")

    @cached_property
    def draw(self):
        """The game's picture: `draw(view, viewer, sheet)` (pbem.pictures)."""
        return importlib.import_module(f"pbem.games.{self.package}.draw")

    @cached_property
    def bot(self):
        """The game's heuristic player: `choose(view, legal, rnd) -> move`."""
        return importlib.import_module(f"pbem.games.{self.package}.bot")

    @cached_property
    def conditions(self):
        """The game's queue words (pbem.queues): the choice forms, conditions and disarming events of meta.yaml."""
        return importlib.import_module(f"pbem.games.{self.package}.conditions")

    @cached_property
    def templates(self) -> list[notation.Template]:
        return notation.compile_templates(self.meta["notation"])

    def data_file(self, name: str):
        return packaged.file(f"pbem.games.{self.package}", name)

    def default_components(self) -> dict:
        return yamlio.loads(self.data_file("components.yaml").read_bytes(), f"{self.id}/components.yaml")

    def parse_move(self, text: str, also: tuple[str, ...] = ()) -> dict:
        return notation.parse(self.templates, text, also)

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


_cache: dict[str, Game] = {}


def get(game_id: str) -> Game:
    if game_id not in GAMES:
        raise UsageError(f"unknown game {game_id!r}; the games are: {', '.join(sorted(GAMES))}")
    if game_id not in _cache:
        package = GAMES[game_id]
        text = packaged.read_bytes(f"pbem.games.{package}", "meta.yaml")
        _cache[game_id] = Game(game_id, package, yamlio.loads(text, f"{game_id}/meta.yaml"))
    return _cache[game_id]


def all_games() -> list[Game]:
    return [get(game_id) for game_id in GAMES]
