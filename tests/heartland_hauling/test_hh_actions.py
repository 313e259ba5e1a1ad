"""Phase 2, the action: load, unload or discard; towing when none is possible (case 2)."""
from __future__ import annotations


def at(t, cell, money=5, hand=(), cargo=None, options=None, crates=None):
    """alice's action at `cell` of the small map (bob far away)."""
    state = t.lay_map(t.started(2, options), t.SMALL, crates)
    t.truck(state, "alice", cell=cell, money=money, hand=list(hand), cargo=cargo or {})
    t.truck(state, "bob", cell="c3")
    return t.begin(state, "alice", phase="act")


def test_loading_the_native_good_costs_one_freight_bill_a_crate(t):
    state = at(t, "b2", hand=["soybeans", "soybeans", "soybeans", "fuel-1"])  # Eureka: soybeans
    assert t.legal_texts(state)[0] == "load soybeans 1..3"
    state = t.play(state, "load soybeans 3")
    alice = state["haulers"]["alice"]
    assert alice["cargo"] == {"soybeans": 3} and alice["hand"] == ["fuel-1"]
    assert state["crates"]["eureka"] == {"soybeans": 2}
    assert state["discard"] == {"soybeans": 3}


def test_loading_another_good_costs_two_freight_bills_a_crate(t):
    state = at(t, "b2", hand=["pigs", "pigs", "pigs"], crates={"eureka": {"soybeans": 5, "pigs": 2}})
    assert "load pigs 1..1" in t.legal_texts(state)  # 3 bills pay for one crate of a good not native here
    state = t.play(state, "load pigs 1")
    assert state["haulers"]["alice"]["hand"] == ["pigs"]
    assert state["crates"]["eureka"] == {"soybeans": 5, "pigs": 1}


def test_loading_needs_bills_of_the_good_loaded(t):
    state = at(t, "b2", hand=["corn", "corn", "fuel-3"])
    assert not any(m["action"] == "load" for m in t.legal(state))


def test_a_truck_holds_eight_crates(t):
    state = at(t, "b2", hand=["soybeans"] * 5, cargo={"cattle": 6})
    assert "load soybeans 1..2" in t.legal_texts(state)


def test_short_haul_trucks_hold_six_crates(t):
    state = at(t, "b2", hand=["soybeans"] * 5, cargo={"cattle": 4}, options={"short-haul": "on"})
    assert "load soybeans 1..2" in t.legal_texts(state)


def test_one_kind_of_good_is_loaded_per_action(t):
    state = at(t, "b2", hand=["soybeans", "soybeans", "pigs", "pigs"],
               crates={"eureka": {"soybeans": 5, "pigs": 2}})
    loads = [m for m in t.legal(state) if m["action"] == "load"]
    assert [m["good"] for m in loads] == ["soybeans", "pigs"]
    state = t.play(state, "load soybeans 2")
    assert t.decision(state)[1] != "act"  # the action is over


def test_unloading_only_where_the_good_is_demanded_paid_its_price_a_crate(t):
    state = at(t, "d2", money=1, hand=["pigs", "pigs", "cattle"], cargo={"pigs": 2, "cattle": 1})  # Fort Lee
    assert [m["good"] for m in t.legal(state) if m["action"] == "unload"] == ["pigs"]  # wants soybeans, pigs
    state = t.play(state, "unload pigs 2")
    alice = state["haulers"]["alice"]
    assert alice["money"] == 11 and alice["cargo"] == {"cattle": 1} and alice["hand"] == ["cattle"]
    assert state["crates"]["fort-lee"] == {"soybeans": 5, "pigs": 2}


def test_unloading_costs_one_freight_bill_a_crate(t):
    state = at(t, "d2", hand=["pigs"], cargo={"pigs": 3})
    assert "unload pigs 1..1" in t.legal_texts(state)


def test_a_location_holds_at_most_eight_crates(t):
    state = at(t, "d2", hand=["pigs"] * 4, cargo={"pigs": 4}, crates={"fort-lee": {"soybeans": 6}})
    assert "unload pigs 1..2" in t.legal_texts(state)
    state = at(t, "d2", hand=["pigs"] * 4, cargo={"pigs": 4}, crates={"fort-lee": {"soybeans": 8}})
    assert not any(m["action"] == "unload" for m in t.legal(state))


def test_the_discard_action_costs_one_dollar_for_any_number_of_cards(t):
    state = at(t, "b2", money=2, hand=["soybeans", "corn", "fuel-1"])
    assert t.legal_texts(state)[-1] == "discard (any 0..3 of corn fuel-1 soybeans)"
    after = t.play(state, "discard corn fuel-1")
    assert after["haulers"]["alice"]["money"] == 1 and after["haulers"]["alice"]["hand"] == ["soybeans"]
    after = t.play(state, "discard")
    assert after["haulers"]["alice"]["money"] == 1 and len(after["haulers"]["alice"]["hand"]) == 3


def test_a_player_who_can_neither_load_nor_unload_must_discard(t):
    state = at(t, "b2", money=2, hand=["corn", "cattle"])
    assert [m["action"] for m in t.legal(state)] == ["discard"]


def test_the_discard_is_not_offered_to_a_player_who_cannot_pay_and_has_another_action(t):
    state = at(t, "b2", money=0, hand=["soybeans"])
    assert [m["action"] for m in t.legal(state)] == ["load"]


def test_a_player_who_can_neither_load_nor_unload_nor_pay_for_the_discard_is_towed_and_discards_free(t):
    state = at(t, "b2", money=0, hand=["corn", "cattle"], cargo={"corn": 1})
    assert t.legal_texts(state) == ["tow and discard (any 0..2 of cattle corn)"]
    state = t.play(state, "tow and discard cattle")
    alice = state["haulers"]["alice"]
    assert alice["cell"] == "c3" and alice["money"] == 0 and alice["hand"] == ["corn"]
    assert t.decision(state)[1] == "refill"


def test_a_resigned_seat_discards_nothing_as_its_action_and_draws_from_the_deck():
    from pbem import bots
    from pbem.store import registry
    from support import reach_decision
    game = registry.get("heartland-hauling")
    _, _, legal, view = reach_decision(game, {}, ["alice", "bob"], "act")
    move = bots.resigned_move(game, view, legal)
    assert move["action"] in ("discard", "towed") and move["cards"] == []
    _, _, legal, view = reach_decision(game, {}, ["alice", "bob"], "refill")
    assert bots.resigned_move(game, view, legal) == {"action": "draw"}


def test_a_resigned_seat_buys_no_upgrade(t):
    from pbem import bots
    legal = [{"action": "pass"}, {"action": "buy", "upgrade": "forklift"}]
    assert bots.resigned_move(t.game, {"to_act": {"decision": "buy_upgrade"}}, legal) == {"action": "pass"}
