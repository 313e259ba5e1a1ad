"""The end: the money goal by player count, one more turn for everyone else, penalties for crates left, the
ranking and its tie-breaks."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("players,goal", [(2, 50), (3, 40), (4, 30)])
def test_the_money_goal_depends_on_the_number_of_players(t, players, goal):
    assert t.started(players)["components"]["money_goal"] == goal


def unload_to_goal(t, players=3):
    """alice unloads at Fort Lee and reaches the goal during her turn."""
    state = t.lay_map(t.started(players), t.SMALL)
    goal = state["components"]["money_goal"]
    t.truck(state, "alice", cell="d2", money=goal - 5, hand=["pigs"], cargo={"pigs": 1})
    return t.begin(state, "alice", phase="act")


def test_reaching_the_goal_during_ones_turn_triggers_the_end(t):
    state = t.play(unload_to_goal(t), "unload pigs 1")
    assert state["end"] == {"triggered_by": "alice", "last_player": "carol"}
    assert not state["over"]


def finish_turn(t, state):
    """Play the rest of the current player's turn with the first legal move each time."""
    player = state["turn"]["player"]
    while not state["over"] and state["turn"]["player"] == player:
        state = t.play(state, t.game.normalise(t.first(state)))
    return state


def test_every_other_player_has_one_more_turn_after_the_trigger(t):
    state = t.play(unload_to_goal(t, players=3), "unload pigs 1")
    played = []
    state = finish_turn(t, state)
    while not state["over"]:
        played.append(state["turn"]["player"])
        state = finish_turn(t, state)
    assert played == ["bob", "carol"]
    assert t.rules.pending(state) is None


def test_the_trigger_stays_when_money_drops_below_the_goal(t):
    state = t.play(unload_to_goal(t, players=2), "unload pigs 1")
    state["haulers"]["alice"]["money"] = 0
    state = finish_turn(t, state)
    state = finish_turn(t, state)
    assert state["over"]


def ended(t, money, cargo):
    state = t.started(len(money))
    for player, amount in money.items():
        t.truck(state, player, money=amount, cargo=cargo.get(player, {}))
    state["over"], state["stack"], state["turn"] = True, [], None
    return state


def test_crates_left_on_a_truck_cost_one_dollar_for_corn_or_soybeans_and_two_for_cattle_or_pigs(t):
    state = ended(t, {"alice": 30, "bob": 20}, {"alice": {"corn": 1, "soybeans": 2, "cattle": 1, "pigs": 3}})
    row = next(r for r in t.rules.result(state) if r["player"] == "alice")
    assert row["details"] == {"money": 30, "crates left": 7, "penalty": -11}
    assert row["score"] == 19


def test_most_money_wins_then_fewest_crates_left_then_a_shared_victory(t):
    state = ended(t, {"alice": 20, "bob": 21, "carol": 21, "dave": 21},
                  {"bob": {"corn": 1}, "carol": {"soybeans": 1}, "dave": {"pigs": 1}})
    ranking = [(r["player"], r["score"], r["rank"]) for r in t.rules.result(state)]
    # alice, bob and carol end with $20; alice has no crate left, bob and carol one each and share second place
    assert ranking == [("alice", 20, 1), ("bob", 20, 2), ("carol", 20, 2), ("dave", 19, 4)]
