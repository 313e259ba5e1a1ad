"""Chartered's archived games (each replays to its stored result: tests/engine/test_engine_archives.py). The
2-player game's final scoring is worked out by hand in rules.md ("A game checked by hand")."""
from __future__ import annotations

from pathlib import Path

from support import replay_archive

ARCHIVES = sorted(Path(__file__).parent.glob("archive_ch_*.yaml"))


def replay(t, path):
    """The archived game and its final state; the first player is the one the archive names."""
    archive, state, _ = replay_archive(t.game, path)
    assert archive["moves"][0].split(": ", 1)[0] == archive["first_player"]
    return archive, state


def test_the_hand_checked_game_ends_as_computed_in_rules_md(t):
    _, state = replay(t, Path(__file__).parent / "archive_ch_2p_greedy.yaml")
    assert t.rules.pending(state) is None and state["supply"] == 0
    coffee = state["companies"]["coffee"]
    assert (coffee["value"], coffee["shares"], coffee["flag"]) == (650, {"ann": 4, "bob": 5}, "bob")
    assert state["money"] == {"ann": 7630, "bob": 8140} and len(state["hands"]["ann"]) == 1
    assert [company for company, data in state["companies"].items() if data["hq"]] == ["coffee"]
