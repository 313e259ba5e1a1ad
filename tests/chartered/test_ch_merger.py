"""Mergers (French rules, 2b): a warehouse touching two companies merges them. On the harbour side plot 13
touches 7 above it and 19 below; plot 20 touches 14, 19 and 21."""
from __future__ import annotations


def gold_and_tea(t, gold_value=30, tea_value=60, card="13"):
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1, value=gold_value, shares={"ann": 2, "bob": 1})
    t.company(state, "tea", {19: 1, 25: 1, 31: 1}, hq=25, value=tea_value, shares={"bob": 1})
    return t.give(state, "ann", card)


def test_a_warehouse_touching_two_companies_merges_them(t):
    state = t.play(gold_and_tea(t), "build 13")
    assert state["companies"]["tea"]["plots"] == {"1": 1, "2": 1, "7": 1, "13": 1, "19": 1, "25": 1, "31": 1}
    assert state["companies"]["gold"]["plots"] == {}


def test_the_higher_capitalisation_survives(t):
    state = t.play(gold_and_tea(t, gold_value=90, tea_value=60), "build 13")
    assert state["last_merger"]["survivor"] == "gold" and state["companies"]["tea"]["hq"] is None


def test_the_merged_company_gains_10_and_the_absorbed_value(t):
    state = t.play(gold_and_tea(t, gold_value=30, tea_value=60), "build 13")
    assert state["companies"]["tea"]["value"] == 60 + 10 + 30


def test_the_builder_receives_the_merged_value(t):
    state = t.play(gold_and_tea(t), "build 13")
    assert state["turn"]["income"] == 100 and state["turn"]["company"] == "tea"


def test_absorbed_shares_are_sold_to_the_bank_at_the_stock_board_price(t):
    state = gold_and_tea(t, gold_value=70, tea_value=90)       # 70 is on the step of 60: a share is worth 20
    money = dict(state["money"])
    state = t.play(state, "build 13")
    assert state["companies"]["gold"]["shares"] == {}
    assert state["money"]["bob"] == money["bob"] + 20
    assert state["money"]["ann"] == money["ann"] + 2 * 20 + state["turn"]["income"]
    assert state["last_merger"]["absorbed"][0]["payouts"] == [
        {"player": "ann", "shares": 2, "flag": False, "amount": 40},
        {"player": "bob", "shares": 1, "flag": False, "amount": 20}]


def test_an_absorbed_flag_is_paid_as_four_shares_and_goes_back_to_its_owner(t):
    state = gold_and_tea(t, gold_value=70, tea_value=90)
    state["companies"]["gold"]["flag"] = "bob"
    money = state["money"]["bob"]
    state = t.play(state, "build 13")
    assert state["money"]["bob"] == money + 20 + 4 * 20
    assert state["companies"]["gold"]["flag"] is None
    assert state["companies"]["tea"]["flag"] is None


def test_the_absorbed_company_may_be_founded_again_at_30(t):
    state = t.turn(gold_and_tea(t), "build 13; done")
    state = t.turn(t.give(state, "bob", "5"), "build 5; found gold 4 6")
    gold = state["companies"]["gold"]
    assert gold["value"] == 30 and gold["hq"] == "5" and gold["shares"] == {"bob": 1}


def test_on_a_tie_the_builder_chooses_the_survivor(t):
    state = t.play(gold_and_tea(t, gold_value=60, tea_value=60), "build 13")
    assert t.decision(state) == ("ann", "choose_survivor")
    assert t.legal_texts(state) == ["survivor gold", "survivor tea"]
    state = t.play(state, "survivor gold")
    assert state["companies"]["gold"]["value"] == 130 and state["companies"]["tea"]["hq"] is None
    assert state["turn"]["income"] == 130


def test_three_companies_merge_at_once_into_the_highest(t):
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1, 8: 1, 14: 1}, hq=1, shares={"ann": 1})
    t.company(state, "tea", {19: 1, 25: 1, 31: 1}, hq=25, value=40, shares={"bob": 2})
    t.company(state, "silk", {21: 1, 15: 1, 22: 1}, hq=21, value=30)
    state = t.play(t.give(state, "ann", "20"), "build 20")
    assert state["companies"]["gold"]["value"] == 50 + 40 + 30 + 10
    assert [a["company"] for a in state["last_merger"]["absorbed"]] == ["tea", "silk"]
    assert state["companies"]["tea"]["hq"] is None and state["companies"]["silk"]["hq"] is None
    assert len(state["companies"]["gold"]["plots"]) == 5 + 3 + 3 + 1


def test_a_tie_below_a_clear_winner_needs_no_choice(t):
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1, 8: 1, 14: 1}, hq=1)
    t.company(state, "tea", {19: 1, 25: 1, 31: 1}, hq=25)
    t.company(state, "silk", {21: 1, 15: 1, 22: 1}, hq=21)
    state = t.play(t.give(state, "ann", "20"), "build 20")
    assert t.decision(state) == ("ann", "trade_shares") and state["companies"]["gold"]["value"] == 120
