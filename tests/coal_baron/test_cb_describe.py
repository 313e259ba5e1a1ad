"""Each legal move says what it does (report.describe, from the mover's view only): the card it takes, what it costs
in workers and money, what it gains."""
from __future__ import annotations

import pytest

from pbem.text import language
from support import described_actions


def describe(t, state, text, player=None):
    """The description of the legal-move entry whose text is `text`, from the mover's own view."""
    player = player or t.to_act(state)
    entries = {t.game.format_move(m): m for m in t.rules.legal_moves(state, player)}
    assert text in entries, sorted(entries)
    return t.game.report.describe(t.view(state, player), entries[text])


def test_draft_says_the_orders_transport_points_and_cubes(t):
    state = t.new(2)
    state["draft"]["revealed"][0] = "o10"  # wheelbarrow, 9 VP: black black
    assert describe(t, state, "draft o10") == "wheelbarrow, 9 VP for 2 black"
    state["draft"]["revealed"][0] = "o11"
    assert describe(t, state, "draft o11") == "wheelbarrow, 10 VP for yellow + brown + grey + black"


def test_placing_says_the_workers_it_costs_and_what_the_space_does(t):
    state = t.started(2)
    state["board"]["mining-10"] = ["bob", "bob"]
    state = t.give_turn(state, "alice")
    assert describe(t, state, "place mining-10") == "10 work steps (3 workers, displace bob's 2)"
    assert describe(t, state, "place bank-6") == "+6 money (1 worker)"
    state["display"]["order-2"] = "o31"
    assert describe(t, state, "place order-2") == "take o31: carriage, 9 VP for 2 black (1 worker)"
    state["display"]["factory-1"] = "t22"
    assert describe(t, state, "place factory-1") == "buy t22: brown lit tile, 2 carts, costs 4 (1 worker)"
    assert describe(t, state, "place factory-draw").startswith("draw tiles (deck ")


def test_in_french_the_words_agree_with_the_number_of_workers_displaced_and_of_francs(t):
    state = t.started(2)
    state["board"]["mining-6"], state["board"]["mining-10"] = ["bob"], ["bob", "bob"]
    state["board"]["bank-1"] = ["bob"]
    state["display"]["factory-1"] = "t43"
    state = t.give_turn(state, "alice")
    with language.reading("fr"):
        assert describe(t, state, "place mining-6") == "6 déplacements (2 ouvriers, déloge 1 ouvrier de bob)"
        assert describe(t, state, "place mining-10") == "10 déplacements (3 ouvriers, déloge 2 ouvriers de bob)"
        assert describe(t, state, "place bank-1") == "+1 franc (1 ouvrier)"
        assert describe(t, state, "place bank-6") == "+6 francs (1 ouvrier)"
        # the side agrees with «tuile»; the colour, a word of the notation, cannot («noire»): it goes in brackets
        assert describe(t, state, "place factory-1") == "acheter t43 : tuile éclairée (noir), 1 berline, coûte 4 " \
                                                         "(1 ouvrier)"
    assert describe(t, state, "place mining-6") == "6 work steps (2 workers, displace bob's 1)"


def test_bank_1_displaces_nobody_and_says_so(t):
    state = t.started(2)
    state["board"]["bank-1"] = ["bob"]
    assert describe(t, t.give_turn(state, "alice"), "place bank-1") == "+1 money (1 worker)"


def test_delivery_says_which_orders_go_and_their_points(t):
    state = t.started(2)
    state["pits"]["alice"]["orders"] = [{"id": "o12", "spots": [["yellow"]]}, {"id": "o13", "spots": [["brown"]]},
                                        {"id": "o14", "spots": [["yellow"], []]}]  # lorry: 2 + 3 VP complete
    state = t.give_turn(state, "alice")
    assert describe(t, state, "place delivery-lorry") == "deliver o12 o13: 5 VP (1 worker)"


def test_phase_card_bonuses_show_in_what_a_move_gains(t):
    state = t.started(3, {"phase-cards": "on"})
    leader = t.to_act(state)
    assert describe(t, state, "pick money") == "bonus in money rounds: 1 more money per bank action"
    assert describe(t, state, "pick orders") == "bonus in orders rounds: none"
    state = t.play(state, "pick money")
    while t.rules.pending(state)["decision"] == "pick_phase_card":
        state = t.play(state, t.rules.legal_moves(state, t.to_act(state))[0])
    assert t.to_act(state) == leader
    assert describe(t, state, "place bank-6") == "+7 money (1 worker)"
    state["display"]["factory-1"] = "t22"
    assert describe(t, state, "place factory-1").startswith("buy t22: brown lit tile, 2 carts, costs 4")


def test_the_factory_card_holder_is_told_the_price_they_pay(t):
    state = t.started(3, {"phase-cards": "on"})
    state = t.play(state, "pick factory")
    while t.rules.pending(state)["decision"] == "pick_phase_card":
        state = t.play(state, t.rules.legal_moves(state, t.to_act(state))[0])
    state["display"]["factory-1"] = "t22"
    assert describe(t, state, "place factory-1") == "buy t22: brown lit tile, 2 carts, costs 3 (1 worker)"


def test_mining_steps_say_what_they_move_and_what_an_order_gets(t):
    state = t.started(2)
    pit = state["pits"]["alice"]
    pit["cage"] = {"level": 0, "cubes": ["grey"]}
    pit["storage"] = ["yellow"]
    pit["orders"] = [{"id": "o15", "spots": [[]]}, {"id": "o11", "spots": [[], [], [], []]}]  # o15: lorry, grey
    state = t.give_turn(state, "alice", "mine", steps=3)
    assert describe(t, state, "end") == "stop mining, losing 3 steps"
    assert describe(t, state, "put grey on (any 1 of o15 o11)") == "1 step, a cube from the cage; completes o15"
    assert describe(t, state, "cage 1") == "down to level 1, yellow: 1 cube in its carts"
    assert describe(t, state, "store grey") == "a grey cube from the cage into storage"
    assert describe(t, state, "substitute grey on (any 1 of o15 o11)") == \
        "2 steps: any 2 cubes fill one grey spot; completes o15"
    pit["orders"] = [{"id": "o15", "spots": [[]]}]
    assert describe(t, state, "put grey on o15") == "1 step, a cube from the cage; completes o15 (lorry, 4 VP)"


def test_a_kept_card_is_described_to_the_mover_alone(t):
    state = t.give_turn(t.started(2), "alice")
    state["tile_deck"][:5] = ["t01", "t22", "t40", "t10", "t13"]
    state = t.play(state, "place factory-draw")
    assert describe(t, state, "keep t22") == "brown lit tile, 2 carts, costs 4"
    assert describe(t, state, "keep none") == "keep nothing: every card drawn goes back"
    public = t.view(state, None)
    assert t.game.report.describe(public, {"action": "keep", "card": "t22"}) == ""  # nothing drawn in that view
    state = t.play(state, "keep t22")
    assert describe(t, state, "return top (t01 t40 t10 t13 in any order)") == \
        "on top of the deck, drawn next, in the order you write them"


@pytest.mark.parametrize("players,options", [(4, {}), (3, {"phase-cards": "on", "overplace": "on"})])
def test_every_legal_move_of_a_random_game_has_a_short_description(t, players, options):
    described = described_actions(t.game, ["ann", "ben", "cat", "dan"][:players], options, f"describe-{players}")
    assert {"draft", "place", "cage", "load", "end", "keep"} <= described
