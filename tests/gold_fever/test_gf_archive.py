"""Archived complete games: replayed move by move from the seed (each move checked against legal_moves), they
must reproduce every recorded public roll and the stored final result. A rule change that alters an archived
game fails here: bump rules_version and say why in rules.md."""
from pathlib import Path

import pytest

from pbem import registry
from support import replay_archive

GAME = registry.get("gold-fever")
ARCHIVES = sorted(Path(__file__).parent.glob("archive_gf_*.yaml"))


def test_there_are_two_archived_games():
    assert len(ARCHIVES) >= 2


@pytest.mark.parametrize("path", ARCHIVES, ids=lambda p: p.stem)
def test_archived_game_replays_to_its_stored_result(path):
    archive, state, rolls = replay_archive(GAME, path)
    assert GAME.rules.pending(state) is None
    assert rolls == archive["rolls"]
    assert GAME.rules.result(state) == archive["result"]
