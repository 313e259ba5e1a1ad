"""The text notation: every move has one canonical text, every decision a description, and `pbem moves` stays
short (forms: a choice of plots for a level card, of companies for shares, of plots for the free warehouses)."""
from __future__ import annotations

import copy
import random

import pytest

from pbem import bots, notation
from pbem.rng import Rng
from support import MOST_ENTRIES

MAX_LINES = MOST_ENTRIES


@pytest.mark.parametrize("text", ["build 17", "raise 8", "refresh", "buy 23", "buy level-2", "buy deck",
                                  "buy share gold tea", "sell share gold", "buy flag", "found tea 15 22",
                                  "survivor gold", "done", "pass"])
def test_every_move_has_one_canonical_text(t, text):
    move = t.game.parse_move(text)
    assert t.game.format_move(move) == text and t.game.parse_move(t.game.format_move(move)) == move


def test_buy_flag_and_buy_share_are_not_read_as_buying_a_card(t):
    assert t.game.parse_move("buy flag") == {"action": "buy_flag"}
    assert t.game.parse_move("buy share gold") == {"action": "buy_share", "company": ["gold"]}
    assert t.game.parse_move("buy 17") == {"action": "buy", "card": "17"}


def test_free_warehouse_plots_are_a_set_written_in_order(t):
    assert t.game.normalise(t.game.parse_move("found tea 22 15")) == t.game.parse_move("found tea 15 22")


def test_every_decision_has_a_description_and_every_action_a_notation(t):
    meta = t.game.meta
    assert set(meta["decisions"]) == {"take_turn", "buy_card", "found_company", "choose_survivor", "trade_shares",
                                      "raise_funds"}
    assert all(meta["decisions"].values())
    assert set(meta["notation"]) == {"build", "raise", "refresh", "buy_flag", "buy_share", "buy", "sell_share",
                                     "found", "survivor", "done", "pass"}


def test_many_playable_cards_are_listed_as_one_choice(t):
    state = t.empty_hands(t.new(2))
    t.give(state, "ann", *[str(n) for n in range(1, 49)])       # every plot of the harbour side is foundable
    moves = t.legal(state)
    assert moves[0] == {"action": "build", "plot": {"from": [str(n) for n in range(1, 49)], "min": 1, "max": 1}}
    assert len(moves) <= MAX_LINES and t.is_legal(state, "build 30")


@pytest.mark.parametrize("players", [2, 4, 6])
def test_pbem_moves_never_lists_more_than_40_lines_in_random_games(t, players):
    """Random games, every decision: `pbem moves` (a header, one line an entry, resign) stays within 40 lines."""
    rnd = random.Random(players)
    state = t.rules.setup(["ann", "bob", "cid", "dee", "eve", "fay"][:players], {}, t.components(),
                          Rng("lines", "g", 0))
    longest, number = 0, 0
    while t.rules.pending(state):
        number += 1
        player = t.to_act(state)
        legal = t.legal(state, player)
        longest = max(longest, len(legal))
        move = t.game.normalise(bots.choose(legal, rnd))
        assert notation.is_legal(move, legal)
        state = t.rules.apply(copy.deepcopy(state), player, move, Rng("lines", "g", number))
    assert 0 < longest <= MAX_LINES
