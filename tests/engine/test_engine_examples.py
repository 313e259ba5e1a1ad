"""The example games in examples/ still verify under the current rules, and their move files produce them."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem.clock import correspondence
from pbem.engine import engine
from pbem.play import movefile, trust
from pbem.store import yamlio

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = sorted(p.parent for p in EXAMPLES.glob("*/*/game.yaml"))


def test_every_implemented_game_has_a_finished_and_an_in_progress_example():
    by_type = {}
    for directory in GAMES:
        gd = engine.open_game(directory)
        by_type.setdefault(gd.meta["game"], set()).add(engine.status(gd)["finished"])
    from support import pbem_own_games
    for game in pbem_own_games():
        assert by_type.get(game.id) == {True, False}, game.id


@pytest.mark.parametrize("directory", GAMES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_game_verifies(directory, tmp_path):
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    assert engine.verify(engine.open_game(copy))["result"] == "ok"


@pytest.mark.parametrize("directory", [d for d in GAMES if (d / "moves").is_dir()],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_move_files_replayed_through_the_referee_make_the_same_game(directory, tmp_path):
    gd = engine.open_game(directory)
    env = engine.load_state(gd)
    roster = engine.load_secrets(gd)["players"]
    replay = tmp_path / directory.name
    # a game made before the referee played forced moves is rebuilt the same way (its players played them), and
    # one made before an option of its game with the options it has (it keeps the reading it was played with)
    correspondence.create(gd.meta["game"], replay, [(p["name"], p["email"]) for p in roster], seed=env["seed"],
                          options=gd.meta["options"], components_path=directory / "components.yaml",
                          forced_moves=env.get("forced_moves") == "referee", options_as_stored=True)
    target = engine.open_game(replay)
    secrets = {p["name"]: p["secret"] for p in roster}
    files = sorted((directory / "moves").glob("*.yaml"))
    entries = engine.read_log(gd, full=True)["entries"] or []
    assert len(files) == sum(entry["by"] == "player" for entry in entries)
    for path in files:
        doc = movefile.parse(path.read_bytes(), path.name)
        trust.check_signature(secrets[doc["player"]], doc["signature"], doc["game"], doc["move_number"],
                              doc["player"], doc["moves"])
        engine.submit(target, doc["player"], doc["moves"], by="referee", move_number=doc["move_number"])
    assert engine.load_state(target)["state"] == env["state"]
    assert yamlio.load_file(replay / "public.yaml")["view"] == yamlio.load_file(directory / "public.yaml")["view"]
