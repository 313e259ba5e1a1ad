"""Shift scoring, start player change, the end of a shift, final scoring (the French and the Chinese rules)."""
from __future__ import annotations

from pbem.games.coal_baron import scoring

COLOURS = ("yellow", "brown", "grey", "black")


def last_placement(t, state, shift=1, by="alice"):
    """`by` places the last worker of the shift on bank 1 (everyone else is out of workers)."""
    state["shift"] = shift
    for p in state["players"]:
        state["pits"][p]["workers"] = 0
    state["pits"][by]["workers"] = 1
    return t.play(t.give_turn(state, by), "place bank-1")


def awards(state, shift):
    return sorted((a["category"], a["player"], a["place"], a["vp"]) for a in state["awards"] if a["shift"] == shift)


def with_delivered(t, players, delivered, seed="test"):
    state = t.started(players, seed=seed)
    for p, orders in delivered.items():
        state["pits"][p]["delivered"] = list(orders)
    return state


def test_shift_ends_when_no_player_has_workers(t):
    state = t.started(2)
    state["pits"]["bob"]["workers"] = 0
    state["pits"]["alice"]["workers"] = 2
    state = t.play(t.give_turn(state, "alice"), "place bank-1")
    assert state["shift"] == 1 and t.to_act(state) == "alice"  # bob skipped, alice goes on
    state = t.play(state, "place bank-4")
    assert state["shift"] == 2


def test_shift_1_scores_delivered_colours_only(t):
    state = with_delivered(t, 3, {"alice": ["o10"], "bob": ["o05"], "carol": ["o04"]})
    # alice: black x2 (wheelbarrow); bob: black x1; carol: grey x1
    state = last_placement(t, state, 1)
    assert awards(state, 1) == [("black-cubes", "alice", 1, 5), ("black-cubes", "bob", 2, 2),
                                ("grey-cubes", "carol", 1, 4)]
    assert state["pits"]["alice"]["vp"] == 5


def test_shift_2_adds_transports_counted_in_cube_symbols(t):
    state = with_delivered(t, 3, {"alice": ["o03"], "bob": ["o01", "o02"]})  # all wheelbarrow
    # alice 1 card with 2 symbols (Y Y), bob 2 cards with 1 symbol each (Y, Br): a tie on symbols, not on cards
    state = last_placement(t, state, 2)
    assert [a for a in awards(state, 2) if a[0] == "wheelbarrow"] == [("wheelbarrow", "alice", 1, 6),
                                                                     ("wheelbarrow", "bob", 1, 6)]
    assert awards(state, 2) == [("brown-cubes", "bob", 1, 3), ("wheelbarrow", "alice", 1, 6),
                                ("wheelbarrow", "bob", 1, 6), ("yellow-cubes", "alice", 1, 2),
                                ("yellow-cubes", "bob", 2, 1)]  # the colours are scored again in shift 2


def test_shift_3_adds_empty_minecarts(t):
    state = t.started(3)
    state["pits"]["alice"]["tunnels"][3]["carts"] = [None]  # printed black cart emptied
    state["pits"]["alice"]["tunnels"].append({"tile": "t40", "carts": [None, "black"]})
    state["pits"]["bob"]["tunnels"][3]["carts"] = [None]
    state = last_placement(t, state, 3)
    assert awards(state, 3) == [("empty-black-carts", "alice", 1, 13), ("empty-black-carts", "bob", 2, 6)]


def test_empty_minecarts_count_by_level_not_by_cube_colour(t):
    state = t.started(2)
    state["pits"]["alice"]["tunnels"].append({"tile": "t01", "carts": [None]})  # an empty yellow-level cart
    state["pits"]["bob"]["tunnels"].append({"tile": "t01", "carts": ["black"]})  # substitute cube: not empty
    state = last_placement(t, state, 3)
    assert awards(state, 3) == [("empty-yellow-carts", "alice", 1, 10)]


def test_shift_scoring_is_cumulative_over_all_delivered_orders(t):
    state = with_delivered(t, 2, {"alice": ["o04"]})
    state = last_placement(t, state, 1)
    state["pits"]["alice"]["workers"] = 0
    state = last_placement(t, state, 2, by="bob")
    assert ("grey-cubes", "alice", 1, 4) in awards(state, 1)
    assert ("grey-cubes", "alice", 1, 4) in awards(state, 2)  # the same delivered order scores again
    assert ("wheelbarrow", "alice", 1, 6) in awards(state, 2)
    assert state["pits"]["alice"]["vp"] == 4 + 4 + 6


def test_substituted_spot_counts_as_its_printed_colour(t):
    state = with_delivered(t, 2, {"alice": ["o05"]})  # black, whatever filled it
    state = last_placement(t, state, 1)
    assert awards(state, 1) == [("black-cubes", "alice", 1, 5)]


def test_tied_first_place_shares_first_and_awards_no_second(t):
    state = with_delivered(t, 3, {"alice": ["o04"], "bob": ["o26"], "carol": ["o01"]})
    state["pits"]["carol"]["delivered"] = ["o23"]  # carol: yellow only
    state = last_placement(t, state, 1)
    assert awards(state, 1) == [("grey-cubes", "alice", 1, 4), ("grey-cubes", "bob", 1, 4),
                                ("yellow-cubes", "carol", 1, 2)]


def test_tied_second_place_shares_second(t):
    state = with_delivered(t, 4, {"alice": ["o08"], "bob": ["o04"], "carol": ["o26"]})
    state = last_placement(t, state, 1)
    assert awards(state, 1) == [("grey-cubes", "alice", 1, 4), ("grey-cubes", "bob", 2, 2),
                                ("grey-cubes", "carol", 2, 2)]


def test_two_player_game_awards_no_second_place(t):
    state = with_delivered(t, 2, {"alice": ["o08"], "bob": ["o04"]})
    state = last_placement(t, state, 1)
    assert awards(state, 1) == [("grey-cubes", "alice", 1, 4)]


def test_at_least_one_to_score(t):
    state = t.started(3)
    state = last_placement(t, state, 1)
    assert awards(state, 1) == []
    state = with_delivered(t, 3, {"alice": ["o08"]})
    state = last_placement(t, state, 1)
    assert awards(state, 1) == [("grey-cubes", "alice", 1, 4)]  # nobody else has grey: no second place


def test_start_player_goes_to_most_workers_in_the_minecart_factory(t):
    state = t.started(3)
    state["start_player"] = "alice"
    state["board"]["factory-1"] = ["carol", "carol"]
    state["board"]["factory-draw"] = ["bob"]
    state["board"]["bank-6"] = ["bob"] * 4  # elsewhere: does not count
    state = last_placement(t, state, 1)
    assert state["start_player"] == "carol" and t.to_act(state) == "carol"


def test_start_player_tie_goes_clockwise_after_the_old_start_player(t):
    state = t.started(4)
    state["start_player"] = "bob"
    state["board"]["factory-1"] = ["alice"]
    state["board"]["factory-2"] = ["dave"]
    state = last_placement(t, state, 1, by="carol")
    assert state["start_player"] == "dave"  # after bob: carol (0), dave (tied), then alice


def test_old_start_player_never_keeps_the_marker_on_a_tie(t):
    state = t.started(3)
    state["start_player"] = "alice"
    state["board"]["factory-1"] = ["alice"]
    state["board"]["factory-2"] = ["carol"]
    state = last_placement(t, state, 1, by="bob")
    assert state["start_player"] == "carol"


def test_old_start_player_keeps_the_marker_with_a_clear_majority(t):
    state = t.started(3)
    state["start_player"] = "alice"
    state["board"]["factory-1"] = ["alice", "alice"]
    state["board"]["factory-2"] = ["carol"]
    state = last_placement(t, state, 1, by="bob")
    assert state["start_player"] == "alice"


def test_canteen_workers_do_not_count_for_the_start_player(t):
    state = t.started(3)
    state["start_player"] = "alice"
    state["canteen"]["bob"] = 5
    state["board"]["factory-1"] = ["carol"]
    state = last_placement(t, state, 1, by="bob")
    assert state["start_player"] == "carol"


def test_nobody_in_the_factory_passes_the_marker_clockwise(t):
    state = t.started(3)
    state["start_player"] = "bob"
    state = last_placement(t, state, 1)
    assert state["start_player"] == "carol"


def test_start_player_changes_only_after_shifts_1_and_2(t):
    state = t.started(3)
    state["start_player"] = "alice"
    state["board"]["factory-1"] = ["carol"]
    state = last_placement(t, state, 3, by="bob")
    assert state["over"] and state["start_player"] == "alice"


def test_workers_come_back_and_nothing_refills_between_shifts(t):
    state = t.started(2)
    state["board"]["bank-6"] = ["bob", "bob"]
    state["canteen"]["alice"] = 3
    state["display"]["factory-2"] = None
    state["tile_deck"] = []  # nothing to refill the emptied space with during play either
    tiles = dict(state["display"])
    cage = {"level": 3, "cubes": ["grey"]}
    state["pits"]["alice"]["cage"] = cage
    state = last_placement(t, state, 1)
    assert all(pit["workers"] == 18 for pit in state["pits"].values())
    assert state["canteen"] == {"alice": 0, "bob": 0}
    assert all(w == [] for w in state["board"].values())
    assert state["display"] == tiles  # unbought tiles and orders stay, the empty space stays empty
    assert state["pits"]["alice"]["cage"] == cage  # the cage keeps its level and cubes


def test_game_ends_after_the_third_shift(t):
    state = last_placement(t, t.started(2), 3)
    assert t.rules.pending(state) is None and t.rules.legal_moves(state, "alice") == []


def final_state(t, **alice):
    state = t.started(2)
    state["pits"]["alice"].update(alice)
    state["pits"]["bob"]["orders"] = []
    return last_placement(t, state, 3, by="bob")


def test_final_scoring_one_vp_per_five_money(t):
    state = final_state(t, money=14, orders=[])
    assert scoring.final_lines(state, "alice")["money"] == "14 -> +2"


def test_final_scoring_one_vp_per_three_cubes_wherever_they_are(t):
    pit = {"money": 0, "storage": ["grey", "grey"], "cage": {"level": 2, "cubes": ["black"]},
           "orders": [{"id": "o11", "spots": [["yellow"], ["black", "grey"], [], []]}]}
    state = final_state(t, **pit)
    # 4 printed carts + 2 stored + 1 in the cage + 3 on the outstanding order = 10 cubes -> 3 VP
    assert scoring.final_lines(state, "alice")["cubes"] == "10 -> +3"


def test_final_scoring_minus_one_per_outstanding_order(t):
    state = final_state(t, orders=[{"id": "o01", "spots": [[]]}, {"id": "o02", "spots": [[]]}])
    assert scoring.final_lines(state, "alice")["outstanding orders"] == "2 -> -2"


def test_final_scoring_minus_two_per_tile_of_lit_dark_imbalance(t):
    tunnels = t.started(2)["pits"]["alice"]["tunnels"] + [
        {"tile": "t07", "carts": [None]}, {"tile": "t08", "carts": [None]}, {"tile": "t10", "carts": [None, None]},
        {"tile": "t01", "carts": [None]}]  # 3 lit, 1 dark; the printed carts (2 lit, 2 dark) do not count
    state = final_state(t, tunnels=tunnels)
    assert scoring.final_lines(state, "alice")["lit/dark tiles"] == "3/1 -> -4"


def test_final_total_adds_every_line(t):
    state = final_state(t, money=12, orders=[{"id": "o01", "spots": [["yellow"]]}], vp=9, delivery_vp=5)
    state["awards"].append({"shift": 2, "category": "wheelbarrow", "player": "alice", "place": 1, "vp": 6})
    lines = scoring.final_lines(state, "alice")
    # deliveries 5, shift 2: 6 (planted), money 12 -> 2, cubes 5 -> 1, 1 outstanding -> -1, balance 0
    assert lines["deliveries"] == 5 and lines["shift 2"] == 6
    assert lines["total"] == 5 + 6 + 2 + 1 - 1
    row = next(r for r in t.rules.result(state) if r["player"] == "alice")
    assert row["score"] == lines["total"] and row["details"] == lines


def test_tie_break_is_money_left_over_after_conversion(t):
    state = final_state(t, money=9, orders=[])   # 9 -> 1 VP, 4 left over
    state["pits"]["bob"]["money"] = 10           # 10 -> 2 VP, 0 left over
    state["pits"]["alice"]["delivery_vp"] = 1    # totals: alice 1+1+1 = 3, bob 2+1 = 3
    result = t.rules.result(state)
    assert [(r["player"], r["score"], r["rank"]) for r in result] == [("alice", 3, 1), ("bob", 3, 2)]


def test_still_tied_after_the_tie_break_is_a_shared_victory(t):
    state = final_state(t, money=10, orders=[])
    state["pits"]["bob"]["money"] = 10
    result = t.rules.result(state)
    assert [r["rank"] for r in result] == [1, 1]


def test_final_report_shows_every_line_of_the_calculation(t):
    from pbem.text.report import ranking
    state = final_state(t, money=14, orders=[{"id": "o01", "spots": [[]]}])
    text = ranking(t.rules.result(state))
    header = " ".join(line for line in text.splitlines() if line.split()[:2] == ["rank", "player"])  # its parts
    for column in ("deliveries", "shift 1", "shift 2", "shift 3", "money", "cubes", "outstanding orders",
                   "lit/dark tiles", "total", "tie-break: money left over"):
        assert column in header
    assert "14 -> +2" in text and "1 -> -1" in text
