"""The contract pbem builds from a game's modules (pbem.store.gamerules): the fields it writes into every state and view,
the rules version a state records, a game written before the kit (its own rules.py) still played by it, and a
game missing a module named as broken."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem.engine import engine
from pbem.play import playout
from pbem.store import registry
from support import NAMES, legal_turn, playable_games

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "plugin-game" / "summit_race"

# The contract as a game written before pbem built it had it: its own rules.py, with its table of decisions, over
# its modules (here the example's, whose setup fills in a state it is given).
LEGACY_RULES = '''from pbem import decisions
from pbem.decisions import Handler

from . import scoring, views
from . import setup as setting_up
from .phases import turn

HANDLERS = {
    "turn": Handler(turn.legal_turn, turn.apply_turn),
    "discard": Handler(turn.legal_discard, turn.apply_discard),
}


def setup(players, options, components, rng):
    state = {"game": "legacy-race", "rules_version": 1, "players": list(players), "options": dict(options)}
    setting_up.setup(state, components, rng)
    return state


def pending(state):
    return decisions.pending(state["stack"], scoring.is_over(state))


def legal_moves(state, player):
    return decisions.legal_moves(HANDLERS, state, player, scoring.is_over(state))


def apply(state, player, move, rng):
    decisions.apply(HANDLERS, state, move, rng)
    return state


def view(state, player):
    return {"game": "legacy-race", "rules_version": state["rules_version"], "options": dict(state["options"]),
            **views.view(state, player)}


def result(state):
    return scoring.result(state)
'''


@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.id)
def test_pbem_writes_the_games_id_rules_version_players_and_options_first_in_its_state_and_views(game):
    players = NAMES[:game.min_players]
    state = playout.start(game, players, seed="header")
    earliest = min([game.rules_version, *game.meta.get("earlier_rules_versions", [])])
    expected = {"game": game.id, "rules_version": earliest, "players": players,
                "options": game.resolve_options({})}
    header = game.meta.get("state_header", list(expected))
    assert list(state)[:len(header)] == header and all(state[key] == expected[key] for key in header)
    for viewer in [None, *players]:
        view = game.rules.view(state, viewer)
        assert list(view)[:3] == ["game", "rules_version", "options"]
        assert (view["game"], view["rules_version"], view["options"]) == (game.id, earliest, state["options"])


def test_a_state_records_the_earliest_rules_version_its_game_plays_so_earlier_games_replay_unchanged():
    chartered = registry.get("chartered")  # version 2 changed no state field: version 1 is listed as earlier
    assert chartered.rules_version == 2 and chartered.meta["earlier_rules_versions"] == [1]
    assert playout.start(chartered, NAMES[:2], seed="version")["rules_version"] == 1
    coal_baron = registry.get("coal-baron")
    assert playout.start(coal_baron, NAMES[:2], seed="version")["rules_version"] == coal_baron.rules_version == 3


@pytest.fixture
def game_package(tmp_path, monkeypatch):
    """A copy of the example game installed under another id (its package in a folder on sys.path)."""
    def make(package: str, game_id: str) -> Path:
        folder = tmp_path / "site" / package
        shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("__pycache__"))
        meta = (folder / "meta.yaml").read_text()
        (folder / "meta.yaml").write_text(meta.replace("id: summit-race", f"id: {game_id}")
                                          .replace("package: summit_race", f"package: {package}"))
        monkeypatch.syspath_prepend(str(tmp_path / "site"))
        monkeypatch.setattr(registry, "_installed", {**registry.installed(), game_id: package})
        monkeypatch.setattr(registry, "_cache", {})
        return folder
    return make


def test_a_game_that_brings_its_own_rules_py_is_played_by_it(game_package, pbem, tmp_path):
    folder = game_package("legacy_race", "legacy-race")
    (folder / "decisions.py").unlink()
    (folder / "rules.py").write_text(LEGACY_RULES)
    game = registry.get("legacy-race")
    assert game.rules.__name__ == "legacy_race.rules"
    directory = tmp_path / "race"
    assert pbem("new", "legacy-race", directory, "--player", "ann", "--player", "ben", "--seed", "old").code == 0
    for _ in range(4):
        player, text, _ = legal_turn(directory)
        assert pbem("move", directory, "--as", player, "--text", text).code == 0
    assert pbem("verify", directory).code == 0
    assert engine.load_state(engine.open_game(directory))["state"]["game"] == "legacy-race"


def test_a_rules_py_left_beside_decisions_py_is_not_played(game_package):
    """An old build folder can carry a deleted rules.py into a new wheel: decisions.py says the game is the kit's."""
    folder = game_package("leftover_race", "leftover-race")
    (folder / "rules.py").write_text("raise AssertionError('a leftover rules.py was imported')\n")
    assert registry.get("leftover-race").rules.HANDLERS.keys() == {"turn", "discard"}
    assert playout.play(registry.get("leftover-race"), NAMES[:2], seed="leftover") is not None


def test_a_game_whose_package_lacks_a_module_of_the_contract_is_named_as_broken(game_package, pbem, tmp_path):
    folder = game_package("broken_race", "broken-race")
    (folder / "decisions.py").unlink()
    result = pbem("new", "broken-race", tmp_path / "race", "--player", "ann", "--player", "ben")
    assert result.code == 2 and not (tmp_path / "race").exists()
    assert "the game broken-race is broken: its package has no decisions.py" in result.err
