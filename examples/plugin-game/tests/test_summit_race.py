"""Summit Race's rules (summit_race/rules.md), one test each, on positions built for them. Moves go through the
game's notation and are checked against its legal moves, as the referee does."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from pbem import notation
from pbem.store import registry
from pbem.contract import PbemError
from pbem.rng import Rng
from summit_race import scoring, setup

PACKAGE = Path(setup.__file__).parent
META = yaml.safe_load((PACKAGE / "meta.yaml").read_text())
COMPONENTS = yaml.safe_load((PACKAGE / "components.yaml").read_text())
TEMPLATES = notation.compile_templates(META["notation"])
rules = registry.Game(META["id"], "summit_race", META).rules  # the contract pbem builds from the game's modules


def start(players=("ann", "ben", "cy"), route="short", seed="rules") -> dict:
    return rules.setup(list(players), {"route": route}, copy.deepcopy(COMPONENTS), Rng(seed, "t", 0))


def to_act(state) -> str:
    return rules.pending(state)["player"]


def legal(state) -> list[str]:
    return [notation.format_move(TEMPLATES, move) for move in rules.legal_moves(state, to_act(state))]


def play(state, text: str, number: int = 1) -> dict:
    """One move of the player to act, refused unless legal; applied to a copy."""
    move = notation.parse(TEMPLATES, text)
    assert notation.is_legal(move, rules.legal_moves(state, to_act(state))), (text, legal(state))
    return rules.apply(copy.deepcopy(state), to_act(state), move, Rng("rules", "t", number))


def position(state, heights=None, hands=None, deck=None) -> dict:
    """The state with these heights, hands and deck (ann to act)."""
    state = copy.deepcopy(state)
    state["heights"].update(heights or {})
    state["hands"].update(hands or {})
    if deck is not None:
        state["deck"] = deck
    state["stack"] = [{"decision": "turn", "player": "ann"}]
    return state


def test_setup_deals_three_hidden_cards_to_each_climber_at_the_foot():
    state = start()
    assert all(len(hand) == 3 for hand in state["hands"].values()) and set(state["heights"].values()) == {0}
    assert len(state["deck"]) == 34 - 9 and state["summit"] == 20 and start(route="long")["summit"] == 30
    view = rules.view(state, "ann")
    assert view["private"]["hand"] == state["hands"]["ann"] and "hands" not in view and "deck" not in view
    assert [p["cards"] for p in rules.view(state, None)["players"]] == [3, 3, 3]


def test_a_club_deck_too_small_for_full_hands_is_refused():
    small = copy.deepcopy(COMPONENTS)
    small["cards"] = [{"value": 1, "count": 10}]
    with pytest.raises(PbemError, match="need a deck of at least 19 cards"):
        rules.setup(["ann", "ben", "cy"], {"route": "short"}, small, Rng("rules", "t", 0))


def test_climb_goes_up_by_the_card_then_draws_one():
    state = play(position(start(), hands={"ann": [2, 4, 5]}, deck=[3, 1, 1]), "climb 4")
    assert state["heights"]["ann"] == 4 and state["hands"]["ann"] == [2, 3, 5] and state["discards"] == [4]
    assert to_act(state) == "ben"


def test_no_card_may_take_a_climber_past_the_summit():
    state = position(start(), heights={"ann": 17}, hands={"ann": [1, 3, 4, 5]})
    assert legal(state) == ["draw", "climb 1", "climb 3"]


def test_reaching_the_summit_exactly_wins_at_once():
    state = play(position(start(), heights={"ann": 17}, hands={"ann": [3, 5]}, deck=[1]), "climb 3")
    assert scoring.is_over(state) and rules.pending(state) is None and state["deck"] == [1]
    assert [(row["player"], row["rank"]) for row in rules.result(state)][0] == ("ann", 1)


def test_landing_on_a_climber_sends_them_sliding_down_three_and_slides_do_not_chain():
    state = position(start(), heights={"ann": 2, "ben": 6, "cy": 3}, hands={"ann": [4]}, deck=[1])
    state = play(state, "climb 4")
    assert state["heights"] == {"ann": 6, "ben": 3, "cy": 3}  # ben slid onto cy, who stays


def test_a_slide_stops_at_the_foot():
    state = play(position(start(), heights={"ben": 1}, hands={"ann": [1]}, deck=[2]), "climb 1")
    assert state["heights"]["ben"] == 0


def test_a_draw_over_the_hand_limit_is_followed_by_a_discard_after_seeing_the_card():
    state = play(position(start(), hands={"ann": [1, 1, 2, 3, 5]}, deck=[4]), "draw")
    assert rules.pending(state) == {"player": "ann", "decision": "discard", "fresh_info": True}
    assert legal(state) == ["discard 1", "discard 2", "discard 3", "discard 4", "discard 5"]
    state = play(state, "discard 5", 2)
    assert state["hands"]["ann"] == [1, 1, 2, 3, 4] and state["discards"] == [5] and to_act(state) == "ben"


def test_an_empty_deck_takes_the_discards_shuffled_then_the_second_time_the_storm_ends_the_game():
    state = position(start(), hands={"ann": [5]}, deck=[])
    state["discards"] = [1, 2, 3, 4]
    state = play(state, "draw")
    drawn = [card for card in state["hands"]["ann"] if card != 5]
    assert state["empty_decks"] == 1 and state["discards"] == [] and sorted(state["deck"] + drawn) == [1, 2, 3, 4]
    assert not scoring.is_over(state)
    state = play(position(state, deck=[]), "draw", 2)
    assert scoring.is_over(state) and state["winner"] is None


def test_after_the_storm_the_highest_climber_wins_and_climbers_level_share_the_rank():
    state = position(start(), heights={"ann": 9, "ben": 12, "cy": 12}, deck=[])
    state["over"] = True
    assert [(row["player"], row["rank"]) for row in rules.result(state)] == [("ben", 1), ("cy", 1), ("ann", 3)]


def test_play_goes_round_the_table_from_a_first_climber_drawn_at_random():
    firsts = {to_act(start(seed=str(n))) for n in range(12)}
    assert firsts == {"ann", "ben", "cy"}
    state = position(start(), deck=[1, 1, 1])
    order = []
    for number in range(1, 4):
        state = play(state, "draw", number)
        order.append(to_act(state))
    assert order == ["ben", "cy", "ann"]
