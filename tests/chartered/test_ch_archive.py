"""Archived complete games, replayed move by move from their seed (each move checked against legal_moves), reach
their stored final result. A rule change that alters one of them fails here: raise rules_version and say why in
rules.md. The 2-player game's final scoring is worked out by hand in rules.md ("A game checked by hand")."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem import notation, yamlio
from pbem.rng import Rng

ARCHIVES = sorted(Path(__file__).parent.glob("archive_ch_*.yaml"))


def replay(t, archive):
    seed, game_id = archive["seed"], archive["game_id"]
    state = t.rules.setup(archive["players"], archive["options"], t.components(), Rng(seed, game_id, 0))
    assert t.to_act(state) == archive["first_player"]
    for number, line in enumerate(archive["moves"], start=1):
        player, text = line.split(": ", 1)
        assert t.to_act(state) == player, f"move {number}: {line}"
        move = t.game.parse_move(text)
        assert notation.is_legal(move, t.legal(state, player)), f"move {number}: {line}"
        state = t.rules.apply(copy.deepcopy(state), player, move, Rng(seed, game_id, number))
    return state


def test_there_are_two_archived_games():
    assert len(ARCHIVES) == 2


@pytest.mark.parametrize("path", ARCHIVES, ids=lambda p: p.stem)
def test_archived_game_replays_to_its_stored_result(t, path):
    archive = yamlio.loads(path.read_bytes(), path.name)
    assert archive["rules_version"] == t.game.rules_version
    state = replay(t, archive)
    assert t.rules.pending(state) is None and state["supply"] == 0
    assert t.rules.result(state) == archive["result"]


def test_the_hand_checked_game_ends_as_computed_in_rules_md(t):
    state = replay(t, yamlio.loads((Path(__file__).parent / "archive_ch_2p_greedy.yaml").read_bytes()))
    coffee = state["companies"]["coffee"]
    assert (coffee["value"], coffee["shares"], coffee["flag"]) == (650, {"ann": 4, "bob": 5}, "bob")
    assert state["money"] == {"ann": 7630, "bob": 8140} and len(state["hands"]["ann"]) == 1
    assert [company for company, data in state["companies"].items() if data["hq"]] == ["coffee"]
