"""Coal Baron's queue words (meta.yaml `queues:`), each played through the referee's turns: `draft best`, the
conditions (money, which is hidden, only one's own), and the phase-card variant's standing orders with what
disarms them."""
from __future__ import annotations

import pytest

from pbem.contract import PbemError
from support import QueueTable

Q = QueueTable("coal-baron")
PHASE = {"phase-cards": "on"}


def test_draft_best_takes_the_revealed_order_worth_most_points(t):
    env = Q.env(t.new(2))  # bob drafts first; revealed o12 (2 points), o36 3, o43 9, o03 3, o17 5, o28 5, o20 9
    env, _ = Q.send(env, "bob", "draft o43; draft o17 else draft best; draft best")
    env, entries = Q.send(env, "alice", "draft o20")
    assert Q.played(entries) == [("alice", ["draft o20"], None), ("bob", ["draft o17"], "queued")]
    env, entries = Q.send(env, "alice", "draft o28")
    assert Q.played(entries)[-1] == ("bob", ["draft o36"], "queued")  # o36 and o03: 3 points, o36 listed first


@pytest.mark.parametrize("amount, placed", [(11, "place bank-6"), (12, "place bank-4")])
def test_a_condition_on_ones_own_money(t, amount, placed):
    env = Q.env(t.started(2))  # alice has 10, and 11 after bank-1
    env, _ = Q.send(env, "alice", f"place bank-1; place bank-6 if alice money at least {amount} else place bank-4")
    env, entries = Q.send(env, "bob", "place bank-1")
    assert Q.played(entries)[-1] == ("alice", [placed], "queued")


def test_money_of_another_player_is_hidden_and_refused_in_a_condition(t):
    env = Q.env(t.started(2))
    with pytest.raises(PbemError, match=r"step 2 of your turn \('place bank-4 if bob money at least 5'\): bob's "
                                        r"money is hidden from you"):
        Q.send(env, "alice", "place bank-1; place bank-4 if bob money at least 5")


def test_a_condition_on_a_players_workers(t):
    env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; place bank-4 if bob workers at least 18 else "
                                                  "place bank-6")
    env, entries = Q.send(env, "bob", "place bank-1")
    assert Q.played(entries)[-1] == ("alice", ["place bank-6"], "queued")  # bob has 17 left


def test_a_condition_that_a_space_is_free(t):
    env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; place bank-6 if bank-6 free else place bank-4")
    env, entries = Q.send(env, "bob", "place bank-6")
    assert Q.played(entries)[-1] == ("alice", ["place bank-4"], "queued")


def test_a_condition_on_the_shift(t):
    env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; place bank-6 if shift 2 else place bank-4")
    env, entries = Q.send(env, "bob", "place bank-1")
    assert Q.played(entries)[-1] == ("alice", ["place bank-4"], "queued")


def phase_game(t, cards=("mining", "money", "factory")):
    """Three players past the draft, each with a phase card; the leader places first."""
    state = t.started(3, PHASE)
    while t.rules.pending(state)["decision"] == "pick_phase_card":
        state = t.play(state, f"pick {cards[len(state['phase']['cards'])]}")
    return Q.env(state)


def test_a_standing_round_order_passes_in_a_round_of_its_domain(t):
    env = phase_game(t)
    leader = t.rules.pending(env["state"])["player"]
    order = env["state"]["players"]
    second, third = (order[(order.index(leader) + k) % 3] for k in (1, 2))
    env, _ = Q.queue(env, second, "standing round: pass if domain money")
    env, entries = Q.send(env, leader, "place bank-6")
    assert Q.played(entries) == [(leader, ["place bank-6"], None), (second, ["pass"], "standing order")]
    assert Q.to_act(env) == (third, "place_or_pass")


def test_a_standing_round_order_whose_condition_fails_leaves_the_decision_to_its_player(t):
    env = phase_game(t)
    order = env["state"]["players"]
    leader = t.rules.pending(env["state"])["player"]
    second = order[(order.index(leader) + 1) % 3]
    env, _ = Q.queue(env, second, "standing round: pass if domain money")
    env, entries = Q.send(env, leader, "place mining-6; end")
    assert Q.played(entries) == [(leader, ["place mining-6", "end"], None)]
    assert Q.to_act(env) == (second, "place_or_pass") and Q.shown(env, second)["standing"]


def test_a_standing_order_is_disarmed_by_a_new_shift_and_never_plays(t):
    env = phase_game(t)
    order = env["state"]["players"]
    leader = t.rules.pending(env["state"])["player"]
    second = order[(order.index(leader) + 1) % 3]
    env, _ = Q.queue(env, second, "standing round: pass")
    env["state"]["shift"] = 2  # the shift this order was armed in is over
    env, entries = Q.send(env, leader, "place bank-6")
    assert Q.played(entries) == [(leader, ["place bank-6"], None)] and Q.to_act(env) == (second, "place_or_pass")
    assert Q.record(env, second)["standing"] == []
    assert "standing round order disarmed (a new shift began): pass" in Q.shown(env, second)["notices"][0]


def test_a_standing_phase_card_order_takes_the_first_card_left_of_its_ranking(t):
    state = t.started(3, PHASE)
    order = state["players"]
    leader = t.to_act(state)
    second = order[(order.index(leader) + 1) % 3]
    env, _ = Q.queue(Q.env(state), second, "standing phase-card: pick mining else pick money else pick orders")
    env, entries = Q.send(env, leader, "pick mining")
    assert Q.played(entries)[-1] == (second, ["pick money"], "standing order")
