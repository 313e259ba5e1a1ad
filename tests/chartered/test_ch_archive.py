"""Archived complete games, replayed move by move from their seed (each move checked against legal_moves), reach
their stored final result. A rule change that alters one of them fails here: raise rules_version and say why in
rules.md. The 2-player game's final scoring is worked out by hand in rules.md ("A game checked by hand")."""
from __future__ import annotations

from pathlib import Path

import pytest

from support import replay_archive

ARCHIVES = sorted(Path(__file__).parent.glob("archive_ch_*.yaml"))


def replay(t, path):
    """The archived game and its final state; the first player is the one the archive names."""
    archive, state, _ = replay_archive(t.game, path)
    assert archive["moves"][0].split(": ", 1)[0] == archive["first_player"]
    return archive, state


def test_there_are_two_archived_games():
    assert len(ARCHIVES) == 2


@pytest.mark.parametrize("path", ARCHIVES, ids=lambda p: p.stem)
def test_archived_game_replays_to_its_stored_result(t, path):
    archive, state = replay(t, path)
    assert t.rules.pending(state) is None and state["supply"] == 0
    assert t.rules.result(state) == archive["result"]


def test_the_hand_checked_game_ends_as_computed_in_rules_md(t):
    _, state = replay(t, Path(__file__).parent / "archive_ch_2p_greedy.yaml")
    coffee = state["companies"]["coffee"]
    assert (coffee["value"], coffee["shares"], coffee["flag"]) == (650, {"ann": 4, "bob": 5}, "bob")
    assert state["money"] == {"ann": 7630, "bob": 8140} and len(state["hands"]["ann"]) == 1
    assert [company for company, data in state["companies"].items() if data["hq"]] == ["coffee"]
