"""Production and the end (the French rules): the auction winner rolls two dice; every concession with that number
produces its nuggets in gold from the bank; the game ends when the deck is empty, after the final roll."""

OFFER = ["cold-mountain-3", "cold-mountain-4", "takamawok-5"]


def test_winner_rolls_two_dice_after_all_cards_are_taken(gf):
    state = gf.at_choice(gf.new(), "bob", OFFER)
    state = gf.take_remaining(state, [(2, 5)])
    rolls = [o for o in gf.last_rng.outcomes if o["what"].startswith("production roll")]
    assert rolls == [{"what": "production roll, turn 1", "result": [2, 5], "public": True}]
    assert state["turn"]["number"] == 2 and state["turn"]["first_player"] == "bob"


def test_concession_with_the_rolled_number_produces_its_nuggets_from_the_bank(gf):
    state = gf.own(gf.new(), "ann", "san-narciso-9", "new-london-9", "whiskey-river-8")
    state = gf.take_remaining(gf.at_choice(state, "bob", OFFER), [(4, 5)])
    # san-narciso-9 has 7 nuggets, new-london-9 has 4; the 8 produces nothing
    assert state["gold"]["ann"] == 10 + 7 + 4
    assert state["bank"]["paid_out"] == 11
    assert gf.money_total(state) == 30


def test_concession_taken_this_turn_already_produces(gf):
    state = gf.take_remaining(gf.at_choice(gf.new(), "ann", OFFER), [(1, 2)])
    assert state["owners"]["cold-mountain-3"] == "ann"
    assert state["gold"]["ann"] == 15


def test_next_turn_is_led_by_the_auction_winner(gf):
    state = gf.take_remaining(gf.at_choice(gf.new(), "cid", OFFER), [(6, 6)])
    assert gf.decision(state) == ("cid", "bid_for_lot")
    assert gf.rules.pending(state)["fresh_info"] is True
    assert len(state["turn"]["offer"]) == 3


def test_game_ends_when_the_deck_is_empty_after_the_final_roll(gf):
    state = gf.own(gf.new(), "cid", "new-london-7")
    state = gf.at_choice(state, "ann", OFFER)
    state["deck"] = []
    state = gf.take_remaining(state, [(3, 4)])
    assert gf.rules.pending(state) is None and state["phase"] == "over"
    assert state["gold"]["cid"] == 16  # the final roll still produced
    assert gf.legal(state, "ann") == []


def test_last_turn_with_fewer_cards_than_players(gf):
    state = gf.at_choice(gf.new(), "ann", ["cold-mountain-3", "cold-mountain-4"])
    state["deck"] = []
    state = gf.take_remaining(state, [(1, 1)])
    assert state["phase"] == "over"
    assert "cid" not in state["owners"].values()


def test_dangerous_mines_are_off_by_default(gf):
    state = gf.own(gf.new(), "ann", "cold-mountain-6")
    state = gf.take_remaining(gf.at_choice(state, "bob", OFFER), [(1, 1)])
    assert state["owners"]["cold-mountain-6"] == "ann"


def test_dangerous_mine_collapses_on_a_roll_of_2_or_12_with_the_option(gf):
    for dice in ([(1, 1)], [(6, 6)]):
        state = gf.own(gf.new(options={"dangerous-mines": "on"}), "ann", "cold-mountain-6", "cold-mountain-7")
        assert state["mayors"]["cold-mountain"] == "ann"
        state["veins"]["cold-mountain-6"] = "new-vein-1"
        state = gf.take_remaining(gf.at_choice(state, "bob", ["new-london-2", "takamawok-5", "san-narciso-9"]), dice)
        assert "cold-mountain-6" not in state["owners"]
        assert "cold-mountain-6" in state["discard"] and "new-vein-1" in state["discard"]
        assert state["mayors"]["cold-mountain"] == "ann"  # one concession left: ann keeps the card
        assert state["previous_turn"]["collapsed"] == ["cold-mountain-6"]


def test_dangerous_mine_stands_on_other_rolls(gf):
    state = gf.own(gf.new(options={"dangerous-mines": "on"}), "ann", "cold-mountain-6")
    state = gf.take_remaining(gf.at_choice(state, "bob", OFFER), [(3, 3)])
    assert state["owners"]["cold-mountain-6"] == "ann" and state["gold"]["ann"] == 19
