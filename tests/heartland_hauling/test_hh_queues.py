"""The Great Heartland Hauling Co.'s queue words (meta.yaml `queues:`), each played through the referee's turns:
the choice forms, the conditions (a hand, which is hidden, only one's own), the standing orders with the end
trigger that disarms them, and the refill sent ahead (the case that costs most round trips). The game declares no
turn (meta.yaml `queues: turn:`): a player's run of decisions is their turn, which holds because no one else
decides inside a turn and no one has two turns in a row (tested over whole games)."""
from __future__ import annotations

import pytest

from pbem.contract import PbemError
from pbem.play import plans
from support import QueueTable, random_decisions

Q = QueueTable("heartland-hauling")


def at(t, phase, deck=("pigs", "cattle", "fuel-1", "corn"), face_up=("fuel-2", "soybeans", "corn"), **alice):
    """The small map, alice at Eureka (b2: soybeans; demands pigs $3, cattle $4) at that phase of her turn."""
    state = t.lay_map(t.started(2), t.SMALL)
    t.truck(state, "alice", **{"cell": "b2", **alice})
    t.truck(state, "bob", cell="d4")
    state["deck"], state["face_up"] = list(deck), list(face_up)
    return Q.env(t.begin(state, "alice", phase=phase))


def test_load_most_loads_as_many_crates_as_may_be_loaded(t):
    env, entries = Q.queue(at(t, "act", hand=["soybeans"] * 3 + ["corn", "corn"]), "alice", "load most soybeans")
    assert Q.played(entries)[0] == ("alice", ["load soybeans 3"], "queued")


def test_unload_most_unloads_as_many_crates_as_may_be_unloaded(t):
    env, entries = Q.queue(at(t, "act", hand=["pigs"] * 3, cargo={"pigs": 2}), "alice",
                           "unload most cattle else unload most pigs")
    assert Q.played(entries)[0] == ("alice", ["unload pigs 2"], "queued")


def test_pay_fuel_pays_with_fuel_cards_only(t):
    env, entries = Q.send(at(t, "drive", hand=["fuel-1", "fuel-2", "corn"], money=5), "alice", "move e; pay fuel")
    assert Q.played(entries)[0] == ("alice", ["move e", "pay fuel-1"], None)


def test_pay_fuel_is_no_choice_without_fuel_cards(t):
    env, entries = Q.send(at(t, "drive", hand=["corn"], money=5), "alice", "move e; pay fuel else pay cash")
    assert Q.played(entries)[0] == ("alice", ["move e", "pay cash"], None)


def test_take_fuel_takes_the_face_up_fuel_card_worth_most_spaces(t):
    env, entries = Q.queue(at(t, "refill", hand=["corn"] * 4, face_up=("fuel-1", "fuel-3", "corn")), "alice",
                           "take fuel else draw")
    assert Q.played(entries)[0] == ("alice", ["take fuel-3"], "queued")


@pytest.mark.parametrize("card, taken", [("corn", "take soybeans"), ("pigs", "draw")])
def test_a_condition_on_ones_own_hand(t, card, taken):
    env, entries = Q.queue(at(t, "refill", hand=["corn"] * 4), "alice", f"take soybeans if alice holds {card} "
                                                                        f"else draw")
    assert Q.played(entries)[0] == ("alice", [taken], "queued")


def test_a_hand_of_another_player_is_hidden_and_refused_in_a_condition(t):
    with pytest.raises(PbemError, match="bob's hand is hidden from you"):
        Q.queue(at(t, "refill", hand=["corn"] * 4), "alice", "draw if bob holds corn")


def test_a_condition_on_a_players_money(t):
    env, entries = Q.queue(at(t, "refill", hand=["corn"] * 4), "alice", "take corn if bob money at least 100 "
                                                                        "else draw")
    assert Q.played(entries)[0] == ("alice", ["draw"], "queued")


@pytest.mark.parametrize("card, taken", [("fuel-2", "take fuel-2"), ("fuel-3", "draw")])
def test_a_condition_that_a_card_is_face_up(t, card, taken):
    env, entries = Q.queue(at(t, "refill", hand=["corn"] * 4), "alice", f"take fuel-2 if {card} face up else draw")
    assert Q.played(entries)[0] == ("alice", [taken], "queued")


def test_a_condition_on_what_a_truck_carries(t):
    env = at(t, "refill", hand=["corn"] * 4)
    env["state"]["haulers"]["bob"]["cargo"] = {"pigs": 1}
    env, entries = Q.queue(env, "alice", "take soybeans if bob carries pigs else draw")
    assert Q.played(entries)[0] == ("alice", ["take soybeans"], "queued")


def test_the_refill_sent_ahead_is_drawn_blind_one_card_after_another(t):
    """Each card drawn is new information: without a queue each is a round trip; sent ahead, the steps after the
    first draw are the player's choice to choose blind, played at once and said so."""
    env, entries = Q.send(at(t, "act", hand=["corn", "corn"]), "alice", "discard corn; draw; draw; take fuel else "
                                                                        "draw")
    assert Q.played(entries) == [("alice", ["discard corn", "draw"], None), ("alice", ["draw"], "queued"),
                                 ("alice", ["take fuel-2"], "queued")]
    assert sorted(env["state"]["haulers"]["alice"]["hand"]) == ["cattle", "corn", "fuel-2", "pigs"]
    assert Q.to_act(env) == ("alice", "refill")  # one card short: the queue is used up, she is asked
    assert "chosen blind" in Q.shown(env, "alice")["notices"][0]


def test_a_standing_refill_order_takes_each_card(t):
    env, _ = Q.queue(at(t, "drive", hand=["corn", "fuel-1"], money=5), "alice", "standing refill: take fuel else "
                                                                                  "draw")
    env, entries = Q.send(env, "alice", "move e; pay fuel-1; discard")
    assert Q.played(entries)[1:] == [("alice", ["take fuel-2"], "standing order"),
                                     ("alice", ["draw"], "standing order"), ("alice", ["draw"], "standing order"),
                                     ("alice", ["draw"], "standing order")]
    assert Q.to_act(env)[0] == "bob"


def test_a_standing_order_is_disarmed_when_the_end_is_triggered(t):
    env, _ = Q.queue(at(t, "drive", hand=["corn", "fuel-1"], money=5), "alice", "standing refill: draw")
    env["state"]["end"]["triggered_by"] = "bob"  # bob reached the money goal: one more turn each
    env, entries = Q.send(env, "alice", "move e; pay fuel-1; discard")
    assert Q.played(entries) == [("alice", ["move e", "pay fuel-1", "discard"], None)]
    assert Q.to_act(env) == ("alice", "refill")
    assert "disarmed (a player reached the money goal" in Q.shown(env, "alice")["notices"][0]


def test_a_standing_upgrade_order_passes_on_an_upgrade(t):
    state = t.every_upgrade(t.lay_map(t.started(2, {"truck-stops": "on"}), t.SMALL))
    state["truck_stops"] = [{"upgrade": "forklift", "cell": "a2", "bought_by": None}]
    t.truck(state, "bob", cell="d4", hand=[])
    t.truck(state, "alice", cell="b2", money=10, hand=["fuel-1"])
    env, _ = Q.queue(Q.env(t.begin(state, "alice")), "alice", "standing upgrade: pass")
    env, entries = Q.send(env, "alice", "move w; pay fuel-1")
    assert Q.played(entries)[1] == ("alice", ["pass"], "standing order")
    assert env["state"]["haulers"]["alice"]["upgrade"] is None


def test_what_is_left_when_a_turn_ends_is_dropped_never_played_at_the_players_next_turn(t):
    """alice's turn ends with her refill; the `load soybeans 1` she sent after it is dropped as bob's turn begins
    and she is told: nothing of it is left for her next action at Eureka."""
    env, entries = Q.send(at(t, "act", hand=["corn", "corn"]), "alice",
                          "discard corn; draw; draw; draw; draw; load soybeans 1")
    assert [moves for _, moves, _ in Q.played(entries)] == [["discard corn", "draw"], ["draw"], ["draw"], ["draw"]]
    assert Q.to_act(env) == ("bob", "drive") and not Q.shown(env, "alice")["turns"]
    assert "load soybeans 1" in Q.shown(env, "alice")["notices"][-1]


@pytest.mark.parametrize("players,options", [(2, {}), (3, {}), (4, {"truck-stops": "on"}),
                                             (3, {"truck-stops": "on", "layout": "alt-2"})])
def test_a_run_of_one_players_decisions_is_exactly_one_turn(players, options):
    """What makes the run of decisions the game's turn: every turn opens with its drive, every decision of a turn
    is the turn's player's, and the next turn is another player's; the setup's placements by one player in a row
    are one run before the first turn."""
    assert plans.vocabulary(Q.game).turn is None
    previous = None
    for state, decision, _legal in random_decisions(Q.game, ["alice", "bob", "carol", "dave"][:players], options,
                                                    f"runs-{players}"):
        player, kind = decision["player"], decision["decision"]
        if state["turn"] is not None:
            assert state["turn"]["player"] == player  # no one else decides inside a turn
            opens = kind == "drive" and state["turn"]["phase"] == "drive"
            assert opens == (previous is not None and player != previous[0]), (previous, player, kind)
        previous = (player, kind)
