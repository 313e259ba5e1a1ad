"""Setup: the map by player count and layout, crates, money, cards, the start player; the decisions asked right
after `new` (3 players: players 3 and 2 place a removed location; truck stops: the last player places them); a
club's components checked."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from pbem.contract import PbemError
from pbem.games.heartland_hauling.phases import board
from pbem.games.heartland_hauling.setup import check_components
from pbem.rng import Rng

GOODS = ["soybeans", "corn", "cattle", "pigs"]


def shape(state):
    """The map as drawn rows of the bounding box: W centre, # location."""
    cells = state["map"]["cells"]
    coords = {board.cell_coords(c): card for c, card in cells.items()}
    rows = range(min(r for r, _ in coords), max(r for r, _ in coords) + 1)
    cols = range(min(c for _, c in coords), max(c for _, c in coords) + 1)
    return ["".join("W" if coords.get((r, c)) == "centre" else "#" if (r, c) in coords else "." for c in cols)
            for r in rows]


def natives(state, locations):
    return Counter(state["components"]["locations"][loc]["native"] for loc in locations)


def test_two_players_remove_one_location_of_each_good_and_lay_eight_around_the_centre(t):
    state = t.new(2)
    assert shape(state) == ["###", "#W#", "###"]
    assert natives(state, state["removed"]) == Counter(GOODS)
    in_play = [card for card in state["map"]["cells"].values() if card != "centre"]
    assert natives(state, in_play) == Counter({g: 2 for g in GOODS})


def test_four_players_lay_all_twelve_locations_in_the_diamond(t):
    state = t.new(4)
    assert shape(state) == ["..#..", ".###.", "##W##", ".###.", "..#.."]
    assert state["removed"] == []


def test_three_players_then_player_three_and_player_two_each_place_a_removed_location(t):
    state = t.new(3, seed="three")
    order = state["players"][state["players"].index(state["start_player"]):] + \
        state["players"][:state["players"].index(state["start_player"])]
    assert shape(state) == ["###", "#W#", "###"] and len(state["removed"]) == 4
    assert t.rules.pending(state) == {"player": order[2], "decision": "place_location", "fresh_info": False}
    entry = t.legal(state)[0]
    cells = entry["cells"]["from"]
    assert len(cells) == 12 and all(not board.is_space(state, c) for c in cells)  # the ring around the 3x3
    location = entry["location"]
    state = t.play(state, f"place {location} at {cells[0]}")
    assert state["map"]["cells"][cells[0]] == location
    assert state["crates"][location] == {state["components"]["locations"][location]["native"]: 5}
    assert t.to_act(state) == order[1] and t.decision(state)[1] == "place_location"
    state = t.play(state, t.game.normalise(t.first(state)))
    assert len(state["removed"]) == 2
    assert t.rules.pending(state) == {"player": order[0], "decision": "drive", "fresh_info": False}


def test_a_removed_location_goes_next_to_a_card_of_the_map(t):
    state = t.new(3, seed="three")
    location = state["removed"][0]
    assert not t.is_legal(state, f"place {location} at a1")  # a corner of the frame, next to nothing
    cell = t.legal(state)[0]["cells"]["from"][0]
    assert any(board.is_space(state, other) for _, other in board.neighbours(state, cell))


def test_each_location_starts_with_five_crates_of_its_native_good(t):
    state = t.new(4)
    for location, crates in state["crates"].items():
        assert crates == {state["components"]["locations"][location]["native"]: 5}


def test_warehouse_mix_starts_three_native_crates_and_one_of_each_demanded_good(t):
    state = t.new(4, {"warehouse-mix": "on"})
    assert state["crates"]["eureka"] == {"soybeans": 3, "pigs": 1, "cattle": 1}
    assert state["crates"]["fort-lee"] == {"soybeans": 4, "pigs": 1}  # it demands its own native good
    assert state["box"] == {g: 0 for g in GOODS}  # exactly the 15 crates of every good


def test_trucks_start_on_the_centre_and_players_with_five_dollars(t):
    state = t.new(4)
    centre = board.centre_cell(state)
    assert {(h["cell"], h["money"]) for h in state["haulers"].values()} == {(centre, 5)}


def test_five_cards_are_dealt_to_each_player_and_three_turned_face_up(t):
    state = t.new(3)
    assert [len(h["hand"]) for h in state["haulers"].values()] == [5, 5, 5]
    assert len(state["face_up"]) == 3
    assert t.count_cards(state) == {"fuel-1": 10, "fuel-2": 6, "fuel-3": 3, "soybeans": 15, "corn": 15,
                                    "cattle": 8, "pigs": 8}


def test_the_start_player_is_drawn_at_random_for_everyone_to_see(t):
    starts = {t.new(4, seed=f"s{i}")["start_player"] for i in range(12)}
    assert len(starts) > 1
    rng = Rng("x", "t", 0)
    t.rules.setup(["alice", "bob"], t.game.resolve_options({}), t.game.default_components(), rng)
    assert {"what": "start player", "public": True} == {k: v for k, v in rng.outcomes[0].items() if k != "result"}
    assert next(o for o in rng.outcomes if o["what"] == "deck")["public"] is False


def test_new_start_shuffles_the_centre_in_among_the_locations(t):
    shapes = {tuple(shape(t.new(2, {"new-start": "on"}, seed=f"n{i}"))) for i in range(12)}
    assert all(sorted("".join(s)) == sorted("########W") for s in shapes)
    assert len(shapes) > 1  # the centre is not always in the middle


@pytest.mark.parametrize("players,layout,rows", [
    (2, "alt-1", [".#..#", "##W##", "#..#."]),
    (3, "alt-2", [".#.", "###", "#W#", "#.#", "#.#"]),
    (4, "alt-3", ["##...", "####.", "..W..", ".####", "...##"]),
])
def test_an_alternate_layout_lays_its_drawn_shape(t, players, layout, rows):
    state = t.new(players, {"layout": layout})
    assert shape(state) == rows
    assert t.decision(state)[1] == "drive"  # alternate layouts already place every card: no placement decisions


def test_alternate_routes_never_put_two_alternate_sides_next_to_each_other(t):
    for seed in range(6):
        state = t.new(4, {"alternate-routes": "on"}, seed=f"a{seed}")
        flipped = state["map"]["alternate"]
        assert flipped
        for location in flipped:
            cell = board.location_cell(state, location)
            assert not any(board.card_at(state, other) in flipped for _, other in board.neighbours(state, cell))
        assert board.connected(state, list(state["map"]["cells"]))


def test_truck_stops_players_plus_two_are_dealt_and_placed_by_the_last_player(t):
    state = t.new(3, {"truck-stops": "on"}, seed="stops")
    players = state["players"]
    last = players[players.index(state["start_player"]) - 1]
    while t.decision(state)[1] == "place_location":  # 3 players: the removed locations come first
        state = t.play(state, t.game.normalise(t.first(state)))
    assert len(state["setup"]["stops_to_place"]) == 5
    for placed in range(5):
        assert t.to_act(state) == last and t.decision(state)[1] == "place_truck_stop"
        state = t.play(state, t.game.normalise(t.first(state)))
    assert len(state["truck_stops"]) == 5 and t.decision(state)[1] == "drive"


def test_a_truck_stop_goes_next_to_a_location_and_next_to_no_other_truck_stop(t):
    state = t.new(2, {"truck-stops": "on"})
    entry = t.legal(state)[0]
    for cell in entry["cells"]["from"]:
        assert any(board.is_location(state, other) for _, other in board.neighbours(state, cell))
    state = t.play(state, f"stop {entry['upgrade']} at {entry['cells']['from'][0]}")
    placed = entry["cells"]["from"][0]
    for cell in t.legal(state)[0]["cells"]["from"]:
        assert placed not in [other for _, other in board.neighbours(state, cell)]
        assert cell != placed


# ---------------------------------------------------------------- a club's components


def components(t):
    return copy.deepcopy(t.game.default_components())


def test_the_shipped_components_pass_every_check(t):
    check_components(components(t))


def test_a_club_components_file_with_inconsistent_data_is_refused_with_every_problem_named(t):
    data = components(t)
    data["locations"][0]["native"] = "wheat"
    data["locations"][1]["demands"].append({"good": "corn", "price": 9})
    data["locations"][1]["demands"].append({"good": "corn", "price": 9})
    data["layouts"][0]["rows"] = ["#W", "..", "#."]
    data["goods"][0]["crates"] = 3
    data["truck_stops"][3].pop("amount")
    with pytest.raises(PbemError) as error:
        check_components(data)
    message = str(error.value)
    for expected in ("native good 'wheat' is not a good", "a good is demanded twice", "do not all connect",
                     "soybeans crates cannot fill every location", "needs an amount"):
        assert expected in message


def test_an_option_the_components_cannot_serve_is_refused_at_setup(t):
    data = components(t)
    data["layouts"] = [x for x in data["layouts"] if not (x["id"] == "alt-2" and x["players"] == 3)]
    with pytest.raises(PbemError, match="layout alt-2 is not in the components for 3 players"):
        t.new(3, {"layout": "alt-2"}, components=data)
    data["truck_stops"] = data["truck_stops"][:5]
    with pytest.raises(PbemError, match="needs 6 upgrade cards"):
        t.new(4, {"truck-stops": "on"}, components=data)


def three_player_alternate_returns(t, options, seeds=30):
    """The goods of the two removed locations an alternate 3-player layout takes back, over many seeds."""
    returned = []
    for seed in range(seeds):
        state = t.new(3, {"layout": "alt-1", **options}, seed=f"r{seed}")
        in_play = [card for card in state["map"]["cells"].values() if card != "centre"]
        doubled = natives(state, in_play) - Counter({g: 2 for g in GOODS})
        returned.append(tuple(sorted(doubled.elements())))
    return Counter(returned)


def test_three_player_alternate_layouts_take_back_two_removed_locations_drawn_at_random(t):
    returned = three_player_alternate_returns(t, {})
    assert len(returned) > 3  # not always the same two goods: any pair of the removed four may come back
    assert set(returned) <= {tuple(sorted(pair)) for pair in
                             [(a, b) for i, a in enumerate(GOODS) for b in GOODS[i + 1:]]}


def test_games_made_before_the_returned_locations_option_take_back_the_soybeans_then_the_corn_location(t):
    # the options an earlier pbem stored, without the key: replayed with the reading it was played with
    options = {k: v for k, v in t.game.resolve_options({"layout": "alt-1"}).items() if k != "returned-locations"}
    for seed in range(8):
        old = t.rules.setup(["alice", "bob", "carol"], options, t.game.default_components(), Rng(f"r{seed}", "t", 0))
        in_play = [card for card in old["map"]["cells"].values() if card != "centre"]
        assert natives(old, in_play) - Counter({g: 2 for g in GOODS}) == Counter(["soybeans", "corn"])


def centre_on_the_edge(t, options):
    """A 3-player new-start setup whose centre lies on the edge of the 3x3, so a cell outside touches only it."""
    for seed in range(40):
        state = t.new(3, {"new-start": "on", **options}, seed=f"c{seed}")
        centre = board.centre_cell(state)
        lonely = [cell for cell in board.empty_cells_next_to(state, [centre])
                  if not any(board.is_location(state, other) for _, other in board.neighbours(state, cell))]
        if lonely:
            return state, lonely
    raise AssertionError("no seed put the centre on the edge")


def test_a_removed_location_goes_next_to_a_location_never_next_to_the_centre_alone(t):
    state, lonely = centre_on_the_edge(t, {})
    cells = t.legal(state)[0]["cells"]["from"]
    assert not set(lonely) & set(cells)
    assert all(any(board.is_location(state, other) for _, other in board.neighbours(state, cell)) for cell in cells)
    location = state["removed"][0]
    assert not t.is_legal(state, f"place {location} at {lonely[0]}")


def test_games_made_before_the_removed_next_to_option_may_place_next_to_the_centre_alone(t):
    state, lonely = centre_on_the_edge(t, {})
    del state["options"]["removed-next-to"]  # a game of an earlier pbem keeps the reading it was played with
    assert t.is_legal(state, f"place {state['removed'][0]} at {lonely[0]}")


@pytest.mark.parametrize("count", [1, 2, 3])
def test_alternate_routes_with_a_number_turn_exactly_that_many_locations(t, count):
    for seed in range(4):
        state = t.new(4, {"alternate-routes": str(count)}, seed=f"a{seed}")
        assert len(state["map"]["alternate"]) == count
    on = t.new(4, {"alternate-routes": "on"}, seed="a0")["map"]["alternate"]
    assert len(on) >= 3  # `on`: as many as fit


def test_alternate_routes_with_a_number_draw_which_locations_at_random(t):
    drawn = {tuple(t.new(4, {"alternate-routes": "2"}, seed=f"a{seed}")["map"]["alternate"]) for seed in range(6)}
    assert len(drawn) > 1


def test_a_hand_or_a_deck_naming_a_card_the_game_does_not_have_breaks_the_schema(t):
    from pbem.store import validation
    state = t.started(2)
    player = state["players"][0]
    assert validation.is_valid(t.game.id, "game-state.schema.json", state)
    for edit in (lambda s: s["haulers"][player]["hand"].append("gold"), lambda s: s["deck"].append("fuel-x"),
                 lambda s: s["face_up"].append("wheat"), lambda s: s["haulers"][player]["cargo"].update(gold=1),
                 lambda s: s["discard"].update(gold=1)):
        broken = copy.deepcopy(state)
        edit(broken)
        assert not validation.is_valid(t.game.id, "game-state.schema.json", broken)
    view = t.view(state, player)
    assert validation.is_valid(t.game.id, "game-player-view.schema.json", view)
    view["private"]["hand"].append("gold")
    assert not validation.is_valid(t.game.id, "game-player-view.schema.json", view)


def test_a_club_components_file_names_the_four_goods_and_fuel_cards_by_their_spaces(t):
    from pbem.store import validation
    for edit in (lambda c: c["goods"][0].update(id="gold"), lambda c: c["fuel"][0].update(id="diesel")):
        components = t.game.default_components()
        edit(components)
        assert not validation.is_valid(t.game.id, "game-components.schema.json", components)
