"""Archived complete games, replayed move by move from their seed (each move checked against legal_moves), must
reach their stored result: a 2-player game and a 3-player game with the placements, truck stops, alternate
routes and warehouse mix. A rule change that alters an archived game fails here: raise rules_version and say why
in rules.md."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem import notation, registry, yamlio
from pbem.rng import Rng

GAME = registry.get("heartland-hauling")
ARCHIVES = sorted(Path(__file__).parent.glob("archive_hh_*.yaml"))


def test_there_are_two_archived_games():
    assert len(ARCHIVES) >= 2


@pytest.mark.parametrize("path", ARCHIVES, ids=lambda p: p.stem)
def test_an_archived_game_replays_to_its_stored_result(path):
    archive = yamlio.loads(path.read_bytes(), path.name)
    assert archive["rules_version"] == GAME.rules_version
    seed, game_id = archive["seed"], archive["game_id"]
    state = GAME.rules.setup(archive["players"], archive["options"], GAME.default_components(),
                             Rng(seed, game_id, 0))
    for number, line in enumerate(archive["moves"], start=1):
        player, text = line.split(": ", 1)
        assert GAME.rules.pending(state)["player"] == player, f"move {number}: {line}"
        move = GAME.parse_move(text)
        assert notation.is_legal(move, GAME.rules.legal_moves(state, player)), f"move {number}: {line}"
        state = GAME.rules.apply(copy.deepcopy(state), player, move, Rng(seed, game_id, number))
    assert GAME.rules.pending(state) is None
    assert GAME.rules.result(state) == archive["result"]
