"""The truck-stop expansion: buying an upgrade, one per player, each owned by one player, and each designed
upgrade's ability."""
from __future__ import annotations

import pytest


def with_stop(t, stop="forklift", cell="a2", players=2, **alice):
    """The small map with one truck stop west of Eureka (b2); alice's turn to move."""
    state = t.every_upgrade(t.lay_map(t.started(players, {"truck-stops": "on"}), t.SMALL))
    state["truck_stops"] = [{"upgrade": stop, "cell": cell, "bought_by": None}]
    t.truck(state, "bob", cell="d4", hand=[])
    t.truck(state, "alice", **{"cell": "b2", "money": 10, "hand": ["fuel-1"], **alice})
    return state


def test_an_upgrade_may_be_bought_after_ending_a_move_on_its_truck_stop(t):
    state = t.turn(t.begin(with_stop(t), "alice"), "move w; pay fuel-1")
    assert t.decision(state)[1] == "buy_upgrade"
    assert t.legal_texts(state) == ["pass", "buy forklift"]
    state = t.play(state, "buy forklift")
    assert state["haulers"]["alice"]["upgrade"] == "forklift" and state["haulers"]["alice"]["money"] == 6
    assert state["truck_stops"][0]["bought_by"] == "alice"
    assert t.decision(state)[1] == "act"  # nothing to load at a stop: the action is the discard
    assert [m["action"] for m in t.legal(state)] == ["discard"]


def test_an_upgrade_is_offered_only_to_a_player_who_can_pay_its_cost(t):
    state = t.turn(t.begin(with_stop(t, money=3), "alice"), "move w; pay fuel-1")
    assert t.decision(state)[1] == "act"


def test_a_player_buys_one_upgrade_per_game(t):
    state = with_stop(t, stop="forklift", upgrade="dispatcher")
    state = t.turn(t.begin(state, "alice"), "move w; pay fuel-1")
    assert t.decision(state)[1] == "act"


def test_an_upgrade_is_owned_by_one_player_and_leaves_the_map_with_its_buyer(t):
    state = t.turn(t.begin(with_stop(t), "alice"), "move w; pay fuel-1; buy forklift; discard")
    assert state["truck_stops"][0]["bought_by"] == "alice"  # still on the map while alice is parked there
    t.truck(state, "alice", hand=["fuel-1"])
    state = t.turn(t.begin(state, "alice"), "move e; pay fuel-1")
    assert state["truck_stops"] == []  # she took the card along
    t.truck(state, "bob", cell="b3", hand=["fuel-1"], money=10)
    state = t.begin(state, "bob")
    assert not t.is_legal(state, "move n w")  # no space at a2 any more


def test_a_truck_stop_holds_one_truck(t):
    state = with_stop(t)
    t.truck(state, "bob", cell="a2")
    state = t.begin(state, "alice")
    assert not t.is_legal(state, "move w")


def test_a_truck_passes_through_a_truck_stop(t):
    state = t.every_upgrade(t.lay_map(t.started(2, {"truck-stops": "on"}),
                                      {"b2": "eureka", "c2": "midville", "c3": "centre"}))
    state["truck_stops"] = [{"upgrade": "forklift", "cell": "b3", "bought_by": None}]
    t.truck(state, "alice", cell="b2", money=0, hand=["fuel-3"])
    t.truck(state, "bob", cell="a1", hand=[])
    state = t.turn(t.begin(state, "alice"), "move s e n; pay fuel-3")  # through the stop and the centre
    assert state["haulers"]["alice"]["cell"] == "c2"


# ---------------------------------------------------------------- the designed abilities


def owning(t, upgrade, **alice):
    state = t.every_upgrade(t.lay_map(t.started(2, {"truck-stops": "on"}), t.SMALL))
    t.truck(state, "bob", cell="c3", hand=[])
    t.truck(state, "alice", **{"upgrade": upgrade, "money": 5, **alice})
    return state


def test_sleeper_cab_ends_a_move_where_another_truck_is_parked(t):
    state = owning(t, "sleeper-cab", cell="b2", hand=["fuel-1"])
    t.truck(state, "bob", cell="c2")
    assert t.is_legal(t.begin(state, "alice"), "move e")
    state["haulers"]["alice"]["upgrade"] = None
    assert not t.is_legal(t.begin(state, "alice"), "move e")


def test_jerry_can_pays_one_move_with_fuel_and_cash_together(t):
    state = t.play(t.begin(owning(t, "jerry-can", cell="b2", hand=["fuel-1"], money=2), "alice"), "move e e")
    assert "pay cash and fuel-1" in t.legal_texts(state)
    state = t.play(state, "pay cash and fuel-1")
    assert state["haulers"]["alice"]["money"] == 1 and state["haulers"]["alice"]["hand"] == []


def test_eco_engine_pays_for_one_space_less(t):
    state = t.play(t.begin(owning(t, "eco-engine", cell="b2", hand=["fuel-1", "fuel-2"], money=5), "alice"),
                   "move e e")
    assert sorted(t.legal_texts(state)) == ["pay cash", "pay fuel-1", "pay fuel-2"]
    after = t.play(state, "pay cash")
    assert after["haulers"]["alice"]["money"] == 4
    state = t.play(t.begin(owning(t, "eco-engine", cell="b2", hand=[], money=0), "alice"), "move e")
    assert t.legal_texts(state) == ["pay cash"]  # a 1-space move is free


def test_forklift_loads_any_good_at_one_bill_a_crate(t):
    state = owning(t, "forklift", cell="b2", hand=["pigs", "pigs"])
    state["crates"]["eureka"] = {"soybeans": 5, "pigs": 3}
    assert "load pigs 1..2" in t.legal_texts(t.begin(state, "alice", phase="act"))


def test_pallet_jack_loads_one_crate_without_a_bill(t):
    state = t.begin(owning(t, "pallet-jack", cell="b2", hand=["soybeans"]), "alice", phase="act")
    assert "load soybeans 1..2" in t.legal_texts(state)
    state = t.play(state, "load soybeans 1")
    assert state["haulers"]["alice"]["hand"] == ["soybeans"]


def test_extended_trailer_holds_two_crates_more(t):
    state = owning(t, "extended-trailer", cell="b2", hand=["soybeans"] * 5, cargo={"cattle": 8})
    assert "load soybeans 1..2" in t.legal_texts(t.begin(state, "alice", phase="act"))


@pytest.mark.parametrize("upgrade,good,price", [("livestock-trailer", "pigs", 6), ("grain-hopper", "soybeans", 3)])
def test_trailers_and_hoppers_pay_a_dollar_more_a_crate_of_their_goods(t, upgrade, good, price):
    state = owning(t, upgrade, cell="d2", money=0, hand=[good], cargo={good: 1})  # Fort Lee: soybeans $2, pigs $5
    state = t.play(t.begin(state, "alice", phase="act"), f"unload {good} 1")
    assert state["haulers"]["alice"]["money"] == price


def test_freight_broker_unloads_one_crate_without_a_bill(t):
    state = owning(t, "freight-broker", cell="d2", money=0, hand=["pigs"], cargo={"pigs": 3})
    state = t.begin(state, "alice", phase="act")
    assert "unload pigs 1..2" in t.legal_texts(state)
    state = t.play(state, "unload pigs 2")
    assert state["haulers"]["alice"]["hand"] == [] and state["haulers"]["alice"]["money"] == 10


def test_dispatcher_makes_the_discard_action_free(t):
    state = owning(t, "dispatcher", cell="b2", money=0, hand=["corn"])
    state = t.begin(state, "alice", phase="act")
    assert [m["action"] for m in t.legal(state)] == ["discard"]  # not towed: the discard costs nothing
    assert t.play(state, "discard corn")["haulers"]["alice"]["cell"] == "b2"


def test_cb_radio_refills_the_hand_to_six(t):
    state = t.begin(owning(t, "cb-radio", cell="b2", hand=["corn"] * 5), "alice", phase="refill")
    assert t.decision(state)[1] == "refill"
    state = t.play(state, "draw")
    assert len(state["haulers"]["alice"]["hand"]) == 6 and state["turn"]["player"] == "bob"


def test_load_board_takes_one_card_a_turn_from_the_discard_pile(t):
    state = owning(t, "load-board", cell="b2", hand=["corn"] * 3)
    state["discard"] = {"cattle": 2}
    state = t.begin(state, "alice", phase="refill")
    assert "salvage cattle" in t.legal_texts(state)
    state = t.play(state, "salvage cattle")
    assert state["discard"] == {"cattle": 1}
    assert t.rules.pending(state)["fresh_info"] is False  # the discard pile is public: nothing new was shown
    assert "salvage cattle" not in t.legal_texts(state)  # once a turn
