"""Coal Baron's queue words (meta.yaml `queues:`), each played through the referee's turns: `draft best`, the
conditions (money, which is hidden, only one's own), and the phase-card variant's standing orders with what
disarms them."""
from __future__ import annotations

import pytest

from pbem.contract import PbemError
from pbem.text import language
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
    env, _ = Q.send(env, "alice", f"place bank-1; next; place bank-6 if alice money at least {amount} else "
                                  f"place bank-4")
    env, entries = Q.send(env, "bob", "place bank-1")
    assert Q.played(entries)[-1] == ("alice", [placed], "queued")


def test_money_of_another_player_is_hidden_and_refused_in_a_condition(t):
    env = Q.env(t.started(2))
    with pytest.raises(PbemError, match=r"step 2 of your turn \('place bank-4 if bob money at least 5'\): bob's "
                                        r"money is hidden from you"):
        Q.send(env, "alice", "place bank-1; place bank-4 if bob money at least 5")


def test_a_condition_on_a_players_workers(t):
    env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; next; place bank-4 if bob workers at least 18 "
                                                  "else place bank-6")
    env, entries = Q.send(env, "bob", "place bank-1")
    assert Q.played(entries)[-1] == ("alice", ["place bank-6"], "queued")  # bob has 17 left


def test_a_condition_that_a_space_is_free(t):
    env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; next; place bank-6 if bank-6 free else "
                                                  "place bank-4")
    env, entries = Q.send(env, "bob", "place bank-6")
    assert Q.played(entries)[-1] == ("alice", ["place bank-4"], "queued")


def test_a_condition_on_the_shift(t):
    env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; next; place bank-6 if shift 2 else "
                                                  "place bank-4")
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


# -------------------------------------------------------------------- a step belongs to the turn it was written for

WHOLE_TURN = "place mining-6; cage 4; load black; cage 3; load grey; cage 2; load brown; end"


def test_an_end_left_over_by_a_turn_that_ended_by_itself_is_dropped_not_played_next_turn(t):
    """The README's whole-turn example ends with `end`; when the six steps of mining-6 are spent the turn ends by
    itself. The `end` was kept and played at the player's next mining turn, losing its 10 steps and 2 workers."""
    env, entries = Q.send(Q.env(t.started(2)), "alice", WHOLE_TURN)
    assert Q.played(entries) == [("alice", WHOLE_TURN.split("; ")[:-1], None)]
    assert Q.record(env, "alice")["turns"] == [] and Q.shown(env, "alice")["notices"] == [
        "not played, the turn you wrote it for ended before it (a step for a later turn goes after `next`): end"]
    env, _ = Q.send(env, "bob", "place bank-1")
    env, entries = Q.send(env, "alice", "place mining-10")
    assert Q.played(entries) == [("alice", ["place mining-10"], None)]
    assert Q.to_act(env) == ("alice", "mine") and env["state"]["stack"][-1]["steps"] == 10


def test_a_placement_for_the_next_turn_without_next_is_dropped_and_its_player_told(t):
    env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; place bank-6")
    assert Q.shown(env, "alice")["notices"] == [
        "not played, the turn you wrote it for ended before it (a step for a later turn goes after `next`): "
        "place bank-6"]
    env, entries = Q.send(env, "bob", "place bank-4")
    assert Q.played(entries) == [("bob", ["place bank-4"], None)] and Q.to_act(env) == ("alice", "place_workers")


def test_a_queued_placement_that_costs_more_workers_now_stops_the_queue_and_says_why(t):
    """Queued when mining-6 was free (1 worker); bob took it, so the same words now cost 2 workers and displace
    bob's: the queue stops before it plays, and alice is asked."""
    env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; next; place mining-6; cage 4; load black")
    assert Q.record(env, "alice")["said"] == {"place mining-6": "6 work steps (1 worker)"}
    env, entries = Q.send(env, "bob", "place mining-6; cage 1; load yellow; end")
    assert Q.played(entries) == [("bob", ["place mining-6", "cage 1", "load yellow", "end"], None)]
    assert Q.to_act(env) == ("alice", "place_workers") and Q.record(env, "alice")["turns"] == []
    assert Q.shown(env, "alice")["notices"][-1].startswith(
        "your queue stopped at 'place mining-6': it now means 6 work steps (2 workers, displace bob's 1), not 6 "
        "work steps (1 worker) as when you queued it (legal: ")
    assert Q.shown(env, "alice")["notices"][-1].endswith("dropped: place mining-6; cage 4; load black")


def test_a_queue_sent_in_french_plays_when_its_turn_comes_while_another_language_is_written(t):
    """Its meaning is kept and read again in English: a queue its player sent in French is not stopped because the
    referee, when the turn comes, writes to bob in English (a table of several languages, a bot, the clock)."""
    with language.reading("fr"):
        env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; next; place mining-6; cage 4; load black")
    assert Q.record(env, "alice")["said"] == {"place mining-6": "6 work steps (1 worker)"}
    env, entries = Q.send(env, "bob", "place mining-10; cage 1; load yellow; end")
    assert Q.played(entries)[-1] == ("alice", ["place mining-6", "cage 4", "load black"], "queued")
    with language.reading("zh-Hant"):  # and a change of meaning stops it, whatever the language
        env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; next; place mining-6; cage 4; load black")
    env, _ = Q.send(env, "bob", "place mining-6; cage 1; load yellow; end")
    assert Q.shown(env, "alice")["notices"][-1].startswith("your queue stopped at 'place mining-6': it now means")


def test_a_queued_placement_whose_cost_did_not_change_plays(t):
    env, _ = Q.send(Q.env(t.started(2)), "alice", "place bank-1; next; place mining-6; cage 4; load black")
    env, entries = Q.send(env, "bob", "place mining-10; cage 1; load yellow; end")
    assert Q.played(entries)[-1] == ("alice", ["place mining-6", "cage 4", "load black"], "queued")


def test_the_turn_under_way_is_each_placement_with_what_follows_it(t):
    """Coal Baron's `turn` (meta.yaml `queues:`): one value for a placement decision and none for the mining steps
    after it (they go on with its turn); another for the next placement, whoever makes it."""
    turn = t.game.conditions.turn
    state = t.started(2)
    first = turn(t.game.rules.view(state, None))
    state = t.play(state, "place mining-6")
    assert turn(t.game.rules.view(state, None)) is None  # alice's mining: her placement's turn goes on
    for step in ("cage 1", "load yellow", "end"):
        state = t.play(state, step)
    second = turn(t.game.rules.view(state, None))
    assert first is not None and second is not None and second != first
    assert turn(t.game.rules.view(t.new(2), None)) == ["draft"]  # the order draft is one turn


# ------------------------------------------------------------ every name a report prints is a word a player may write

def mining(t, **pit):
    state = t.started(2)
    state["pits"]["alice"].update(pit)
    return Q.env(t.give_turn(state, "alice", "mine", steps=10))


def test_a_stored_cube_may_be_named_by_the_colour_storage_prints_and_the_log_records_it_stored(t):
    """The report prints storage as `storage: yellow`: `put yellow on o01` takes the stored cube when the cage at the
    surface holds no yellow; `put stored-yellow on o01` still does."""
    env = mining(t, cage={"level": 4, "cubes": []}, storage=["yellow"], orders=[{"id": "o01", "spots": [[]]}])
    assert "storage: yellow" in Q.game.report.render(Q.game.rules.view(env["state"], "alice"), "alice")
    for written in ("put yellow on o01", "put stored-yellow on o01"):
        _, entries = Q.send(env, "alice", written)
        assert Q.played(entries)[0] == ("alice", ["put stored-yellow on o01"], None)


def test_a_cube_named_by_its_colour_is_the_cages_while_the_cage_at_the_surface_holds_one(t):
    env = mining(t, cage={"level": 0, "cubes": ["brown"]}, storage=["brown", "yellow"],
                 orders=[{"id": "o05", "spots": [[]]}])  # o05: black
    env, _ = Q.send(env, "alice", "substitute black on o05")
    _, entries = Q.send(env, "alice", "with brown brown")
    assert Q.played(entries)[0] == ("alice", ["with brown stored-brown"], None)
