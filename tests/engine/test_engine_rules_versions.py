"""Rules versions: a game records the version of its game's rules it was made under (game.yaml, the log, status).
This pbem plays on a game of its own version or of an earlier one its meta.yaml lists (`earlier_rules_versions`:
each reading changed since is an option whose absence keeps the earlier reading); a pbem that knows only an
earlier version refuses a game made now rather than play it by its old readings without a word."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.clock import correspondence
from pbem.engine import engine
from pbem.store import registry, yamlio
from support import legal_turn, pbem_own_games, playable_games

EARLIER = [(game.id, version) for game in playable_games() for version in game.meta.get("earlier_rules_versions", [])]
# pbem keeps the archived games of its own games (tests/*/archive_*.yaml); a game of its own keeps and replays its own
ARCHIVED = [(game_id, version) for game_id, version in EARLIER if game_id in {g.id for g in pbem_own_games()}]
TESTS = Path(__file__).parent.parent


def archived(game_id: str, version: int) -> dict | None:
    """An archived game of this game and rules version (tests/*/archive_*.yaml), if there is one."""
    return next((archive for archive in map(yamlio.load_file, sorted(TESTS.glob("*/archive_*.yaml")))
                 if archive["game"] == game_id and archive["rules_version"] == version), None)


def made_by_an_earlier_pbem(directory, game_id, version, monkeypatch):
    """A game as the pbem of rules version `version` made it: that version in its files, and the options it knew,
    as its archived game stored them (none that a later version added)."""
    archive = archived(game_id, version)
    with monkeypatch.context() as earlier:
        earlier.setitem(registry.get(game_id).meta, "rules_version", version)
        correspondence.create(game_id, directory, [(name, None) for name in archive["players"]], seed="earlier",
                              options=archive["options"], options_as_stored=True)
    return archive


@pytest.mark.parametrize("game_id,version", ARCHIVED)
def test_each_earlier_rules_version_played_on_has_an_archived_game_that_replays(game_id, version):
    """An earlier version is played on only where archived games of it still replay to their stored result (the
    game's archive tests replay each one)."""
    assert archived(game_id, version) is not None


@pytest.mark.parametrize("game_id,version", ARCHIVED)
def test_a_game_of_an_earlier_rules_version_this_pbem_lists_plays_on_and_verifies(pbem, tmp_path, monkeypatch,
                                                                                game_id, version):
    directory = tmp_path / "g"
    archive = made_by_an_earlier_pbem(directory, game_id, version, monkeypatch)
    for _ in range(3):
        if engine.status(engine.open_game(directory))["finished"]:  # (a short game)
            break
        player, text, _ = legal_turn(directory)
        assert pbem("move", directory, "--as", player, "--text", text).code == 0
    gd = engine.open_game(directory)
    assert gd.meta["rules_version"] == version and engine.status(gd)["rules_version"] == version
    assert engine.read_log(gd)["rules_version"] == version
    assert engine.load_state(gd)["options"] == archive["options"]
    assert pbem("verify", directory).code == 0


@pytest.mark.parametrize("game_id", sorted({game_id for game_id, _ in EARLIER}))
def test_a_pbem_that_knows_only_the_earlier_version_refuses_a_game_made_now(pbem, new_game, monkeypatch, game_id):
    game = registry.get(game_id)
    directory, _ = new_game(game_id)
    monkeypatch.setitem(game.meta, "rules_version", game.meta["earlier_rules_versions"][-1])
    monkeypatch.setitem(game.meta, "earlier_rules_versions", [])
    made = yamlio.load_file(directory / "game.yaml")["rules_version"]
    refused = pbem("status", directory)
    assert refused.code == 2 and made > game.rules_version
    assert (f"was created under {game_id} rules version {made}, this pbem has version {game.rules_version}: finish "
            f"it with the pbem that started it" in refused.err)

