"""Text notation: every move has one canonical line, a whole mining turn fits on one line, `pbem moves` lists them."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem import notation
from pbem.cli.commands import cli
from support import MOST_ENTRIES, random_decisions

CEILING = MOST_ENTRIES  # entries of a `pbem moves` list a player may be sent
OPTION_SETS = [{}, {"phase-cards": "on"}, {"overplace": "on"}, {"phase-cards": "on", "overplace": "on"}]

EXAMPLES = {
    "draft o12": {"action": "draft", "order": "o12"},
    "pick mining": {"action": "pick", "card": "mining"},
    "place bank-6": {"action": "place", "space": "bank-6"},
    "place 3 workers on bank-6": {"action": "overplace", "workers": 3, "space": ["bank-6"]},
    "pass": {"action": "pass"},
    "cage 4": {"action": "cage", "level": 4},
    "load black": {"action": "load", "colour": "black"},
    "store yellow": {"action": "store", "colour": "yellow"},
    "put black on o12": {"action": "fill", "cube": "black", "order": ["o12"]},
    "put stored-black on o12": {"action": "fill", "cube": "stored-black", "order": ["o12"]},
    "substitute grey on o12": {"action": "substitute", "spot": "grey", "order": ["o12"]},
    "with black stored-yellow": {"action": "cubes", "cubes": ["black", "stored-yellow"]},
    "end": {"action": "end"},
    "keep t07": {"action": "keep", "card": "t07"},
    "keep none": {"action": "keep", "card": "none"},
    "return top t03 t11": {"action": "return_top", "cards": ["t03", "t11"]},
    "return bottom t07 t01": {"action": "return_bottom", "cards": ["t07", "t01"]},
    "cube grey": {"action": "cube", "colour": "grey"},
}


@pytest.mark.parametrize("text", list(EXAMPLES))
def test_every_move_has_one_canonical_text(t, text):
    assert t.game.parse_move(text) == EXAMPLES[text]
    assert t.game.format_move(EXAMPLES[text]) == text


def test_every_action_has_a_notation_and_every_decision_a_description(t):
    assert set(t.game.meta["decisions"]) == set(t.rules.HANDLERS)
    assert {a for a in (EXAMPLES[x]["action"] for x in EXAMPLES)} == set(t.game.meta["notation"])


def test_public_log_shows_top_or_bottom_but_not_the_order_of_the_returned_cards(t):
    # at the table everyone sees where the cards go back; only their order is secret
    assert notation.public_text(t.game.templates, EXAMPLES["return top t03 t11"]) == \
        "return the other cards to the top of the deck"
    assert notation.public_text(t.game.templates, EXAMPLES["return bottom t07 t01"]) == \
        "return the other cards to the bottom of the deck"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(o) or "base")
def test_no_decision_of_a_random_game_lists_more_than_40_lines_of_moves(t, players, options):
    names = ["ann", "ben", "cat", "dan"][:players]
    decisions = random_decisions(t.game, names, options, f"ceiling-{players}-{len(options)}")
    assert 0 < max(len(legal) for _, _, legal in decisions) <= CEILING


def test_overplace_is_one_entry_a_range_of_workers_on_any_free_space(t):
    state = t.started(2, {"overplace": "on"})
    state["board"]["bank-4"] = ["bob"]
    state = t.give_turn(state, "alice")
    crowd = [x for x in t.legal_texts(state) if " workers on " in x]
    assert len(crowd) == 1 and crowd[0].startswith("place 2..18 workers on (any 1 of bank-6 mining-6 ")
    assert "bank-1" not in crowd[0] and "bank-4" not in crowd[0]  # bank 1 and occupied spaces take no crowd
    assert not t.is_legal(state, "place 19 workers on bank-6") and not t.is_legal(state, "place 1 workers on bank-6")
    assert not t.is_legal(state, "place 2 workers on bank-6 mining-6")


def test_draw_five_returns_are_two_entries_each_an_ordering(t):
    state = t.give_turn(t.started(2), "alice", "return_tiles", cards=["t22", "t24", "t42", "t09", "t08"])
    assert t.legal_texts(state) == ["return top (t22 t24 t42 t09 t08 in any order)",
                                    "return bottom (t22 t24 t42 t09 t08 in any order)"]
    assert t.is_legal(state, "return bottom t08 t09 t42 t24 t22")


def test_fills_are_one_entry_per_cube_and_substitutions_one_per_spot_colour(t):
    state = t.started(2)
    state["pits"]["alice"]["cage"] = {"level": 0, "cubes": ["yellow", "black"]}
    state["pits"]["alice"]["storage"] = ["yellow", "yellow", "yellow"]
    state["pits"]["alice"]["orders"] = [  # o05 black, o10 black black, o01 yellow, o03 yellow yellow, o11 all four
        {"id": "o05", "spots": [[]]}, {"id": "o10", "spots": [[], []]}, {"id": "o01", "spots": [[]]},
        {"id": "o03", "spots": [["yellow"], []]}, {"id": "o11", "spots": [[], [], [], []]}]
    state = t.give_turn(state, "alice", "mine", steps=5)
    legal = t.legal_texts(state)
    assert [x for x in legal if x.startswith("put")] == [
        "put yellow on (any 1 of o01 o03 o11)", "put stored-yellow on (any 1 of o01 o03 o11)",
        "put black on (any 1 of o05 o10 o11)"]
    assert [x for x in legal if x.startswith("substitute")] == [
        "substitute yellow on (any 1 of o01 o03 o11)", "substitute brown on o11", "substitute grey on o11",
        "substitute black on (any 1 of o05 o10 o11)"]
    state = t.play(state, "substitute black on o10")
    # each cube at most twice in the list: only two are taken
    assert t.legal_texts(state) == ["with (any 2 of yellow stored-yellow stored-yellow black)"]
    assert not t.is_legal(state, "with yellow yellow")
    assert t.is_legal(state, "with stored-yellow stored-yellow")


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_pbem_moves_lists_the_moves_and_a_mining_turn_is_one_line(tmp_path):
    game = tmp_path / "cb1"
    run("new", "coal-baron", game, "--player", "alice", "--player", "bob", "--seed", "cli")
    while True:
        listing = json.loads(run("moves", game, "--format", "json"))
        if not listing["moves"][0].startswith("draft "):
            break
        run("move", game, "--as", listing["to_act"], "--text", listing["moves"][0])
    assert "place mining-10" in listing["moves"] and "place bank-1" in listing["moves"]
    player = listing["to_act"]
    run("move", game, "--as", player, "--text", "place mining-10; cage 1; load yellow; cage 0; store yellow; end")
    after = json.loads(run("moves", game, "--format", "json"))
    assert after["to_act"] != player and after["move_number"] == listing["move_number"] + 1
    status = json.loads(run("status", game, "--as", player, "--format", "json"))
    pit = next(p for p in status["view"]["pits"] if p["player"] == player)
    assert pit["storage"] == ["yellow"] and pit["cage"] == {"level": 0, "cubes": []}
    assert status["view"]["private"]["money"] == 10
