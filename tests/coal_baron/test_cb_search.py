"""What Coal Baron's search (its version 2) plays to and how it scores where it stops: rollouts end with the
shift's scoring (meta.yaml `search: {until: shift}`), and the estimate counts the workers still to place and
money and cubes to the fraction."""
from __future__ import annotations

import random

import pytest

from pbem.games.coal_baron import scoring
from pbem.play import search
from pbem.store import registry


def test_coal_barons_search_has_a_version_of_its_own_and_plays_to_the_end_of_the_shift():
    game = registry.get("coal-baron")
    assert search.version(game) == 2 != search.VERSION
    assert search.settings(game)["until"] == "shift" and "rounds" not in search.settings(game)


def test_a_rollout_stops_once_the_shift_is_scored_and_the_next_shift_has_begun(t):
    game = registry.get("coal-baron")
    state = t.started(3)
    rolled = search.play_greedily(game, search.copied(state), None, random.Random(3), until="shift")
    assert rolled["shift"] == 2 and not rolled["over"]
    assert {award["shift"] for award in rolled["awards"]} == {1}  # shift 1 scored, nothing of shift 2 yet
    assert all(rolled["pits"][p]["workers"] == rolled["components"]["workers"] for p in rolled["players"])
    whole = search.play_greedily(game, search.copied(state), None, random.Random(3))
    assert whole["over"]  # without `until`, to the end of the game


def test_a_rollout_of_the_last_shift_plays_to_the_end_of_the_game(t):
    game = registry.get("coal-baron")
    state = t.started(2)
    state["shift"] = 3
    rolled = search.play_greedily(game, state, None, random.Random(5), until="shift")
    assert rolled["over"] and game.rules.pending(rolled) is None


def test_the_estimate_counts_each_worker_still_to_place_this_shift(t):
    state = t.started(3)
    before = scoring.estimate(state)
    state["pits"]["alice"]["workers"] -= 2  # two workers spent on nothing
    after = scoring.estimate(state)
    assert after["alice"] == pytest.approx(before["alice"] - 2 * scoring.WORKER_LEFT)
    assert after["bob"] == before["bob"] and after["carol"] == before["carol"]


def test_the_estimate_counts_money_and_cubes_to_the_fraction_where_the_final_score_rounds_down(t):
    state = t.started(2)
    state["pits"]["alice"]["money"] = 10
    state["pits"]["bob"]["money"] = 14
    final = {row["player"]: row["score"] for row in scoring.result(state)}
    estimate = scoring.estimate(state)
    assert final["bob"] - final["alice"] == 0  # 10 and 14 money are both 2 VP at the end
    assert estimate["bob"] - estimate["alice"] == pytest.approx(4 / 5)  # but 4 coins are most of a VP on the way
    state["pits"]["bob"]["storage"].append("yellow")
    assert scoring.estimate(state)["bob"] - estimate["bob"] == pytest.approx(1 / 3)
