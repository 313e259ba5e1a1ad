"""B. Building a warehouse: founding, expanding, stacking, level cards and the builder's income (French rules).

The harbour side (2 players) is used throughout. Its top-left quay: plots 1-2 and 7-8 touch across and down,
13 and 14 below them, 19-20-21-22 a row joined to the next quay; plot 14 is two steps from plot 2.
"""
from __future__ import annotations


def two_players_with_gold(t, *cards):
    """Ann to act with exactly `cards`; gold stands on 1, 2 and 7 (value 30)."""
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1, shares={"bob": 1})
    return t.give(state, "ann", *cards)


def test_founding_needs_three_empty_plots_between_companies(t):
    state = two_players_with_gold(t, "20", "21")
    # 20 is 3 steps from gold's 7 (2 empty plots between): too close; 21 is 4 steps away.
    assert not t.is_legal(state, "build 20")
    assert t.is_legal(state, "build 21")


def test_a_plot_near_a_company_but_not_touching_it_cannot_be_played(t):
    state = two_players_with_gold(t, "14")
    assert "build 14" not in t.legal_texts(state)


def test_founding_places_two_free_warehouses_on_plots_beside_the_first(t):
    state = t.play(two_players_with_gold(t, "21"), "build 21")
    assert t.decision(state) == ("ann", "found_company")
    # 21 touches 15, 20 and 22; 20 is within the buffer of gold, so the free warehouses go on 15 and 22.
    assert "found tea 15 22" in t.legal_texts(state)
    assert not t.is_legal(state, "found tea 15 20")
    state = t.play(state, "found tea 15 22")
    assert state["companies"]["tea"]["plots"] == {"15": 1, "21": 1, "22": 1}


def test_free_warehouses_must_be_clear_of_companies_too(t):
    state = two_players_with_gold(t, "21")
    t.company(state, "silk", {40: 1, 41: 1, 46: 1})
    # 21 is still 4 steps from silk (21-22-28-34-40), but 22 beside it is only 3: with 20 too close to gold,
    # just 15 is left for the two free warehouses.
    assert "build 21" not in t.legal_texts(state)


def test_founder_takes_a_share_and_the_company_starts_at_30(t):
    state = t.play(two_players_with_gold(t, "21"), "build 21")
    state = t.play(state, "found tea 15 22")
    tea = state["companies"]["tea"]
    assert tea["value"] == 30 and tea["hq"] == "21" and tea["shares"] == {"ann": 1}
    assert state["money"]["ann"] == 600 + 30


def test_founding_needs_a_free_company(t):
    state = two_players_with_gold(t, "21")
    for n, company in enumerate(c for c in state["companies"] if c != "gold"):
        state["companies"][company].update(hq=str(43 + n % 2), plots={}, value=30)
    assert "build 21" not in t.legal_texts(state)


def test_founding_needs_three_warehouses_in_the_supply(t):
    state = two_players_with_gold(t, "21", "8")
    state["supply"] = 2
    assert t.legal_texts(state)[:1] == ["build 8"] and "build 21" not in t.legal_texts(state)


def test_expanding_a_company_adds_10(t):
    state = t.play(two_players_with_gold(t, "8"), "build 8")
    assert state["companies"]["gold"]["plots"] == {"1": 1, "2": 1, "7": 1, "8": 1}
    assert state["companies"]["gold"]["value"] == 40


def test_stacking_on_an_occupied_plot_adds_10_per_floor(t):
    state = t.play(two_players_with_gold(t, "7"), "build 7")
    assert state["companies"]["gold"]["plots"]["7"] == 2 and state["companies"]["gold"]["value"] == 40


def test_stacks_are_at_most_four_floors(t):
    state = two_players_with_gold(t, "7")
    state["companies"]["gold"]["plots"]["7"] = 4
    assert "build 7" not in t.legal_texts(state)


def test_level_card_lets_the_player_choose_the_plot(t):
    state = two_players_with_gold(t, "level-2")
    assert t.legal_texts(state)[0] == "raise (any 1 of 1 2 7)"
    state = t.play(state, "raise 2")
    assert state["companies"]["gold"]["plots"]["2"] == 2 and state["companies"]["gold"]["value"] == 40
    assert state["hands"]["ann"] == []


def test_level_3_card_only_on_a_level_2_warehouse(t):
    state = two_players_with_gold(t, "level-3")
    assert not [text for text in t.legal_texts(state) if text.startswith("raise")]
    state["companies"]["gold"]["plots"]["7"] = 2
    assert t.legal_texts(state)[0] == "raise 7"
    assert not t.is_legal(state, "raise 1")


def test_builder_receives_the_capitalisation_of_the_company_built_on(t):
    state = two_players_with_gold(t, "8")
    state["companies"]["gold"]["value"] = 120
    state = t.play(state, "build 8")
    assert state["turn"]["income"] == 130 and state["money"]["ann"] == 600 + 130


def test_a_played_card_leaves_the_hand_and_a_warehouse_the_supply(t):
    state = two_players_with_gold(t, "8", "9")
    supply = state["supply"]
    state = t.play(state, "build 8")
    assert state["hands"]["ann"] == ["9"] and state["played"] == 1 and state["supply"] == supply - 1


def test_a_turn_builds_then_trades_then_passes_on(t):
    state = t.turn(two_players_with_gold(t, "8"), "build 8; done")
    assert t.decision(state) == ("bob", "take_turn")


def test_a_headquarters_is_one_floor_high_so_a_level_2_card_may_raise_it(t):
    """Ruling 6: the FAQ's "a headquarters counts as a second floor" is not modelled (rules.md says why): a new
    headquarters is one warehouse of one floor, worth 10 like the others."""
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1)
    t.give(state, "ann", "level-2", "level-3")
    assert t.is_legal(state, "raise 1")  # the level-2 card on the headquarters
    assert [m for m in t.legal(state) if m["action"] == "raise"][0]["plot"]["from"] == ["1", "2", "7"]
    assert len([m for m in t.legal(state) if m["action"] == "raise"]) == 1  # nothing is 2 floors high for level-3
