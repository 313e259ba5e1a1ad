"""Archived complete games, replayed move by move from their seed (each move checked against legal_moves), must
reach their stored result: a 2-player game and a 3-player game with the placements, truck stops, alternate
routes and warehouse mix. A rule change that alters an archived game fails here: raise rules_version and say why
in rules.md."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem import registry
from support import replay_archive

GAME = registry.get("heartland-hauling")
ARCHIVES = sorted(Path(__file__).parent.glob("archive_hh_*.yaml"))


def test_there_are_two_archived_games():
    assert len(ARCHIVES) >= 2


@pytest.mark.parametrize("path", ARCHIVES, ids=lambda p: p.stem)
def test_an_archived_game_replays_to_its_stored_result(path):
    archive, state, _ = replay_archive(GAME, path)
    assert GAME.rules.pending(state) is None
    assert GAME.rules.result(state) == archive["result"]
