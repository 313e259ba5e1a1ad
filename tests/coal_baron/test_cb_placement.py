"""Placing workers (the French and the Chinese rules, 'on your turn'; the option overplace is the French rules'
reading)."""
from __future__ import annotations


def test_empty_space_takes_exactly_one_worker(t):
    state = t.started(2)
    p = t.to_act(state)
    state = t.play(state, "place bank-6")
    assert state["board"]["bank-6"] == [p]
    assert state["pits"][p]["workers"] == 17
    assert not t.is_legal(t.give_turn(t.started(2), p), "place 2 workers on bank-6")  # overplace is off by default


def test_occupied_space_costs_workers_there_plus_one(t):
    state = t.started(2)
    state["board"]["bank-6"] = ["bob", "bob"]
    state = t.give_turn(state, "alice")
    state = t.play(state, "place bank-6")
    assert state["board"]["bank-6"] == ["alice"] * 3
    assert state["pits"]["alice"]["workers"] == 15


def test_displaced_workers_go_to_the_canteen(t):
    state = t.started(3)
    state["board"]["mining-6"] = ["carol", "carol"]
    state = t.play(t.give_turn(state, "alice"), "place mining-6")
    assert state["canteen"] == {"alice": 0, "bob": 0, "carol": 2}
    assert state["pits"]["carol"]["workers"] == 15  # not back in supply before the next shift


def test_own_occupied_space_also_costs_workers_there_plus_one(t):
    state = t.started(2)
    state["board"]["bank-4"] = ["alice"]
    state = t.play(t.give_turn(state, "alice"), "place bank-4")
    assert state["board"]["bank-4"] == ["alice", "alice"]
    assert state["canteen"]["alice"] == 1
    assert state["pits"]["alice"]["workers"] == 16


def test_bank_1_always_takes_exactly_one_worker(t):
    state = t.started(2)
    state["board"]["bank-1"] = ["bob", "bob", "alice"]
    state = t.play(t.give_turn(state, "alice"), "place bank-1")
    assert state["board"]["bank-1"] == ["bob", "bob", "alice", "alice"]  # stacks, nobody displaced
    assert state["canteen"] == {"alice": 0, "bob": 0}
    assert state["pits"]["alice"]["workers"] == 17


def test_bank_1_is_open_with_one_worker_left_when_others_are_not(t):
    state = t.started(2)
    state["pits"]["alice"]["workers"] = 1
    for space in state["board"]:
        if space != "bank-1":
            state["board"][space] = ["bob"]
    state["board"]["bank-1"] = ["bob"] * 5
    assert t.legal_texts(t.give_turn(state, "alice")) == ["place bank-1"]


def test_space_needs_enough_workers(t):
    state = t.started(2)
    state["board"]["bank-6"] = ["bob", "bob"]
    state["pits"]["alice"]["workers"] = 2
    assert not t.is_legal(t.give_turn(state, "alice"), "place bank-6")
    state["pits"]["alice"]["workers"] = 3
    assert t.is_legal(state, "place bank-6")


def test_factory_space_only_if_the_tile_can_be_paid(t):
    state = t.give_turn(t.started(2), "alice")
    tile = state["display"]["factory-1"]
    cost = state["components"]["tiles"][tile]["cost"]
    state["pits"]["alice"]["money"] = cost - 1
    assert not t.is_legal(state, "place factory-1")
    state["pits"]["alice"]["money"] = cost
    assert t.is_legal(state, "place factory-1")


def test_delivery_space_only_with_a_complete_order_of_that_transport(t):
    state = t.give_turn(t.started(2), "alice")
    state["pits"]["alice"]["orders"] = [{"id": "o01", "spots": [[]]}]  # wheelbarrow, yellow, not filled
    assert not t.is_legal(state, "place delivery-wheelbarrow")
    state["pits"]["alice"]["orders"] = [{"id": "o01", "spots": [["yellow"]]}]
    assert t.is_legal(state, "place delivery-wheelbarrow")
    assert not t.is_legal(state, "place delivery-train")


def test_order_and_factory_spaces_need_a_card_and_draw_spaces_a_deck(t):
    state = t.give_turn(t.started(2), "alice")
    state["display"]["order-2"] = None
    state["display"]["factory-1"] = None
    state["tile_deck"] = []
    state["order_deck"] = []
    legal = t.legal_texts(state)
    for space in ("order-2", "factory-1", "factory-draw", "order-draw"):
        assert f"place {space}" not in legal
    assert "place order-3" in legal and "place bank-1" in legal and "place mining-10" in legal


def test_locked_spaces_cannot_be_chosen(t):
    legal = t.legal_texts(t.started(2))
    for space in ("bank-3", "bank-5", "mining-4", "mining-8", "order-1", "factory-4", "factory-8"):
        assert f"place {space}" not in legal


def test_players_without_workers_are_skipped(t):
    state = t.started(3)
    state["pits"]["bob"]["workers"] = 0
    state = t.give_turn(state, "alice")
    state = t.play(state, "place bank-6")
    assert t.to_act(state) == "carol"
    state = t.play(state, "place bank-4")
    assert t.to_act(state) == "alice"


def test_turns_go_clockwise_from_the_start_player(t):
    state = t.started(3)
    first = t.to_act(state)
    assert first == state["start_player"]
    order = [first]
    for _ in range(3):
        state = t.play(state, "place bank-1")
        order.append(t.to_act(state))
    i = state["players"].index(first)
    assert order == [state["players"][(i + k) % 3] for k in range(4)]


def test_overplace_option_lets_an_empty_space_take_more_workers(t):
    state = t.give_turn(t.started(2, {"overplace": "on"}), "alice")
    state = t.play(state, "place 3 workers on bank-6")
    assert state["board"]["bank-6"] == ["alice"] * 3
    assert state["pits"]["alice"]["workers"] == 15
    assert state["pits"]["alice"]["money"] == 10 + 6  # the space's action is carried out as with one worker


def test_overplace_option_displacing_costs_that_number_plus_one(t):
    state = t.started(2, {"overplace": "on"})
    state["board"]["bank-6"] = ["bob"] * 3
    state = t.give_turn(state, "alice")
    assert not t.is_legal(state, "place 5 workers on bank-6")
    state = t.play(state, "place bank-6")
    assert state["board"]["bank-6"] == ["alice"] * 4 and state["canteen"]["bob"] == 3


def test_overplace_option_never_adds_workers_to_an_occupied_space(t):
    # the French rules' reading allows several workers on a free space only: an occupied one takes exactly
    # its workers + 1, with the option as without it
    state = t.started(2, {"overplace": "on"})
    state["board"]["bank-6"] = ["bob"]
    state["board"]["mining-6"] = ["alice"]
    state = t.give_turn(state, "alice")
    assert not t.is_legal(state, "place 3 workers on bank-6")
    assert not t.is_legal(state, "place 3 workers on mining-6")
    assert t.is_legal(state, "place bank-6") and t.is_legal(state, "place 3 workers on bank-4")
    overplaced = [m["space"]["from"] for m in t.rules.legal_moves(state, "alice") if m["action"] == "overplace"]
    assert len(overplaced) == 1 and "bank-4" in overplaced[0] and not set(overplaced[0]) & {"bank-6", "mining-6"}


def test_overplace_option_never_applies_to_bank_1(t):
    state = t.give_turn(t.started(2, {"overplace": "on"}), "alice")
    assert not t.is_legal(state, "place 2 workers on bank-1")
    assert [m for m in t.rules.legal_moves(state, "alice") if "bank-1" in str(m.get("space"))] == [
        {"action": "place", "space": "bank-1"}]
