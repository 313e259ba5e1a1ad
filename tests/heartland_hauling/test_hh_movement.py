"""Phase 1, the move: distance, payment, the spaces a truck may use, towing (case 1) and road features."""
from __future__ import annotations

from pbem import notation
from support import MOST_ENTRIES


def at(t, cell="c3", money=5, hand=(), cargo=None, players=2, upgrade=None):
    """alice to move from `cell` on the small map, bob parked far away at d4 unless moved."""
    state = t.lay_map(t.started(players), t.SMALL)
    t.truck(state, "alice", cell=cell, money=money, hand=list(hand), cargo=cargo or {}, upgrade=upgrade)
    t.truck(state, "bob", cell="d4", hand=[])
    return t.begin(state, "alice")


def routes(t, state):
    return sorted(t.legal_texts(state))


def test_a_move_covers_one_to_three_orthogonal_spaces(t):
    state = at(t, cell="b2")
    assert t.is_legal(state, "move e") and t.is_legal(state, "move s")
    assert t.is_legal(state, "move e e") and t.is_legal(state, "move e s w")
    assert not t.is_legal(state, "move e e s s")  # 4 spaces
    assert not t.is_legal(state, "move n")  # off the map: no card there
    assert all(len(t.game.parse_move(text)["route"]) <= 3 for text in t.legal_texts(state) if "any order" not in text)


def test_fuel_cards_must_total_exactly_the_distance(t):
    state = at(t, cell="b2", money=0, hand=["fuel-1", "fuel-1", "fuel-2", "corn"])
    state = t.play(state, "move e e")
    assert sorted(t.legal_texts(state)) == ["pay fuel-1 fuel-1", "pay fuel-2"]
    assert not t.is_legal(state, "pay fuel-1")
    assert not t.is_legal(state, "pay fuel-1 fuel-2")  # 3 spaces of fuel for a 2-space move
    state = t.play(state, "pay fuel-1 fuel-1")
    assert state["haulers"]["alice"]["cell"] == "d2"
    assert state["haulers"]["alice"]["hand"] == ["fuel-2", "corn"]
    assert state["discard"] == {"fuel-1": 2}


def test_a_move_is_paid_with_one_dollar_a_space(t):
    state = at(t, cell="b2", money=5)
    state = t.turn(state, "move e e s; pay cash")
    assert state["haulers"]["alice"]["money"] == 2
    assert state["haulers"]["alice"]["cell"] == "d3"


def test_fuel_and_cash_are_never_both_used_for_one_move(t):
    state = at(t, cell="b2", money=5, hand=["fuel-1"])
    state = t.play(state, "move e e")
    assert sorted(t.legal_texts(state)) == ["pay cash"]  # fuel-1 alone cannot pay 2 spaces, nor with $1 added
    assert not t.is_legal(state, "pay cash and fuel-1")


def test_a_move_nobody_can_pay_for_is_not_offered(t):
    state = at(t, cell="b2", money=1, hand=["fuel-2"])
    texts = routes(t, state)
    assert "move e" in texts and "move e e" in texts  # $1 for one space, fuel-2 for two
    assert not any(len(t.game.parse_move(x)["route"]) == 3 for x in texts if "any order" not in x)


def test_no_space_is_entered_twice_in_a_turn(t):
    state = at(t, cell="b2")
    assert not t.is_legal(state, "move e w")  # back to the start
    assert not t.is_legal(state, "move e w e")
    assert t.is_legal(state, "move e s w")


def test_a_truck_passes_through_another_truck_and_the_centre_but_never_stops_there(t):
    state = at(t, cell="b3")
    t.truck(state, "bob", cell="c2")
    state = t.begin(state, "alice")
    assert not t.is_legal(state, "move e")  # the centre
    assert t.is_legal(state, "move e e")  # through the centre to Troy
    assert not t.is_legal(state, "move n e")  # bob is parked at c2
    assert t.is_legal(state, "move n e e")  # through bob's space to Fort Lee


def test_routes_whose_every_ordering_is_legal_are_one_entry(t):
    state = at(t, cell="b2")
    legal = t.legal(state)
    entry = next(m for m in legal if isinstance(m["route"], dict) and m["route"]["from"] == ["e", "e", "s"])
    assert t.game.format_move(entry) == "move (e e s in any order)"  # all three end at Troy, via the centre or not
    assert t.is_legal(state, "move e s e") and t.is_legal(state, "move s e e") and t.is_legal(state, "move e e s")
    assert "move e s" not in t.legal_texts(state) and not t.is_legal(state, "move e s")  # ends on the centre
    assert len(legal) <= MOST_ENTRIES


def test_a_player_who_cannot_move_is_towed_to_the_centre_and_must_discard(t):
    state = at(t, cell="b2", money=0, hand=["corn", "cattle"], cargo={"soybeans": 1})
    assert t.legal_texts(state) == ["tow"]
    state = t.play(state, "tow")
    assert state["haulers"]["alice"]["cell"] == "c3"
    assert t.decision(state)[1] == "act"
    assert [m["action"] for m in t.legal(state)] == ["discard"]
    state = t.play(state, "discard corn")  # broke: the forced discard is free
    assert state["haulers"]["alice"]["money"] == 0
    assert state["haulers"]["alice"]["hand"] == ["cattle"]


def test_a_towed_player_with_money_pays_for_the_forced_discard(t):
    state = t.lay_map(t.started(3), {"b2": "eureka", "c2": "midville", "b3": "flint", "c3": "centre"})
    t.truck(state, "alice", cell="b2", money=3, hand=[])
    t.truck(state, "bob", cell="c2")
    t.truck(state, "carol", cell="b3")  # every space alice could stop on is taken, the centre is not allowed
    state = t.begin(state, "alice")
    assert t.legal_texts(state) == ["tow"]
    state = t.turn(state, "tow; discard")
    assert state["haulers"]["alice"]["money"] == 2


def alternate(t, state, location, roads):
    state["components"]["locations"][location]["alternate"] = roads
    state["map"]["alternate"] = [location]
    return state


def test_a_closed_road_cannot_be_crossed_either_way(t):
    state = at(t, cell="b2")
    alternate(t, state, "midville", {"w": "closed"})
    state = t.begin(state, "alice")
    assert not t.is_legal(state, "move e")
    assert not t.is_legal(state, "move e e")
    assert t.is_legal(state, "move s e n")  # around, into Midville from the south
    t.truck(state, "alice", cell="c2")
    state = t.begin(state, "alice")
    assert not t.is_legal(state, "move w")


def test_a_weigh_station_charges_a_dollar_a_crate_above_four(t):
    state = at(t, cell="b2", money=4, hand=["fuel-1"], cargo={"soybeans": 6})
    alternate(t, state, "midville", {"w": "weigh"})
    state = t.begin(state, "alice")
    state = t.play(state, "move e")
    assert t.legal_texts(state) == ["pay cash", "pay fuel-1"]
    state = t.play(state, "pay fuel-1")  # fuel pays the space, the 2 crates above four cost $2 cash
    assert state["haulers"]["alice"]["money"] == 2


def test_a_weigh_station_charges_nothing_for_four_crates_or_fewer(t):
    state = at(t, cell="b2", money=1, cargo={"soybeans": 4})
    alternate(t, state, "midville", {"w": "weigh"})
    state = t.turn(t.begin(state, "alice"), "move e; pay cash")
    assert state["haulers"]["alice"]["money"] == 0


def test_a_toll_road_charges_a_dollar_entering_or_leaving_that_way(t):
    state = at(t, cell="b2", money=5, hand=["fuel-2"])
    alternate(t, state, "midville", {"w": "toll", "e": "toll"})
    state = t.turn(t.begin(state, "alice"), "move e e; pay fuel-2")  # in by the west, out by the east
    assert state["haulers"]["alice"]["money"] == 3


def test_road_charges_the_player_cannot_pay_make_the_route_illegal(t):
    state = at(t, cell="b2", money=0, hand=["fuel-1", "fuel-2"])
    alternate(t, state, "midville", {"w": "toll"})
    state = t.begin(state, "alice")
    assert not t.is_legal(state, "move e")
    assert t.is_legal(state, "move s")


def test_every_legal_move_list_of_the_route_decision_fits_forty_lines(t):
    """Every cell of every layout, an empty map otherwise: the route list fits the 40 lines of `pbem moves`."""
    from pbem.games.heartland_hauling.phases import movement
    for players in (2, 3, 4):
        for layout in ("standard", "alt-1", "alt-2", "alt-3"):
            state = t.started(players, {"layout": layout, "truck-stops": "on"})
            for other in state["players"][1:]:
                state["haulers"][other]["cell"] = "a1"
            t.truck(state, "alice", money=9, hand=["fuel-1", "fuel-1", "fuel-2", "fuel-3"])
            cells = list(state["map"]["cells"]) + [s["cell"] for s in state["truck_stops"]]
            for cell in cells:
                state["haulers"]["alice"]["cell"] = cell
                entries = movement.routes_to_entries(movement.payable_routes(state, "alice"))
                assert len(entries) <= MOST_ENTRIES, (players, layout, cell)
                assert all(notation.is_legal(t.game.normalise(m), entries) for m in
                           [{"action": "move", "route": list(r)} for r in movement.payable_routes(state, "alice")])
