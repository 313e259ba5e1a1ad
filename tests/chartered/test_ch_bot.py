"""The greedy bot: it decides from the mover's view alone, returns one concrete legal move, is deterministic given
its random source, and beats random players (the 50-game measurement is benchmarks/bots.py)."""
from __future__ import annotations

import copy
import random

from pbem import bots, notation
from pbem.games.chartered import bot
from pbem.rng import Rng

NAMES = ["ann", "bob", "cid", "dee"]


def play(t, seed, greedy):
    """A 4-player game: `greedy` plays the bot, the others the random bot. Returns the winner(s)."""
    state = t.rules.setup(NAMES, {}, t.components(), Rng(f"bot{seed}", "g", 0))
    rnd, number = random.Random(seed), 0
    while t.rules.pending(state):
        number += 1
        player = t.to_act(state)
        legal = t.legal(state, player)
        move = bot.choose(t.view(state, player), legal, rnd) if player == greedy else bots.choose(legal, rnd)
        move = t.game.normalise(move)
        assert notation.is_legal(move, legal), (player, move)
        state = t.rules.apply(copy.deepcopy(state), player, move, Rng(f"bot{seed}", "g", number))
    return [row["player"] for row in t.rules.result(state) if row["rank"] == 1]


def test_greedy_bot_beats_three_random_players(t):
    wins = sum(play(t, seed, NAMES[seed % 4]) == [NAMES[seed % 4]] for seed in range(6))
    assert wins >= 5


def test_the_bot_reads_only_the_view_and_returns_a_concrete_legal_move(t):
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1)
    t.give(state, "ann", "8", "level-2", "30")
    view = t.view(state, "ann")
    move = bot.choose(copy.deepcopy(view), t.legal(state), random.Random(1))
    assert move == {"action": "build", "plot": ["30"]}     # a new company (30 and a share) beats 40 for gold
    assert notation.is_legal(move, t.legal(state))
    assert bot.choose(view, t.legal(state), random.Random(1)) == move   # deterministic


def test_the_bot_builds_where_the_income_is_highest(t):
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1)
    t.company(state, "tea", {43: 1, 44: 1, 37: 1, 38: 2}, hq=43)
    t.give(state, "ann", "8", "32", "14")
    assert bot.choose(t.view(state, "ann"), t.legal(state), random.Random(0)) == {"action": "build",
                                                                                       "plot": ["32"]}


def test_the_bot_buys_the_market_card_that_would_build_best_and_never_refreshes(t):
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1)
    state["market"] = ["14", "8", "20"]          # 14 and 20 are too near gold to be played
    move = bot.choose(t.view(state, "ann"), t.legal(state), random.Random(0))
    assert move == {"action": "buy", "card": "8"}
