"""Hidden information (the Chinese rules: money is hidden; decks face down; draw-5 shown to the mover alone;
delivered orders face down but at the shift scorings) and the report a player reads."""
from __future__ import annotations

import json

from pbem.play import playout


def keys_and_ints(node):
    if isinstance(node, dict):
        for k, v in node.items():
            yield k
            yield from keys_and_ints(v)
    elif isinstance(node, list):
        for v in node:
            yield from keys_and_ints(v)
    elif isinstance(node, int):
        yield node


def test_money_of_each_player_is_hidden_from_the_others(t):
    state = t.started(3)
    state["pits"]["bob"]["money"] = 37
    public = list(keys_and_ints(t.view(state, None)))
    assert 37 not in public and "money" not in public
    alice = t.view(state, "alice")
    assert alice["private"] == {"player": "alice", "money": 9, "delivered": [], "drawn": None,
                                "tile_prices": []}  # 3 players start with 9
    assert 37 not in list(keys_and_ints(alice))
    assert t.view(state, "bob")["private"]["money"] == 37


def test_decks_are_hidden_only_their_counts_are_public(t):
    state = t.started(2)
    public = t.view(state, None)
    assert public["decks"] == {"tiles": len(state["tile_deck"]), "orders": len(state["order_deck"])}
    deck_ids = set(state["tile_deck"]) | set(state["order_deck"])
    shown = {x for x in str(public).replace("'", " ").replace(",", " ").split() if x in deck_ids}
    assert not shown


def test_draw_five_contents_only_in_the_movers_view(t):
    state = t.give_turn(t.started(3), "alice")
    top5 = state["order_deck"][:5]
    state = t.play(state, "place order-draw")
    mine = t.view(state, "alice")["private"]["drawn"]
    assert mine["kind"] == "orders" and [c["id"] for c in mine["cards"]] == top5
    for other in (None, "bob", "carol"):
        text = str(t.view(state, other))
        assert not [o for o in top5 if f"'{o}'" in text]
    state = t.play(state, "keep none")  # the rest stay private while they are being returned
    assert t.view(state, "alice")["private"]["drawn"]["cards"][0]["id"] == top5[0]
    assert t.view(state, "bob")["private"]["drawn"] is None


def test_report_shows_the_viewers_money_only(t):
    state = t.started(2)
    state["pits"]["bob"]["money"] = 37
    alice = t.game.report.render(t.view(state, "alice"), "alice")
    assert "37" not in alice and "hidden" in alice
    public = t.game.report.render(t.view(state, None), None)
    players_table = public.split("\n\n")[1]
    assert "37" not in players_table and players_table.count("hidden") == 2


def test_report_shows_board_and_pit_at_a_glance(t):
    state = t.started(2)
    state["board"]["bank-6"] = ["bob", "bob"]
    state["pits"]["alice"]["cage"] = {"level": 3, "cubes": ["grey", "black"]}
    state["pits"]["alice"]["storage"] = ["yellow"]
    state["pits"]["alice"]["orders"] = [{"id": "o11", "spots": [["yellow"], ["grey", "black"], [], []]}]
    text = t.game.report.render(t.view(state, "alice"), "alice")
    board = text[text.index("Board:"):]
    assert [line.split() for line in board.splitlines() if line.startswith("bank-6 ")] == [["bank-6", "bob", "x2", "3"]]
    assert [line.split() for line in board.splitlines() if line.startswith("bank-1 ")] == [["bank-1", "-", "1"]]
    tile = state["display"]["factory-1"]
    assert tile in text
    assert "Pit of alice" in text and text.index("Pit of alice") < text.index("Pit of bob")
    pit = text[text.index("Pit of alice"):text.index("Pit of bob")]
    assert "3 grey" in pit and "cage[grey,black]" in pit and "storage: yellow" in pit
    rows = pit.splitlines()  # the orders' table: its spots cell wraps onto a continuation row to fit 78 columns
    head = next(line for line in rows if line.startswith("order"))
    start, end = head.index("spots"), head.index("complete")
    at = next(n for n, line in enumerate(rows) if line.startswith("o11"))
    cell = [rows[at][start:end].strip()] + [line[start:end].strip() for line in rows[at + 1:at + 3]
                                            if line.strip() and not line[:start].strip()]
    assert " ".join(cell) == "yellow:yellow brown:grey+black grey:- black:-"
    lines = [line for line in pit.splitlines() if line.startswith(("1 yellow", "2 brown"))]
    assert "p1[yellow]" in lines[0] and "p2[brown]" in lines[1]


def test_report_labels_every_column_of_the_orders_table(t):
    state = t.started(2)
    state["pits"]["alice"]["orders"] = [{"id": "o01", "spots": [["yellow"]]}, {"id": "o05", "spots": [[]]}]
    text = t.game.report.render(t.view(state, None), None)
    table = text[text.index("Outstanding orders:"):].splitlines()
    assert table[1].split() == ["order", "transport", "VP", "spots", "complete"]
    assert table[3].split()[-1] == "yes" and table[4].split()[-1] == "no"


def test_a_game_without_phase_cards_never_speaks_of_them(t):
    # neither the report nor the description of any decision reached in a game without the option
    state = playout.start(t.game, ["ann", "ben", "cat"], {}, seed="no-phase")
    for number, (_, _, state) in enumerate(playout.steps(t.game, state, seed="no-phase", bot_seed=1)):
        decision = t.rules.pending(state)
        if decision is None:
            break
        described = t.game.meta["decisions"][decision["decision"]]
        assert "phase" not in described and "pass" not in described
        if number % 25 == 0:
            text = t.game.report.render(t.view(state, decision["player"]), decision["player"])
            assert "phase" not in text.lower()


def test_report_shows_drawn_cards_to_the_mover(t):
    state = t.give_turn(t.started(2), "alice")
    state = t.play(state, "place factory-draw")
    first = state["stack"][-1]["drawn"][0]
    assert "Drawn for you alone" in t.game.report.render(t.view(state, "alice"), "alice")
    assert first in t.game.report.render(t.view(state, "alice"), "alice")
    assert "Drawn for you alone" not in t.game.report.render(t.view(state, "bob"), "bob")


def deliver(t, state, player, order, cubes):
    """`player` holds the complete order and delivers it (its transport's delivery space)."""
    state["pits"][player]["orders"] = [{"id": order, "spots": [[c] for c in cubes]}]
    transport = state["components"]["orders"][order]["transport"]
    return t.play(t.give_turn(state, player), f"place delivery-{transport}")


def test_delivered_orders_are_face_down_for_the_others_until_a_scoring_shows_them(t):
    state = deliver(t, t.started(3), "alice", "o04", ["grey"])  # wheelbarrow, 4 VP, one grey
    for viewer in (None, "bob"):
        view = t.view(state, viewer)
        assert "o04" not in json.dumps(view)  # no trace of the card, only how many
        pit = next(p for p in view["pits"] if p["player"] == "alice")
        assert pit["delivered"] == 1 and pit["shown"] == []
    assert [o["id"] for o in t.view(state, "alice")["private"]["delivered"]] == ["o04"]
    assert "Delivered: 1 face down" in t.game.report.render(t.view(state, "bob"), "bob")
    assert "o04" in t.game.report.render(t.view(state, "alice"), "alice")
    # the shift scoring turns every delivered order up: from then on everyone knows it
    for p in state["players"]:
        state["pits"][p]["workers"] = 0
    state["pits"]["carol"]["workers"] = 1
    state = t.play(t.give_turn(state, "carol"), "place bank-1")
    assert state["shift"] == 2
    state = deliver(t, state, "alice", "o01", ["yellow"])  # delivered after the scoring: face down again
    pit = next(p for p in t.view(state, "bob")["pits"] if p["player"] == "alice")
    assert pit["delivered"] == 2
    assert pit["shown"] == [{"id": "o04", "transport": "wheelbarrow", "vp": 4, "cubes": ["grey"], "shift": 1}]
    assert "o01" not in json.dumps(t.view(state, "bob"))
