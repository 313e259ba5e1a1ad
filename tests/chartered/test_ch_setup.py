"""Setup by player count and the components' consistency checks (a club may bring its own board and cards)."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from pbem.contract import PbemError
from pbem.play import playout
from pbem.rng import Rng
from pbem.store import yamlio
from support import run_pbem, snapshot

SETUP = {  # players: side, market, warehouses, card colours, hand, florins
    2: ("harbour", 5, 65, {"grey"}, 11, 600),
    3: ("harbour", 4, 65, {"grey", "blue"}, 10, 500),
    4: ("centre", 3, 96, {"grey", "blue", "orange"}, 9, 400),
    5: ("centre", 3, 96, {"grey", "blue", "orange"}, 9, 400),
    6: ("centre", 3, 96, {"grey", "blue", "orange"}, 8, 350),
}


def cards_of(components, colours):
    decks = [deck for deck in components["cards"] if deck["colour"] in colours]
    return Counter([str(n) for deck in decks for n in deck["plots"]]
                   + [f"level-{entry['level']}" for deck in decks for entry in deck["levels"]
                      for _ in range(entry["count"])])


@pytest.mark.parametrize("players", sorted(SETUP))
def test_board_side_market_warehouses_hand_and_florins_by_player_count(t, players):
    side, market, warehouses, _, hand, money = SETUP[players]
    state = t.new(players)
    assert state["side"] == side
    assert len(state["market"]) == market and state["costs"]["market"] == market
    assert state["supply"] == warehouses
    assert all(len(cards) == hand for cards in state["hands"].values())
    assert set(state["money"].values()) == {money}


@pytest.mark.parametrize("players", sorted(SETUP))
def test_card_colours_by_player_count_every_card_in_play_once(t, players):
    state = t.new(players)
    in_play = Counter(state["deck"] + state["market"] + [c for hand in state["hands"].values() for c in hand])
    assert in_play == cards_of(t.components(), SETUP[players][3])


def test_the_components_hold_113_cards_nine_companies_and_two_board_sides(t):
    components = t.components()
    assert sum(cards_of(components, {"grey", "blue", "orange"}).values()) == 113
    assert len(components["companies"]) == 9 and components["values"]["shares_per_company"] == 9
    assert {board["side"]: len(board["plots"]) for board in components["boards"]} == {"harbour": 48, "centre": 72}


def test_starting_hands_are_dealt_from_plot_cards_only(t):
    for seed in range(3):
        state = t.rules.setup(["ann", "bob", "cid", "dee"], {}, t.components(), Rng(f"s{seed}", "g", 0))
        dealt = [card for hand in state["hands"].values() for card in hand]
        assert not [card for card in dealt if card.startswith("level-")]
        assert any(card.startswith("level-") for card in state["deck"] + state["market"])


def test_hands_and_deck_are_shuffled_by_the_rng(t):
    one = t.rules.setup(["ann", "bob"], {}, t.components(), Rng("one", "g", 0))
    two = t.rules.setup(["ann", "bob"], {}, t.components(), Rng("two", "g", 0))
    assert one["hands"] != two["hands"] and one["deck"] != two["deck"]


def test_first_player_is_drawn_at_random(t):
    firsts = {t.rules.pending(t.rules.setup(["ann", "bob", "cid"], {}, t.components(), Rng(f"s{n}", "g", 0)))["player"]
              for n in range(12)}
    assert firsts == {"ann", "bob", "cid"}


def test_companies_start_free_and_every_player_with_no_share(t):
    state = t.new(3)
    assert all(data["hq"] is None and data["value"] == 0 and not data["shares"] for data in state["companies"].values())


# --------------------------------------------------------------------------- a club's own components

def broken(t, change):
    components = copy.deepcopy(t.components())
    change(components)
    return components


def setup_error(t, components, players=2):
    with pytest.raises(PbemError) as error:
        t.new(players, components=components)
    return str(error.value)


def test_a_card_naming_a_plot_missing_from_the_board_is_refused(t):
    components = broken(t, lambda c: c["cards"][0]["plots"].append(49))
    assert "grey cards name plots 49, which are not on the harbour side" in setup_error(t, components)


def test_adjacency_must_be_mutual_and_name_plots_of_the_board(t):
    def change(components):
        harbour = components["boards"][0]["plots"]
        harbour[0]["neighbours"].append(3)      # 1 touches 3, but 3 does not touch 1
        harbour[1]["neighbours"].append(99)     # 2 touches a plot that does not exist
    message = setup_error(t, broken(t, change))
    assert "harbour side: plot 1 touches 3 but 3 does not touch 1" in message
    assert "harbour side: plot 2 touches plot 99, which is not on the board" in message


def test_two_plots_with_one_number_or_one_map_place_are_refused(t):
    def change(components):
        components["boards"][0]["plots"][1]["number"] = 1
        components["boards"][0]["plots"][2].update(row=0, col=0)
    message = setup_error(t, broken(t, change))
    assert "harbour side: plot 1 appears twice" in message
    assert "harbour side: map place (row, col) (0, 0) appears twice" in message


def test_a_player_count_the_components_do_not_set_up_is_refused(t):
    components = broken(t, lambda c: c.update(setup=[row for row in c["setup"] if row["players"] != 5]))
    assert "set up games of 2, 3, 4, 6 players, not 5" in setup_error(t, components, players=5)


def test_the_stock_board_must_climb_and_price_a_new_company(t):
    def change(components):
        steps = components["stock_board"]["steps"]
        steps[0]["value"] = 40
        steps[3]["price"] = 5
    message = setup_error(t, broken(t, change))
    assert "above a new company's value (30)" in message
    assert "the step at 120 must come above 90 with a price no lower than 30" in message


def test_too_few_plot_cards_for_the_starting_hands_is_refused(t):
    components = broken(t, lambda c: c["setup"][0].update(hand=40))
    assert "56 plot cards cannot deal 2 hands of 40" in setup_error(t, components)


def test_components_without_a_company_are_refused_once(t):
    message = setup_error(t, broken(t, lambda c: c.update(companies=[])))
    assert message.count("there is no company to found") == 1


def test_pbem_new_with_an_inconsistent_components_file_exits_2_and_writes_nothing(t, tmp_path):
    components = broken(t, lambda c: c["cards"][0]["plots"].append(77))
    path = tmp_path / "club.yaml"
    path.write_text(yamlio.dumps(components))
    before = snapshot(tmp_path)
    done = run_pbem("new", "chartered", tmp_path / "g", "--player", "ann", "--player", "bob", "--components", path)
    assert done.returncode == 2
    assert "grey cards name plots 77, which are not on the harbour side" in done.stderr.decode()
    assert "Traceback" not in done.stderr.decode()
    assert snapshot(tmp_path) == before


def test_a_club_board_of_another_shape_plays_to_the_end(t):
    """A ring of 40 plots in two rows with a bridge from 5 to 35 (not side by side on the map), one card colour,
    a three-step stock board: consistent, so it plays."""
    ring = [{"number": n, "row": 0 if n <= 20 else 1, "col": n - 1 if n <= 20 else 40 - n,
             "neighbours": sorted({n % 40 + 1, (n - 2) % 40 + 1} | ({40 - n} if n in (5, 35) else set()))}
            for n in range(1, 41)]
    components = copy.deepcopy(t.components())
    components["boards"] = [{"side": "ring", "plots": ring}]
    components["cards"] = [{"colour": "white", "plots": list(range(1, 41)) * 2, "levels": [{"level": 2, "count": 4}]}]
    components["setup"] = [{"players": 3, "side": "ring", "market": 2, "warehouses": 50, "cards": ["white"],
                            "hand": 6, "money": 300}]
    components["stock_board"] = {"steps": [{"value": 30, "price": 10}, {"value": 100, "price": 40},
                                           {"value": 200, "price": 90}]}
    state = t.rules.setup(["ann", "bob", "cid"], {}, components, Rng("ring", "g", 0))
    for _, _, state in playout.steps(t.game, state, seed="ring"):
        pass
    assert t.rules.pending(state) is None
    assert state["map"][0].split()[:5] == ["1", "-", "2", "-", "3"] and state["links"] == ["5 35"]
    assert state["map"][1] == "| " + ". " * 18 + "|"                     # 1 above 40 and 20 above 21 touch


def test_the_map_holds_exactly_the_adjacency_of_the_components(t):
    from pbem.games.chartered.phases import board
    for side in t.components()["boards"]:
        lines, links = board.draw_map(side["plots"])
        expected = {str(p["number"]): tuple(str(n) for n in sorted(p["neighbours"])) for p in side["plots"]}
        assert board.read_map(tuple(lines), tuple(links)) == expected and links == []
