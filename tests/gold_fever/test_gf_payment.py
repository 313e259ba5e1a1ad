"""The payment down the table (the French rules): the winner pays his right neighbour, each receiver keeps half
rounded up and passes the rest to his right; the winner never gets money back, so the last player before him keeps
what reaches him. Option `bank-takes-the-rest` (the English edition's 3-player rule): the second receiver keeps
half rounded up and the bank takes the rest. Seats are clockwise, so the right neighbour is the previous seat."""
import pytest

from pbem.contract import PbemError
from pbem.games.gold_fever.phases import auction

BANK = "bank"

FIVE = ["ann", "bob", "cid", "dee", "eve"]


def shares(seats, winner, price, rest_to_bank=False):
    return [(share["to"], share["amount"])
            for share in auction.pay_down_the_table(seats, winner, price, rest_to_bank=rest_to_bank)]


def test_payment_split_five_players_bid_9():
    # the four others keep 5, 2, 1, 1 going right (4, 2, 1 passed on)
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


def test_payment_split_three_players_bid_9_the_left_neighbour_keeps_the_rest():
    # the French rules have no 3-player exception: 9, the right neighbour keeps 5 and passes 4; the winner's
    # left neighbour is the last before the winner and keeps the 4
    assert shares(FIVE[:3], "ann", 9) == [("cid", 5), ("bob", 4)]


def test_payment_split_three_players_bid_10():
    assert shares(FIVE[:3], "bob", 10) == [("ann", 5), ("cid", 5)]


def test_payment_split_three_players_bid_3():
    assert shares(FIVE[:3], "cid", 3) == [("bob", 2), ("ann", 1)]


def test_bank_takes_the_rest_option_three_players_bid_9():
    # the English edition's 3-player rule: the second receiver keeps half rounded up, the bank takes the rest
    assert shares(FIVE[:3], "ann", 9, rest_to_bank=True) == [("cid", 5), ("bob", 2), ("bank", 2)]


def test_bank_takes_the_rest_option_three_players_bid_10():
    assert shares(FIVE[:3], "bob", 10, rest_to_bank=True) == [("ann", 5), ("cid", 3), ("bank", 2)]


def test_bank_takes_the_rest_option_three_players_bid_3_nothing_for_the_bank():
    assert shares(FIVE[:3], "cid", 3, rest_to_bank=True) == [("bob", 2), ("ann", 1)]


@pytest.mark.parametrize("seats", [FIVE[:4], FIVE], ids=["4p", "5p"])
def test_bank_takes_the_rest_option_only_for_three_players(gf, seats):
    with pytest.raises(PbemError, match="for 3 players, not"):
        gf.new(tuple(seats), options={"bank-takes-the-rest": "on"})


def test_winner_never_gets_money_back():
    for seats, rest_to_bank in ((FIVE[:3], False), (FIVE[:3], True), (FIVE[:4], False), (FIVE, False)):
        for price in range(0, 40):
            split = shares(seats, seats[1], price, rest_to_bank)
            assert seats[1] not in [to for to, _ in split]
            assert sum(amount for _, amount in split) == price
            assert rest_to_bank or BANK not in [to for to, _ in split]  # the French rules: nothing to the bank


def test_payment_moves_the_gold(gf):
    state = gf.new()
    state = gf.play(state, "bid 9", "ann")
    state = gf.play(state, "pass", "bob")
    state = gf.play(state, "pass", "cid")
    assert state["gold"] == {"ann": 1, "cid": 15, "bob": 14}
    assert state["bank"] == {"paid_out": 0, "taken_in": 0}
    assert state["turn"]["payment"] == [{"to": "cid", "amount": 5}, {"to": "bob", "amount": 4}]


def test_bank_takes_the_rest_option_moves_the_gold_and_the_bank_ledger(gf):
    state = gf.new(options={"bank-takes-the-rest": "on"})
    state = gf.play(state, "bid 9", "ann")
    state = gf.play(state, "pass", "bob")
    state = gf.play(state, "pass", "cid")
    assert state["gold"] == {"ann": 1, "cid": 15, "bob": 12}
    assert state["bank"] == {"paid_out": 0, "taken_in": 2}
    assert gf.money_total(state) == 30
    assert state["turn"]["payment"] == [{"to": "cid", "amount": 5}, {"to": "bob", "amount": 2},
                                        {"to": "bank", "amount": 2}]
