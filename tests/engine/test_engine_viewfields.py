"""A bot's view in the search's rollouts is made field by field as the bot reads it (pbem.viewfields): the fields it
reads are the very values of the view players get, in the same order, and a field it does not read is never made."""
from __future__ import annotations

import importlib

import pytest

from pbem.play import playout
from pbem.store import registry
from pbem.viewfields import BotView, built, lazily, once, whole
from support import NAMES

FIELDED = [game for game in registry.all_games() if game.unseen is not None
           and {"fields", "FIELDS"} & set(dir(importlib.import_module(f"{game.module}.views")))]


def positions(game, players: int, seed: str):
    """Every position of a seeded game of greedy and random seats, with the player to move."""
    names = NAMES[:players]
    seats = {name: "greedy" for name in names[::2]}
    state = playout.start(game, names, seed=seed, game_id=seed)
    for _, _, state in playout.steps(game, state, seed=seed, game_id=seed, seats=seats):
        pending = game.rules.pending(state)
        if pending is not None:
            yield state, pending["player"]


@pytest.mark.parametrize("game", FIELDED, ids=lambda game: game.id)
def test_a_bots_view_read_whole_is_the_players_view_field_for_field_and_in_order(game):
    checked = 0
    for number, (state, player) in enumerate(positions(game, game.max_players, "bot-view")):
        if number % 7:
            continue  # every seventh position: the whole game, quickly
        view, lazy = game.rules.view(state, player), game.rules.bot_view(state, player)
        assert isinstance(lazy, BotView)
        assert repr(lazy) == repr(view) and lazy == view and list(lazy) == list(view)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("game", FIELDED, ids=lambda game: game.id)
def test_each_field_a_bot_reads_is_the_players_views_field(game):
    state, player = next(iter(positions(game, game.min_players, "bot-view-fields")))
    view = game.rules.view(state, player)
    for key in reversed(list(view)):  # read one by one, each from a view of its own, last first
        assert game.rules.bot_view(state, player)[key] == view[key], key


def test_a_view_declared_once_gives_a_player_their_private_part_and_the_public_view_none():
    declared = {"shift": lambda state, player, make: state["shift"],
                "private": lambda state, player, make: {"player": player, "money": state["money"][player]}}
    state = {"shift": 2, "money": {"ann": 7}}
    assert whole(declared, state, "ann") == {"shift": 2, "private": {"player": "ann", "money": 7}}
    assert whole(declared, state, None) == {"shift": 2}


def test_a_field_is_made_when_first_read_and_once():
    made = []
    fields = {"board": lambda: made.append("board") or [1, 2], "pits": lambda: made.append("pits") or [3]}
    view = BotView({"game": "g"}, fields)
    assert view["pits"] == [3] and view["pits"] is view["pits"] and made == ["pits"]
    assert view.get("players") is None and "board" in view and "players" not in view and made == ["pits"]
    with pytest.raises(KeyError):
        view["players"]  # noqa: B018 -- a field the view does not have, as for a dict


def test_counting_a_bots_view_or_asking_if_it_is_empty_makes_no_field():
    made = []
    view = BotView({"game": "g"}, {"board": lambda: made.append("board") or [], "game": lambda: "g"})
    assert len(view) == 2 and view and made == []
    assert not BotView({}, {}) and BotView({}, {"board": lambda: made.append("board")}) and made == []


def test_going_through_a_bots_view_makes_every_field_in_the_views_order():
    fields = {"a": lambda: 1, "b": lambda: lazily({"c": lambda: 2})}
    view = BotView({"game": "g"}, fields)
    view["b"]  # noqa: B018 -- made out of order
    assert list(view) == ["game", "a", "b"] and dict(view) == {"game": "g", "a": 1, "b": {"c": 2}}
    assert view == {"game": "g", **built(fields)} and repr(view) == "{'game': 'g', 'a': 1, 'b': {'c': 2}}"
    assert not view != {"game": "g", "a": 1, "b": {"c": 2}} and len(view) == 3


def test_a_value_shared_by_several_fields_is_made_once_when_first_asked():
    made = []
    shared = once(lambda: made.append("made") or len(made))
    assert made == []  # nothing made before it is asked
    assert shared() == 1 and shared() == 1 and made == ["made"]
