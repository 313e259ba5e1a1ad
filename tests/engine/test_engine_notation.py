"""The move notation's forms: one legal-move entry that stands for many moves (a range, a choice of words)."""
from __future__ import annotations

import random

import pytest

from pbem import bots, notation

TEMPLATES = notation.compile_templates({
    "bid": "bid {amount:int}",
    "return": "return {where} {cards:list}",
    "discard": "discard {cards:set}",
})


def parse(text: str) -> dict:
    return notation.parse(TEMPLATES, text)


ORDERING = {"action": "return", "where": "top", "cards": {"from": ["t22", "t24", "t09"], "min": 3, "max": 3}}
SUBSET = {"action": "discard", "cards": {"from": ["c1", "c1", "c5"], "min": 0, "max": 2}}


def test_an_ordering_of_given_cards_is_one_entry_that_accepts_every_order():
    assert notation.is_legal(parse("return top t09 t22 t24"), [ORDERING])
    assert notation.is_legal(parse("return top t24 t09 t22"), [ORDERING])


def test_an_ordering_must_use_each_given_card_once():
    assert not notation.is_legal(parse("return top t09 t22"), [ORDERING])
    assert not notation.is_legal(parse("return top t09 t22 t22"), [ORDERING])
    assert not notation.is_legal(parse("return top t09 t22 t99"), [ORDERING])
    assert not notation.is_legal(parse("return bottom t09 t22 t24"), [ORDERING])


def test_a_subset_respects_its_size_and_how_often_each_card_is_held():
    assert notation.is_legal(parse("discard"), [SUBSET])
    assert notation.is_legal(parse("discard c1 c1"), [SUBSET])
    assert notation.is_legal(parse("discard c5 c1"), [SUBSET])
    assert not notation.is_legal(parse("discard c5 c5"), [SUBSET])      # only one c5 is held
    assert not notation.is_legal(parse("discard c1 c1 c5"), [SUBSET])   # at most 2


def test_a_choice_never_matches_a_value_that_is_not_a_list():
    assert not notation.matches({"action": "discard", "cards": "c1"}, SUBSET)
    assert not notation.matches({"action": "return", "where": "top", "cards": 3}, ORDERING)


def test_forms_are_shown_as_one_line_each():
    assert notation.format_move(TEMPLATES, ORDERING) == "return top (t22 t24 t09 in any order)"
    assert notation.format_move(TEMPLATES, SUBSET) == "discard (any 0..2 of c1 c1 c5)"
    assert notation.format_move(TEMPLATES, {"action": "bid", "amount": {"min": 3, "max": 12}}) == "bid 3..12"
    exact = {"action": "discard", "cards": {"from": ["c1", "c5"], "min": 1, "max": 1}}
    assert notation.format_move(TEMPLATES, exact) == "discard (any 1 of c1 c5)"


@pytest.mark.parametrize("entry", [ORDERING, SUBSET, {"action": "bid", "amount": {"min": 3, "max": 12}}])
def test_the_random_bot_draws_a_legal_move_from_a_form(entry):
    rnd = random.Random(7)
    for _ in range(50):
        move = parse(notation.format_move(TEMPLATES, bots.instantiate(entry, rnd)))
        assert notation.is_legal(move, [entry])


def test_the_referee_plays_the_least_of_a_form_for_a_resigned_seat():
    assert bots.first_legal([SUBSET]) == {"action": "discard", "cards": []}
    assert bots.first_legal([ORDERING])["cards"] == ["t22", "t24", "t09"]
    assert bots.first_legal([{"action": "bid", "amount": {"min": 3, "max": 12}}]) == {"action": "bid", "amount": 3}


def test_a_turn_on_one_line_is_split_by_a_semicolon_or_a_full_width_one():
    assert notation.split_turn("place mining-10；cage 4; load black\nend") == \
        ["place mining-10", "cage 4", "load black", "end"]
    assert notation.split_steps("cage 4 ；load black;") == ["cage 4", "load black"]
