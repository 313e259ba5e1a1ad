"""Text notation: every move has one canonical line, a whole mining turn fits on one line, `pbem moves` lists them."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem import notation
from pbem.cli import cli

EXAMPLES = {
    "draft o12": {"action": "draft", "order": "o12"},
    "pick mining": {"action": "pick", "card": "mining"},
    "place bank-6": {"action": "place", "space": "bank-6"},
    "place bank-6 3": {"action": "overplace", "space": "bank-6", "workers": 3},
    "pass": {"action": "pass"},
    "cage 4": {"action": "cage", "level": 4},
    "load black": {"action": "load", "colour": "black"},
    "store yellow": {"action": "store", "colour": "yellow"},
    "fill o12 black": {"action": "fill", "order": "o12", "cube": "black"},
    "fill o12 stored-black": {"action": "fill", "order": "o12", "cube": "stored-black"},
    "fill o12 grey with black stored-yellow": {"action": "substitute", "order": "o12", "spot": "grey",
                                               "first": "black", "second": "stored-yellow"},
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
    assert set(t.game.meta["notation"]) == set(t.rules.APPLY)
    assert set(t.game.meta["decisions"]) == set(t.rules.LEGAL)
    assert {a for a in (EXAMPLES[x]["action"] for x in EXAMPLES)} == set(t.rules.APPLY)


def test_public_log_shows_top_or_bottom_but_not_the_order_of_the_returned_cards(t):
    # at the table everyone sees where the cards go back; only their order is secret
    assert notation.public_text(t.game.templates, EXAMPLES["return top t03 t11"]) == \
        "return the other cards to the top of the deck"
    assert notation.public_text(t.game.templates, EXAMPLES["return bottom t07 t01"]) == \
        "return the other cards to the bottom of the deck"


def test_overplace_range_is_listed_as_a_range(t):
    state = t.give_turn(t.started(2, {"overplace": "on"}), "alice")
    assert "place bank-6 2..18" in t.legal_texts(state)


def test_substitution_pairs_are_listed_once_in_sorted_order(t):
    state = t.started(2)
    state["pits"]["alice"]["cage"] = {"level": 0, "cubes": ["yellow", "black"]}
    state["pits"]["alice"]["orders"] = [{"id": "o05", "spots": [[]]}]
    state = t.give_turn(state, "alice", "mine", steps=5)
    subs = [x for x in t.legal_texts(state) if " with " in x]
    assert subs == ["fill o05 black with black yellow"]
    assert not t.is_legal(state, "fill o05 black with yellow black")


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
