"""Every player hears of every move exactly once, whatever their mail preference and whenever they change it.

Whole games by mail (benchmarks/season.py's Season: the referee in one process, a transport that keeps the
mails, `pbem tick` every few hours, players who answer after some hours or only to reminders, or never, so the clock
plays for them), each seat starting with a preference drawn here, switching by mail at random moments, and a seat
handed on mid-game. Counting the `Move N:` lines of every mail a seat got (the answers to its mail, the reports,
turn mails, notices, digests, the welcome of its new holder), each move of the log is told to each seat once and
only once. The default run plays one short game a few times; the `slow` one every title, more often.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.clock.correspondence import NOTIFY
from support import load_helpers

load_helpers("season", Path(__file__).resolve().parents[2] / "benchmarks")
import season  # noqa: E402

PREFERENCES = st.lists(st.sampled_from(NOTIFY), min_size=4, max_size=4)
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def play(folder: Path, games: list[tuple[str, int]], seed: int, preferences: list[str]) -> season.Season:
    played = season.Season(folder, games, f"news-{seed}", switches_per_day=1.0, handovers=len(games),
                           silent_share=0.3, preferences=preferences, tick_every=3)
    played.run(days=400)
    assert not played.unfinished()
    assert played.handed == len(games) and played.switched > 0  # the hand-overs and the switches were there
    return played


@settings(max_examples=2, **SETTINGS)
@given(seed=st.integers(0, 10 ** 6), preferences=PREFERENCES)
def test_every_player_is_told_every_move_exactly_once(tmp_path_factory, seed, preferences):
    played = play(tmp_path_factory.mktemp("news"), [("chartered", 2)], seed, preferences)
    assert played.told_wrong() == {}


@pytest.mark.slow
@settings(max_examples=4, **SETTINGS)
@given(seed=st.integers(0, 10 ** 6), preferences=PREFERENCES)
def test_every_player_of_every_title_is_told_every_move_exactly_once(tmp_path_factory, seed, preferences):
    played = play(tmp_path_factory.mktemp("news"), season.season_games(4), seed, preferences)
    assert played.told_wrong() == {}
