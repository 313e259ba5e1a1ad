"""The five actions: money, tile factory, orders, delivery (mining has its own file)."""
from __future__ import annotations

from pbem.games.coal_baron import scoring


def test_money_space_pays_its_amount(t):
    state = t.give_turn(t.started(2), "alice")
    state = t.play(state, "place bank-4")
    assert state["pits"]["alice"]["money"] == 14
    state = t.play(t.give_turn(state, "alice"), "place bank-1")
    assert state["pits"]["alice"]["money"] == 15


def buy_setup(t, tile, money=20):
    state = t.give_turn(t.started(2), "alice")
    state["display"]["factory-1"] = tile
    if tile in state["tile_deck"]:
        state["tile_deck"].remove(tile)
    state["pits"]["alice"]["money"] = money
    return state


def test_buying_a_tile_pays_its_cost_and_fills_its_carts(t):
    state = buy_setup(t, "t46")  # black, lit, 2 carts, cost 8
    supply = state["supply"]["black"]
    state = t.play(state, "place factory-1")
    pit = state["pits"]["alice"]
    assert pit["money"] == 12
    assert pit["tunnels"][-1] == {"tile": "t46", "carts": ["black", "black"]}
    assert state["supply"]["black"] == supply - 2


def test_tile_goes_on_its_lit_or_dark_side(t):
    state = t.play(buy_setup(t, "t46"), "place factory-1")
    assert scoring.tile_balance(state, state["pits"]["alice"]) == (1, 0)
    state = t.play(buy_setup(t, "t40"), "place factory-1")  # black dark
    assert scoring.tile_balance(state, state["pits"]["alice"]) == (0, 1)
    pit_view = next(p for p in t.view(state, None)["pits"] if p["player"] == "alice")
    assert pit_view["tunnels"][-1]["side"] == "dark" and pit_view["tunnels"][-1]["level"] == 4


def test_tile_cost_is_level_times_carts(t):
    tiles = t.game.default_components()["tiles"]
    levels = {"yellow": 1, "brown": 2, "grey": 3, "black": 4}
    assert all(tile["cost"] == levels[tile["colour"]] * tile["carts"] for tile in tiles.values())
    assert len(tiles) == 48 and sum(1 for x in tiles.values() if x["side"] == "lit") == 24


def test_short_supply_lets_the_buyer_choose_any_colour(t):
    state = buy_setup(t, "t46")
    state["supply"]["black"] = 1
    state = t.play(state, "place factory-1")
    assert t.rules.pending(state)["decision"] == "choose_cube"
    assert state["pits"]["alice"]["tunnels"][-1]["carts"] == ["black", None]
    assert "cube black" not in t.legal_texts(state)
    state = t.play(state, "cube yellow")
    assert state["pits"]["alice"]["tunnels"][-1]["carts"] == ["black", "yellow"]
    assert state["supply"]["black"] == 0


def test_face_up_tile_space_refills_at_the_end_of_the_turn(t):
    state = buy_setup(t, "t46")
    state["supply"]["black"] = 0
    top = state["tile_deck"][0]
    state = t.play(state, "place factory-1")
    assert state["display"]["factory-1"] is None  # still the buyer's turn: not refilled yet
    state = t.play(state, "cube grey")
    state = t.play(state, "cube grey")
    assert state["display"]["factory-1"] == top
    assert state["tile_deck"][0] != top


def test_empty_tile_stack_leaves_the_space_empty(t):
    state = buy_setup(t, "t46")
    state["tile_deck"] = []
    state = t.play(state, "place factory-1")
    assert state["display"]["factory-1"] is None


def test_draw_five_tiles_shows_them_to_the_mover_alone(t):
    state = t.give_turn(t.started(2), "alice")
    top5 = state["tile_deck"][:5]
    state = t.play(state, "place factory-draw")
    assert t.rules.pending(state) == {"player": "alice", "decision": "keep_tile", "fresh_info": True}
    assert [c["id"] for c in t.view(state, "alice")["private"]["drawn"]["cards"]] == top5
    assert t.view(state, "bob")["private"]["drawn"] is None
    assert "drawn" not in str(t.view(state, None).get("private"))
    assert t.view(state, None)["to_act"]["drawn"] == 5


def test_draw_five_tiles_keep_one_and_pay_for_it(t):
    state = t.give_turn(t.started(2), "alice")
    state["tile_deck"][:5] = ["t01", "t46", "t47", "t04", "t03"]
    state["pits"]["alice"]["money"] = 5
    state = t.play(state, "place factory-draw")
    assert "keep t46" not in t.legal_texts(state)  # cost 8: cannot be paid
    state = t.play(state, "keep t04")
    assert state["pits"]["alice"]["money"] == 3
    assert state["pits"]["alice"]["tunnels"][-1]["tile"] == "t04"
    assert t.rules.pending(state)["decision"] == "return_tiles"


def test_draw_five_tiles_keep_none(t):
    state = t.give_turn(t.started(2), "alice")
    deck = list(state["tile_deck"])
    state = t.play(state, "place factory-draw")
    state = t.play(state, "keep none")
    assert state["pits"]["alice"]["money"] == 10
    assert len(state["stack"][-1]["cards"]) == 5
    state = t.play(state, "return top " + " ".join(deck[:5][::-1]))
    assert state["tile_deck"] == deck[:5][::-1] + deck[5:]


def test_draw_five_returns_the_rest_on_top_or_bottom_in_the_chosen_order(t):
    state = t.give_turn(t.started(2), "alice")
    state["tile_deck"][:5] = ["t01", "t04", "t07", "t10", "t13"]
    rest_of_deck = state["tile_deck"][5:]
    state = t.play(state, "place factory-draw")
    state = t.play(state, "keep t01")
    # top or bottom, any of the 4! orders: two entries, each an ordering of the four cards
    assert t.legal_texts(state) == ["return top (t04 t07 t10 t13 in any order)",
                                    "return bottom (t04 t07 t10 t13 in any order)"]
    assert not t.is_legal(state, "return top t10 t04 t13") and not t.is_legal(state, "return top t10 t04 t13 t01")
    bottom = t.play(state, "return bottom t10 t04 t13 t07")
    assert bottom["tile_deck"] == rest_of_deck + ["t10", "t04", "t13", "t07"]
    top = t.play(state, "return top t13 t10 t07 t04")
    assert top["tile_deck"] == ["t13", "t10", "t07", "t04"] + rest_of_deck


def test_draw_five_draws_what_is_left_of_a_short_deck(t):
    state = t.give_turn(t.started(2), "alice")
    state["order_deck"] = ["o01", "o02"]
    state = t.play(state, "place order-draw")
    assert state["stack"][-1]["drawn"] == ["o01", "o02"]
    state = t.play(state, "keep o02")
    assert t.legal_texts(state) == ["return top o01", "return bottom o01"]


def test_taking_a_face_up_order(t):
    state = t.give_turn(t.started(2), "alice")
    order = state["display"]["order-2"]
    top = state["order_deck"][0]
    state = t.play(state, "place order-2")
    assert state["pits"]["alice"]["orders"][-1]["id"] == order
    assert state["display"]["order-2"] == top  # refilled at the end of the turn


def test_outstanding_orders_have_no_limit(t):
    state = t.give_turn(t.started(2), "alice")
    state["pits"]["alice"]["orders"] = [{"id": o, "spots": [[]]} for o in ("o01", "o02", "o04", "o05", "o12")]
    assert t.is_legal(state, "place order-2")


def test_draw_five_orders_keep_one(t):
    state = t.give_turn(t.started(2), "alice")
    top5 = state["order_deck"][:5]
    state = t.play(state, "place order-draw")
    assert t.rules.pending(state)["fresh_info"] is True
    state = t.play(state, f"keep {top5[2]}")
    spots = [[] for _ in state["components"]["orders"][top5[2]]["cubes"]]
    assert state["pits"]["alice"]["orders"][-1] == {"id": top5[2], "spots": spots}
    state = t.play(state, "return bottom " + " ".join(top5[:2] + top5[3:]))
    assert state["order_deck"][-4:] == top5[:2] + top5[3:]


def test_delivery_delivers_all_complete_orders_of_that_transport_at_once(t):
    state = t.give_turn(t.started(2), "alice")
    state["pits"]["alice"]["orders"] = [
        {"id": "o01", "spots": [["yellow"]]},                     # wheelbarrow 2 VP, complete
        {"id": "o06", "spots": [["brown"], ["grey", "black"]]},   # wheelbarrow 5 VP, complete (substitute)
        {"id": "o02", "spots": [[]]},                             # wheelbarrow, not complete
        {"id": "o34", "spots": [["yellow"]]},                     # train, complete but another transport
    ]
    for c in ("yellow", "brown", "grey", "black", "yellow"):
        state["supply"][c] -= 1
    supply = dict(state["supply"])
    state = t.play(state, "place delivery-wheelbarrow")
    pit = state["pits"]["alice"]
    assert pit["delivered"] == ["o01", "o06"]
    assert [o["id"] for o in pit["orders"]] == ["o02", "o34"]
    assert pit["vp"] == 7 and pit["delivery_vp"] == 7
    assert state["supply"] == {"yellow": supply["yellow"] + 1, "brown": supply["brown"] + 1,
                               "grey": supply["grey"] + 1, "black": supply["black"] + 1}


def test_no_cube_left_at_all_leaves_the_cart_empty(t):
    state = buy_setup(t, "t46")
    state["supply"] = {c: 0 for c in state["supply"]}
    state = t.play(state, "place factory-1")
    assert state["pits"]["alice"]["tunnels"][-1]["carts"] == [None, None]
    assert t.rules.pending(state)["decision"] == "place_workers" and t.to_act(state) == "bob"
