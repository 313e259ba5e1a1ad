"""Mining: 4/6/8/10 work steps, one step per move (the French rules' extraction, the Chinese rules' mine)."""
from __future__ import annotations

import pytest

from pbem import notation
from pbem.games.coal_baron.phases import common


def mining(t, steps=10, players=2, **pit):
    """alice to act in her pit with `steps` work steps (pit fields overridden by keyword)."""
    state = t.started(players)
    state["pits"]["alice"].update(pit)
    return t.give_turn(state, "alice", "mine", steps=steps)


@pytest.mark.parametrize("space,steps", [("mining-4", 4), ("mining-6", 6), ("mining-8", 8), ("mining-10", 10)])
def test_mining_space_gives_its_work_steps(t, space, steps):
    state = t.give_turn(t.started(4), "alice")
    state = t.play(state, f"place {space}")
    assert t.rules.pending(state)["decision"] == "mine"
    assert state["stack"][-1]["steps"] == steps


def test_cage_moves_to_any_level_for_one_step(t):
    state = mining(t, steps=3)
    assert sorted(t.legal_texts(state))[:4] == ["cage 1", "cage 2", "cage 3", "cage 4"]
    assert "cage 0" not in t.legal_texts(state)
    state = t.play(state, "cage 4")
    assert state["pits"]["alice"]["cage"]["level"] == 4 and state["stack"][-1]["steps"] == 2
    state = t.play(state, "cage 0")
    assert state["pits"]["alice"]["cage"]["level"] == 0 and state["stack"][-1]["steps"] == 1


def test_load_a_cube_from_a_cart_on_the_cage_level(t):
    state = mining(t, cage={"level": 2, "cubes": []})
    state["pits"]["alice"]["tunnels"].append({"tile": "t16", "carts": ["brown", "brown"]})
    assert [x for x in t.legal_texts(state) if x.startswith("load")] == ["load brown"]
    state = t.play(state, "load brown")
    assert state["pits"]["alice"]["cage"]["cubes"] == ["brown"]
    assert state["pits"]["alice"]["tunnels"][1]["carts"] == [None]  # the printed brown cart emptied first
    assert state["stack"][-1]["steps"] == 9


def test_cage_holds_at_most_five_cubes(t):
    state = mining(t, cage={"level": 1, "cubes": ["black"] * 4})
    assert "load yellow" in t.legal_texts(state)
    state["pits"]["alice"]["cage"]["cubes"] = ["black"] * 5
    assert "load yellow" not in t.legal_texts(state)


def test_no_loading_at_the_surface(t):
    state = mining(t)
    assert not [x for x in t.legal_texts(state) if x.startswith("load")]


def test_unload_to_storage_only_at_the_surface(t):
    state = mining(t, cage={"level": 3, "cubes": ["grey"]})
    assert "store grey" not in t.legal_texts(state)
    state["pits"]["alice"]["cage"]["level"] = 0
    state = t.play(state, "store grey")
    assert state["pits"]["alice"]["storage"] == ["grey"] and state["pits"]["alice"]["cage"]["cubes"] == []


def test_unload_to_an_order_only_at_the_surface_and_only_its_colour(t):
    state = mining(t, cage={"level": 3, "cubes": ["grey", "black"]},
                   orders=[{"id": "o04", "spots": [[]]}])  # o04: wheelbarrow, grey
    assert not t.is_legal(state, "put grey on o04")
    state["pits"]["alice"]["cage"]["level"] = 0
    assert not t.is_legal(state, "put black on o04")
    state = t.play(state, "put grey on o04")
    assert state["pits"]["alice"]["orders"] == [{"id": "o04", "spots": [["grey"]]}]
    assert state["pits"]["alice"]["cage"]["cubes"] == ["black"]


def test_storage_to_an_order_from_anywhere(t):
    state = mining(t, cage={"level": 4, "cubes": []}, storage=["yellow"], orders=[{"id": "o01", "spots": [[]]}])
    state = t.play(state, "put stored-yellow on o01")
    assert state["pits"]["alice"]["orders"][0]["spots"] == [["yellow"]]
    assert state["pits"]["alice"]["storage"] == []


def test_two_cubes_of_any_colour_fill_one_spot_for_two_steps(t):
    state = mining(t, steps=3, cage={"level": 0, "cubes": ["yellow"]}, storage=["brown"],
                   orders=[{"id": "o05", "spots": [[]]}])  # o05: black
    state = t.play(state, "substitute black on o05")
    assert t.rules.pending(state)["decision"] == "choose_substitutes"
    assert t.legal_texts(state) == ["with yellow stored-brown"]  # both cubes at hand: no choice left
    state = t.play(state, "with stored-brown yellow")
    assert state["pits"]["alice"]["orders"][0]["spots"] == [["brown", "yellow"]]
    assert state["pits"]["alice"]["cage"]["cubes"] == [] and state["pits"]["alice"]["storage"] == []
    assert state["stack"][-1]["steps"] == 1
    assert common.order_complete(state, state["pits"]["alice"]["orders"][0])


def test_substitution_needs_two_steps_left(t):
    state = mining(t, steps=1, cage={"level": 0, "cubes": ["yellow", "brown"]},
                   orders=[{"id": "o05", "spots": [[]]}])
    assert not t.is_legal(state, "substitute black on o05")
    state["stack"][-1]["steps"] = 2
    state = t.play(state, "substitute black on o05")
    assert t.is_legal(state, "with brown yellow")
    state = t.play(state, "with brown yellow")
    assert t.to_act(state) == "bob"  # both steps spent: the mining turn is over


def test_substitution_may_use_the_right_colour_too(t):
    state = mining(t, cage={"level": 0, "cubes": ["black", "black"]}, orders=[{"id": "o05", "spots": [[]]}])
    state = t.play(state, "substitute black on o05")
    state = t.play(state, "with black black")
    assert state["pits"]["alice"]["orders"][0]["spots"] == [["black", "black"]]


def test_unspent_steps_are_lost(t):
    state = mining(t, steps=10)
    state = t.play(state, "end")
    assert t.rules.pending(state)["decision"] == "place_workers"
    assert t.to_act(state) == "bob"


def test_mining_turn_ends_when_the_steps_are_spent(t):
    state = mining(t, steps=2)
    state = t.play(state, "cage 1")
    state = t.play(state, "load yellow")
    assert t.to_act(state) == "bob" and t.rules.pending(state)["decision"] == "place_workers"


def test_cubes_never_go_from_storage_back_to_the_cage_or_between_orders(t):
    state = mining(t, cage={"level": 0, "cubes": []}, storage=["yellow"],
                   orders=[{"id": "o01", "spots": [["yellow"]]}, {"id": "o03", "spots": [[], []]}])
    legal = t.legal_texts(state)
    assert not [x for x in legal if x.startswith(("load", "store"))]
    assert [x for x in legal if x.startswith("put")] == ["put stored-yellow on o03"]


def test_a_whole_mining_turn_on_one_line(t):
    state = t.give_turn(t.started(2), "alice")
    state["pits"]["alice"]["orders"] = [{"id": "o10", "spots": [[], []]}]  # wheelbarrow: black black
    state["pits"]["alice"]["tunnels"].append({"tile": "t40", "carts": ["black", "black"]})
    state["supply"]["black"] -= 2
    line = "place mining-10; cage 4; load black; load black; load black; cage 0; put black on o10; store black; end"
    assert len(notation.split_turn(line)) == 9
    state = t.turn(state, line)
    pit = state["pits"]["alice"]
    assert pit["orders"][0]["spots"] == [["black"], []]
    assert pit["storage"] == ["black"] and pit["cage"] == {"level": 0, "cubes": ["black"]}
    assert t.to_act(state) == "bob"
    assert t.count_cubes(state) == {c: 16 for c in ("yellow", "brown", "grey", "black")}


def test_a_minecart_yields_its_cube_only_once(t):
    state = mining(t, steps=2, cage={"level": 1, "cubes": []})
    state = t.play(state, "load yellow")
    state = t.play(state, "end")
    for p in state["players"]:  # end the shift: carts are not refilled when the workers come home
        state["pits"][p]["workers"] = 0
    state["pits"]["alice"]["workers"] = 1
    state = t.play(t.give_turn(state, "alice"), "place bank-1")
    assert state["shift"] == 2
    assert state["pits"]["alice"]["tunnels"][0]["carts"] == [None]
    state = t.give_turn(state, "alice", "mine", steps=3)
    assert not [x for x in t.legal_texts(state) if x.startswith("load")]  # the cage is still at level 1
    assert state["pits"]["alice"]["cage"] == {"level": 1, "cubes": ["yellow"]}
