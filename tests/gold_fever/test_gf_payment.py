"""The payment down the table (seed 003, [BT-EN]): the winner pays his right neighbour, each receiver keeps half
rounded up and passes the rest to his right; the winner never gets money back; with 3 players the second receiver
keeps half rounded up and the rest goes to the bank. Seats are clockwise, so the right neighbour is the previous
seat."""

FIVE = ["ann", "bob", "cid", "dee", "eve"]


def shares(seats, winner, price):
    from pbem import registry
    return [(share["to"], share["amount"])
            for share in registry.get("gold-fever").rules.pay_down_the_table(seats, winner, price)]


def test_payment_split_five_players_bid_9():
    # the reference's worked example: the four others keep 5, 2, 1, 1 going right (4, 2, 1 passed on)
    assert shares(FIVE, "cid", 9) == [("bob", 5), ("ann", 2), ("eve", 1), ("dee", 1)]


def test_payment_split_five_players_bid_20_left_neighbour_keeps_what_reaches_him():
    # 20: keeps 10 passes 10; keeps 5 passes 5; keeps 3 passes 2; the winner's left neighbour keeps the 2
    assert shares(FIVE, "ann", 20) == [("eve", 10), ("dee", 5), ("cid", 3), ("bob", 2)]


def test_payment_split_four_players_bid_9():
    # 9: keeps 5 passes 4; keeps 2 passes 2; the left neighbour keeps 2 (never back to the winner)
    assert shares(FIVE[:4], "ann", 9) == [("dee", 5), ("cid", 2), ("bob", 2)]


def test_payment_split_four_players_bid_1_stops_when_nothing_is_left():
    assert shares(FIVE[:4], "bob", 1) == [("ann", 1)]


def test_payment_split_four_players_bid_3():
    # 3: keeps 2 passes 1; the next keeps ceil(1/2) = 1 and nothing is left
    assert shares(FIVE[:4], "dee", 3) == [("cid", 2), ("bob", 1)]


def test_payment_split_three_players_bid_9_rest_to_bank():
    # 9: the right neighbour keeps 5 passes 4; the second receiver keeps 2 and the bank gets 2
    assert shares(FIVE[:3], "ann", 9) == [("cid", 5), ("bob", 2), ("bank", 2)]


def test_payment_split_three_players_bid_10():
    assert shares(FIVE[:3], "bob", 10) == [("ann", 5), ("cid", 3), ("bank", 2)]


def test_payment_split_three_players_bid_3_nothing_for_the_bank():
    assert shares(FIVE[:3], "cid", 3) == [("bob", 2), ("ann", 1)]


def test_winner_never_gets_money_back():
    for seats in (FIVE[:3], FIVE[:4], FIVE):
        for price in range(0, 40):
            split = shares(seats, seats[1], price)
            assert seats[1] not in [to for to, _ in split]
            assert sum(amount for _, amount in split) == price


def test_payment_moves_the_gold_and_the_bank_ledger(gf):
    state = gf.new()
    state = gf.play(state, "ann", "bid 9")
    state = gf.play(state, "bob", "pass")
    state = gf.play(state, "cid", "pass")
    assert state["gold"] == {"ann": 1, "cid": 15, "bob": 12}
    assert state["bank"] == {"paid_out": 0, "taken_in": 2}
    assert gf.money_total(state) == 30
    assert state["turn"]["payment"] == [{"to": "cid", "amount": 5}, {"to": "bob", "amount": 2},
                                        {"to": "bank", "amount": 2}]
