"""Setup by player count (the Chinese rules, 'game preparation')."""
from __future__ import annotations

import pytest

from pbem.rng import Rng

LOCKED = {  # the lock tiles: those marked "2" cover spaces with 2 players, those marked "2+3" with 2 and 3
    2: {"bank-3", "bank-5", "mining-4", "mining-8", "order-1", "factory-4", "factory-8"},
    3: {"bank-3", "mining-4", "factory-8"},
    4: set(),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_spaces_locked_by_player_count(t, players):
    state = t.new(players)
    every = {s["id"] for s in t.game.default_components()["spaces"]}
    assert set(state["components"]["spaces"]) == every - LOCKED[players]
    assert set(state["board"]) == every - LOCKED[players]


@pytest.mark.parametrize("players,workers,money", [(2, 18, 10), (3, 15, 9), (4, 13, 8)])
def test_workers_and_money_by_player_count(t, players, workers, money):
    state = t.new(players)
    for pit in state["pits"].values():
        assert pit["workers"] == workers
        assert pit["money"] == money


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sixteen_cubes_of_each_colour_in_all(t, players):
    state = t.new(players)
    assert t.count_cubes(state) == {"yellow": 16, "brown": 16, "grey": 16, "black": 16}
    assert state["supply"] == {c: 16 - players for c in ("yellow", "brown", "grey", "black")}


def test_printed_starting_minecarts_hold_one_cube_of_their_colour(t):
    state = t.new(2)
    pit = state["pits"]["alice"]
    assert [(tn["tile"], tn["carts"]) for tn in pit["tunnels"]] == [
        ("p1", ["yellow"]), ("p2", ["brown"]), ("p3", ["grey"]), ("p4", ["black"])]
    sides = {t_id: state["components"]["tiles"][t_id]["side"] for t_id in ("p1", "p2", "p3", "p4")}
    assert sides == {"p1": "dark", "p2": "lit", "p3": "lit", "p4": "dark"}
    assert pit["cage"] == {"level": 0, "cubes": []}


@pytest.mark.parametrize("players,face_up", [(2, 7), (3, 8), (4, 9)])
def test_tiles_dealt_face_up_on_the_open_factory_spaces(t, players, face_up):
    state = t.new(players)
    factory = [s for s, spec in state["components"]["spaces"].items() if spec["kind"] == "factory"]
    assert len(factory) == face_up - 1
    dealt = [state["display"][s] for s in factory]
    assert all(dealt) and len(set(dealt)) == len(dealt)
    assert len(state["tile_deck"]) == 48 - len(dealt)
    assert not set(dealt) & set(state["tile_deck"])


def test_tile_and_order_decks_are_complete_and_shuffled(t):
    a, b = t.new(2, seed="one"), t.new(2, seed="two")
    assert len(a["components"]["tiles"]) == 48 + 4  # 48 tunnel tiles and the 4 printed carts
    assert len(a["components"]["orders"]) == 44
    assert a["tile_deck"] != b["tile_deck"]


def test_start_player_is_chosen_by_the_rng(t):
    starts = {t.new(3, seed=f"s{i}")["start_player"] for i in range(12)}
    assert starts == {"alice", "bob", "carol"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_order_draft_reveals_three_per_player_plus_one(t, players):
    state = t.new(players)
    assert len(state["draft"]["revealed"]) == 3 * players + 1
    assert len(state["order_deck"]) == 44 - (3 * players + 1)
    assert t.rules.pending(state)["decision"] == "draft_orders"


def test_order_draft_goes_counter_clockwise_from_the_start_players_right(t):
    state = t.new(4, seed="draft")
    players = state["players"]
    s = players.index(state["start_player"])
    expected = [players[(s - 1 - k) % 4] for k in range(12)]
    seen = []
    while t.rules.pending(state)["decision"] == "draft_orders":
        seen.append(t.to_act(state))
        state = t.play(state, t.rules.legal_moves(state, t.to_act(state))[-1])
    assert seen == expected
    assert all(len(pit["orders"]) == 3 for pit in state["pits"].values())


def test_draft_leftover_fills_an_order_space_and_the_deck_the_rest(t):
    state = t.new(2)
    picks = []
    while t.rules.pending(state)["decision"] == "draft_orders":
        revealed = list(state["draft"]["revealed"])
        state = t.play(state, t.rules.legal_moves(state, t.to_act(state))[0])
        picks.append(revealed[0])
    leftover = (set(t.new(2)["draft"]["revealed"]) - set(picks)).pop()
    assert state["display"]["order-4"] == leftover
    deck_top = t.new(2)["order_deck"][:2]
    assert [state["display"]["order-2"], state["display"]["order-3"]] == deck_top
    assert state["draft"] is None
    assert t.rules.pending(state) == {"player": state["start_player"], "decision": "place_workers",
                                      "fresh_info": False}


def draft_with_extra_cards(t, extra):
    """A 2-player setup from a components file revealing `extra` cards more than the drafters take."""
    components = t.game.default_components()
    components["draft"]["extra_cards"] = extra
    state = t.rules.setup(["alice", "bob"], t.game.resolve_options({}), components, Rng("test", "t", 0))
    return state, list(state["draft"]["revealed"]), list(state["order_deck"])


@pytest.mark.parametrize("extra", [2, 5])
def test_every_leftover_draft_card_stays_in_the_game(t, extra):
    state, revealed, deck = draft_with_extra_cards(t, extra)
    state = t.draft(state)  # each drafter takes the first revealed card
    leftovers = revealed[6:]
    displayed = [state["display"][s] for s in ("order-4", "order-2", "order-3")]  # order-1 is locked with 2
    everywhere = displayed + state["order_deck"] + [o["id"] for p in state["pits"].values() for o in p["orders"]]
    assert sorted(everywhere) == sorted(state["components"]["orders"])
    # the leftovers fill the leftover space, then the other order spaces; the deck what is left; the rest of
    # the leftovers goes back on top of the deck
    assert displayed == (leftovers + deck)[:3]
    assert state["order_deck"][:max(0, len(leftovers) - 3)] == leftovers[3:]


def test_setup_refuses_an_unsupported_player_count(t):
    with pytest.raises(ValueError):
        t.new(["alice"])
