"""The greedy bot (games/coal_baron/bot.py) plays the game's point: it fills and delivers orders, and beats random
bots. The full measurement (50 games, against the targets) is benchmarks/bots.py; here a few seeded games."""
from __future__ import annotations

import copy
import random

from pbem import bots, notation
from pbem.play import playout

NAMES = ["alice", "bob", "carol", "dave"]


def test_greedy_bot_delivers_orders_and_beats_three_random_bots(t):
    wins, delivered = 0, []
    for number in range(6):
        greedy = NAMES[number % 4]
        state = playout.play(t.game, NAMES, seed=f"cb-bot-{number}", bot_seed=number, seats={greedy: "greedy"},
                             game_id=f"cb-bot-{number}")
        ranking = t.rules.result(state)
        wins += any(row["player"] == greedy and row["rank"] == 1 for row in ranking)
        delivered.append(len(state["pits"][greedy]["delivered"]))
    assert wins >= 5
    assert sum(delivered) / len(delivered) >= 4 and min(delivered) >= 2


def test_greedy_bot_fills_an_order_from_its_cage_and_delivers_it(t):
    state = t.started(2)
    pit = state["pits"]["alice"]
    pit["orders"] = [{"id": "o05", "spots": [[]]}]  # wheelbarrow, one black cube
    pit["cage"] = {"level": 4, "cubes": ["black"]}
    state = t.give_turn(state, "alice", "mine", steps=4)
    rnd = random.Random(1)
    while t.rules.pending(state)["decision"] == "mine":
        move = bots.decide(t.game, "greedy", t.view(state, "alice"), t.rules.legal_moves(state, "alice"), rnd)
        state = t.play(state, move)
    assert state["pits"]["alice"]["orders"][0]["spots"] == [["black"]]
    state = t.give_turn(state, "alice")
    move = bots.decide(t.game, "greedy", t.view(state, "alice"), t.rules.legal_moves(state, "alice"), rnd)
    assert t.game.format_move(move) == "place delivery-wheelbarrow"


def test_greedy_bot_decides_from_the_view_only(t):
    # two states alike in all the mover may see, different in what is hidden (the decks' order, the others' money):
    # the same move
    state = t.started(4)
    player = t.to_act(state)
    other = copy.deepcopy(state)
    other["tile_deck"].reverse()
    other["order_deck"].reverse()
    for name in NAMES:
        if name != player:
            other["pits"][name]["money"] += 7
    assert t.view(state, player) == t.view(other, player)
    for seed in range(5):
        moves = [bots.decide(t.game, "greedy", t.view(s, player), t.rules.legal_moves(s, player),
                             random.Random(seed)) for s in (state, other)]
        assert moves[0] == moves[1]
        assert notation.is_legal(moves[0], t.rules.legal_moves(state, player))


def test_greedy_bots_keep_their_workers_in_a_money_round_another_player_opened(t):
    """The phase cards (the French deluxe rules): a round's first worker sets its domain and the others may only
    place there or pass. A round of banks opened by another player must not draw a greedy bot's whole shift onto
    the banks (an earlier bot put all 15 workers there): a pass keeps them for the rounds to come."""
    state = t.started(3, {"phase-cards": "on"})
    while t.rules.pending(state)["decision"] == "pick_phase_card":
        state = t.play(state, t.legal(state)[0])
    state = t.play(state, "place bank-1")
    assert state["phase"]["domain"] == "money"
    placed = {p: 0 for p in state["players"]}
    rnd = random.Random(3)
    while state["phase"]["domain"] == "money" and t.rules.pending(state)["decision"] == "place_or_pass":
        player = t.to_act(state)
        view = t.view(state, player)
        move = bots.decide(t.game, "greedy", view, t.rules.legal_moves(state, player), rnd)
        if move["action"] == "place":
            placed[player] += next(s["needs"] for s in view["board"] if s["space"] == move["space"])
        state = t.play(state, move)
    assert all(count <= 2 for count in placed.values()), placed
