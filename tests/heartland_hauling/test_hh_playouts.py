"""Whole games by bots for 2, 3 and 4 players, with each option alone and all together: crates, cards and money
accounted for at every step, short legal-move lists, views valid and free of other players' hands. One greedy
seat (it ends the game: random trucks alone never reach the money goal), every other seat random. One seed per
case by default; `pytest -m slow` plays ten."""
from __future__ import annotations

import copy
import random

import pytest

from pbem import bots, notation
from pbem.games.heartland_hauling import bot
from pbem.play import playout
from pbem.rng import Rng
from pbem.store import registry, validation
from support import seeds

GAME = registry.get("heartland-hauling")
NAMES = ["alice", "bob", "carol", "dave"]
SEEDS = seeds(1, 10)
OPTION_SETS = {
    "alt-1": {"layout": "alt-1"},
    "alt-2": {"layout": "alt-2"},
    "alt-3": {"layout": "alt-3"},
    "new-start": {"new-start": "on"},
    "warehouse-mix": {"warehouse-mix": "on"},
    "short-haul": {"short-haul": "on"},
    "alternate-routes": {"alternate-routes": "on"},
    "truck-stops": {"truck-stops": "on"},
    "all": {"layout": "alt-2", "new-start": "on", "warehouse-mix": "on", "short-haul": "on",
            "alternate-routes": "on", "truck-stops": "on"},
}
SCHEMA_EVERY = 50  # every position is checked for leaks; every 50th also against the schemas
MONEY_MOVES = {"cash": -1, "mixed": -1, "fuel": -1, "buy": -1, "discard": -1, "unload": 1}


def total_cards(state):
    return sum(len(pile) for pile in [state["deck"], state["face_up"]] +
               [h["hand"] for h in state["haulers"].values()]) + sum(state["discard"].values())


def crates_by_good(state):
    found = dict(state["box"])
    for place in list(state["crates"].values()) + [h["cargo"] for h in state["haulers"].values()]:
        for good, n in place.items():
            found[good] += n
    return found


def check_views(state, players, thorough):
    public = GAME.rules.view(state, None)
    assert "private" not in public
    if thorough:
        assert validation.is_valid(GAME.id, "game-public-view.schema.json", public)
        assert validation.is_valid(GAME.id, "game-state.schema.json", state)
    for player in players:
        own = GAME.rules.view(state, player)
        assert own["private"] == {"player": player, "hand": state["haulers"][player]["hand"]}
        assert {k: v for k, v in own.items() if k != "private"} == public  # nothing else differs from the public
        if thorough:
            assert validation.is_valid(GAME.id, "game-player-view.schema.json", own)


def check_money(before, after, player, move):
    """Only the mover's money changes, only by a move that pays or earns, and never below zero."""
    for name, hauler in after["haulers"].items():
        delta = hauler["money"] - before["haulers"][name]["money"]
        assert hauler["money"] >= 0
        if name != player or move["action"] not in MONEY_MOVES:
            assert delta == 0, (name, move)
        else:
            assert delta * MONEY_MOVES[move["action"]] >= 0, (name, move, delta)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
@pytest.mark.parametrize("count", [2, 3, 4])
def test_a_game_by_bots_ends_with_crates_cards_and_money_accounted_for(count, options, seed):
    players = NAMES[:count]
    state = playout.start(GAME, players, options, seed=f"hh{seed}")
    crates, cards = crates_by_good(state), total_cards(state)
    assert crates == {g: 15 for g in crates} and cards == 65
    before = state
    seats = {players[seed % count]: "greedy"}
    for number, (player, move, state) in enumerate(playout.steps(GAME, state, seed=f"hh{seed}", bot_seed=seed,
                                                                 seats=seats), 1):
        assert crates_by_good(state) == crates
        assert total_cards(state) == cards
        check_money(before, state, player, move)
        check_views(state, players, thorough=number % SCHEMA_EVERY == 0)
        pending = GAME.rules.pending(state)
        if pending:
            assert len(GAME.rules.legal_moves(state, pending["player"])) <= 40
        before = state
    assert GAME.rules.pending(state) is None
    result = GAME.rules.result(state)
    assert sorted(r["player"] for r in result) == sorted(players) and result[0]["rank"] == 1
    assert state["end"]["triggered_by"] is not None  # the game ended by the money goal


# ---------------------------------------------------------------- the greedy bot


def bot_game(seed: int, greedy: str = "alice") -> dict:
    """One greedy bot against three random ones, 4 players, to the end."""
    state = GAME.rules.setup(NAMES, GAME.resolve_options({}), GAME.default_components(), Rng(f"b{seed}", "bot", 0))
    rnd = random.Random(seed)
    for number in range(1, 5000):
        pending = GAME.rules.pending(state)
        if pending is None:
            return state
        player, legal = pending["player"], GAME.rules.legal_moves(state, pending["player"])
        if player == greedy:
            move = bot.choose(GAME.rules.view(state, player), legal, rnd)
            assert not any(notation.is_form(v) for v in move.values())  # a concrete move
        else:
            move = bots.choose(legal, rnd)
        move = GAME.normalise(move)
        assert notation.is_legal(move, legal)
        state = GAME.rules.apply(copy.deepcopy(state), player, move, Rng(f"b{seed}", "bot", number))
    raise AssertionError("the game did not end")


def test_the_greedy_bot_beats_three_random_bots():
    wins = sum(GAME.rules.result(bot_game(seed))[0]["player"] == "alice" for seed in range(6))
    assert wins >= 5


def test_the_greedy_bot_decides_from_the_view_alone_and_the_same_way_for_the_same_random_source(t):
    state = t.started(3)
    player = t.to_act(state)
    view, legal = GAME.rules.view(state, player), t.legal(state)
    first = bot.choose(copy.deepcopy(view), legal, random.Random(7))
    assert bot.choose(view, legal, random.Random(7)) == first
    assert notation.is_legal(GAME.normalise(first), legal)


def test_a_bots_view_shows_a_location_turned_to_its_alternate_side_after_an_earlier_view(t):
    """A bot's view copies each location card's unchanging fields from views made earlier in the game
    (views.printed_locations): a card turned to its alternate side since shows that side and its roads."""
    state = t.started(3)
    player = t.to_act(state)
    assert GAME.rules.bot_view(state, player)["locations"] == GAME.rules.view(state, player)["locations"]
    turned = next(loc for loc in state["components"]["locations"] if loc not in state["map"]["alternate"]
                  and state["components"]["locations"][loc]["alternate"])
    state["map"]["alternate"].append(turned)
    shown = next(loc for loc in GAME.rules.bot_view(state, player)["locations"] if loc["id"] == turned)
    assert shown["side"] == "alternate" and shown["roads"] == state["components"]["locations"][turned]["alternate"]
    assert GAME.rules.bot_view(state, player)["locations"] == GAME.rules.view(state, player)["locations"]
