"""The greedy bot: it decides from the mover's view alone, returns one concrete legal move, is deterministic given
its random source, and beats random players (the 50-game measurement is benchmarks/bots.py)."""
from __future__ import annotations

import copy
import random

from pbem import bots, notation
from pbem.games.chartered import bot, report
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


def test_the_bot_buys_a_card_rather_than_build_for_less_than_the_biggest_company_pays_while_the_deck_lasts(t):
    """A card kept is a later build: while the deck lasts, a build that pays less than one on the biggest company
    waits (its card will pay more later), and a card is bought instead."""
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1)
    t.company(state, "tea", {43: 1, 44: 1, 37: 1, 38: 2, 31: 1}, hq=43)
    t.give(state, "ann", "8", "13")                  # both beside gold: 40 each, when tea would pay 70
    t.give(state, "bob", "20")
    move = bot.choose(t.view(state, "ann"), t.legal(state), random.Random(0))
    assert move["action"] == "buy"
    state["deck"] = []
    move = bot.choose(t.view(state, "ann"), t.legal(state), random.Random(0))
    assert move == {"action": "build", "plot": ["8"]}  # no card left to buy: the hand is all the builds left


def test_the_bot_keeps_a_hand_as_big_as_the_largest_other_hand_while_the_deck_lasts(t):
    """Once the deck is empty only the players with cards still build, on the biggest company, while the others
    pass: a hand no bigger than another player's is filled first, even when the build would pay the most."""
    state = t.empty_hands(t.new(2))
    t.company(state, "tea", {43: 1, 44: 1, 37: 1, 38: 2}, hq=43)
    t.give(state, "ann", "32")
    t.give(state, "bob", "3", "4")
    assert bot.choose(t.view(state, "ann"), t.legal(state), random.Random(0))["action"] == "buy"
    t.give(state, "ann", "26", "25")
    assert bot.choose(t.view(state, "ann"), t.legal(state), random.Random(0)) == {"action": "build",
                                                                                   "plot": ["32"]}


def test_the_bot_takes_the_flag_of_the_biggest_company_as_soon_as_it_can_pay(t):
    """A flag is worth 4 shares at their final price, and one player only gets it: bought at once, whatever the
    share price today (the earlier bot waited until 4 of today's shares were worth more than the flag)."""
    state = t.empty_hands(t.new(2))
    t.company(state, "tea", {43: 1, 44: 1, 37: 1}, hq=43)
    state["turn"].update(company="tea", income=30)
    state["stack"] = [{"decision": "trade_shares", "player": "ann", "fresh_info": False}]
    assert {"action": "buy_flag"} in t.legal(state)
    assert bot.choose(t.view(state, "ann"), t.legal(state), random.Random(0)) == {"action": "buy_flag"}


def test_greedy_bot_beats_a_random_player_at_two_players():
    """The hole the benchmark found: at 2 players the bot of version 2 won half its games against random play (the deck
    runs out there before the warehouses, and the random player, holding cards, built on the biggest company turn
    after turn at the end). Twenty seeded games, the seats alternating, at the benchmark's target (90%)."""
    from pbem.play import playout
    from pbem.store import registry
    game = registry.get("chartered")
    wins = 0
    for number in range(20):
        greedy = NAMES[number % 2]
        state = playout.play(game, NAMES[:2], seed=f"ch-2p-{number}", bot_seed=number, seats={greedy: "greedy"},
                             game_id=f"ch-2p-{number}")
        wins += any(row["player"] == greedy and row["rank"] == 1 for row in game.rules.result(state))
    assert wins >= 18


def test_the_bots_board_reading_answers_as_the_report_for_every_plot_of_a_game(t):
    """bot.Board reads the view once a decision; for every plot of every position of a game it must find the same
    company, the same companies touching it and the same card effect as the report's functions of the view."""
    state = t.rules.setup(NAMES, {}, t.components(), Rng("board", "g", 0))
    rnd, number, checked = random.Random(7), 0, 0
    while t.rules.pending(state):
        number += 1
        player = t.to_act(state)
        view, legal = t.view(state, player), t.legal(state, player)
        seen = bot.Board(view)
        plots = {plot for line in view["map"][0::2] for plot in line.split()[0::2] if plot != "~"}
        for plot in plots:
            assert seen.company_on(plot) == report.company_on(view, plot)
            assert seen.touching(plot) == report.touching(view, plot)
            assert seen.card_effect(plot) == report.card_effect(view, plot)
        checked += len(plots)
        move = t.game.normalise(bot.choose(view, legal, rnd))
        state = t.rules.apply(state, player, move, Rng("board", "g", number))
    assert checked > 1000
