"""After building (French rules): buy up to 2 shares (at least 50 florins each, while share cards remain), sell up
to 2 at the stock-board price, buy the flag of the company built on (worth 4 shares; 200 for a player's first,
400 for the second)."""
from __future__ import annotations

import pytest


def after_building(t, gold_value=30, money=600, **gold):
    """Ann has just expanded gold (1, 2, 7 + 8) and may trade."""
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1, value=gold_value, **gold)
    t.company(state, "tea", {43: 1, 44: 1, 37: 1}, hq=43, value=150, shares={"bob": 2})
    state["money"]["ann"] = money
    state = t.play(t.give(state, "ann", "8"), "build 8")
    assert t.decision(state) == ("ann", "trade_shares")
    return state


@pytest.mark.parametrize("value,price", [(30, 10), (59, 10), (60, 20), (150, 50), (300, 100), (900, 280)])
def test_the_stock_board_prices_a_share_by_capitalisation(t, value, price):
    from pbem.games.chartered.phases import shares
    state = t.new(2)
    state["companies"]["gold"]["value"] = value
    assert shares.share_price(state, "gold") == price


def test_a_share_costs_its_price_but_never_less_than_50(t):
    state = after_building(t)                      # gold 40: a share is worth 10
    money = state["money"]["ann"]
    state = t.play(state, "buy share gold")
    assert state["money"]["ann"] == money - 50
    state = t.play(state, "buy share tea")         # tea 150: worth 50
    assert state["money"]["ann"] == money - 100
    assert state["companies"]["gold"]["shares"] == {"ann": 1} and state["companies"]["tea"]["shares"]["ann"] == 1


def test_a_share_above_50_costs_its_stock_board_price(t):
    state = after_building(t, gold_value=290)      # 300 after the build: 100 a share
    assert state["money"]["ann"] - t.play(state, "buy share gold")["money"]["ann"] == 100


def test_at_most_two_shares_bought_after_a_build(t):
    state = t.play(after_building(t), "buy share gold tea")
    assert not [text for text in t.legal_texts(state) if text.startswith("buy share")]


def test_two_shares_at_once_only_when_both_can_be_paid(t):
    state = after_building(t, gold_value=290, money=0)     # 300 florins of income; gold now 100 a share
    entry = [m for m in t.legal(state) if m["action"] == "buy_share"][0]
    assert entry["company"]["max"] == 2
    state["money"]["ann"] = 150                            # one share of 100 now, the next decided after
    entry = [m for m in t.legal(state) if m["action"] == "buy_share"][0]
    assert entry["company"]["max"] == 1
    state = t.play(state, "buy share gold")
    assert not t.is_legal(state, "buy share gold") and t.is_legal(state, "buy share tea")
    assert state["turn"]["bought"] == 1


def test_shares_only_while_share_cards_remain(t):
    state = after_building(t, shares={"bob": 8})   # 9 cards: one left at the bank
    entry = [m for m in t.legal(state) if m["action"] == "buy_share"][0]
    assert entry["company"]["from"].count("gold") == 1
    state = t.play(state, "buy share gold")
    assert not t.is_legal(state, "buy share gold")


def test_only_founded_companies_have_shares_to_buy(t):
    entry = [m for m in t.legal(after_building(t)) if m["action"] == "buy_share"][0]
    assert sorted(set(entry["company"]["from"])) == ["gold", "tea"]


def test_sell_up_to_two_shares_at_the_stock_board_price(t):
    state = after_building(t, shares={"ann": 3})
    state["companies"]["tea"]["shares"] = {"ann": 1}
    money = state["money"]["ann"]
    state = t.play(state, "sell share gold tea")  # gold 40 -> 10, tea 150 -> 50
    assert state["money"]["ann"] == money + 10 + 50
    assert not [text for text in t.legal_texts(state) if text.startswith("sell share")]


def test_buy_and_sell_in_the_same_turn(t):
    state = t.turn(after_building(t, shares={"ann": 1}), "buy share tea; sell share gold; done")
    assert state["companies"]["tea"]["shares"]["ann"] == 1 and "ann" not in state["companies"]["gold"]["shares"]


def test_the_flag_is_that_of_the_company_built_on_and_costs_200(t):
    state = after_building(t)
    money = state["money"]["ann"]
    state = t.play(state, "buy flag")
    assert state["companies"]["gold"]["flag"] == "ann" and state["money"]["ann"] == money - 200
    assert state["companies"]["tea"]["flag"] is None


def test_a_players_second_flag_costs_400(t):
    state = after_building(t)
    state["companies"]["tea"]["flag"] = "ann"
    money = state["money"]["ann"]
    state = t.play(state, "buy flag")
    assert state["companies"]["gold"]["flag"] == "ann" and state["money"]["ann"] == money - 400


def test_one_flag_per_company(t):
    state = after_building(t, flag="bob")
    assert "buy flag" not in t.legal_texts(state)


def test_a_player_has_no_more_than_two_flags(t):
    state = after_building(t)
    for company in ("silk", "pepper"):
        state["companies"][company].update(hq="48", plots={"48": 1}, value=30, flag="ann")
    assert "buy flag" not in t.legal_texts(state)


def test_a_flag_needs_the_florins_for_it(t):
    state = after_building(t, money=100)          # 140 with the income: shares, but no flag of 200
    assert "buy flag" not in t.legal_texts(state) and t.is_legal(state, "buy share gold")


def test_done_ends_the_turn_and_a_turn_with_nothing_to_trade_ends_by_itself(t):
    assert t.decision(t.play(after_building(t), "done")) == ("bob", "take_turn")
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1, flag="bob", shares={"bob": 9})
    state["money"]["ann"] = 0
    state = t.play(t.give(state, "ann", "8"), "build 8")   # 40 florins: no share, no flag, nothing to sell
    assert t.decision(state) == ("bob", "take_turn")


# ------------------------------------------------------------------------- ruling 14: the FAQ's 2 trades in all

FAQ = {"trades": "faq"}


def faq_after_building(t, **kwargs):
    """As after_building, in a game made with the FAQ's reading (every new game's default)."""
    state = after_building(t, **kwargs)
    state["options"] = dict(FAQ)
    return state


def test_new_games_follow_the_faq_two_trades_in_all(t):
    assert t.game.resolve_options({})["trades"] == "faq"


def test_faq_two_shares_bought_are_of_one_company(t):
    state = faq_after_building(t)
    assert t.is_legal(state, "buy share gold gold") and t.is_legal(state, "buy share tea tea")
    assert not t.is_legal(state, "buy share gold tea")
    state = t.play(state, "buy share gold")
    assert t.is_legal(state, "buy share gold") and not t.is_legal(state, "buy share tea")


def test_faq_two_shares_sold_are_of_one_company(t):
    state = faq_after_building(t, shares={"ann": 3})
    state["companies"]["tea"]["shares"] = {"ann": 2}
    assert t.is_legal(state, "sell share gold gold") and not t.is_legal(state, "sell share gold tea")
    state = t.play(state, "sell share tea")
    assert t.is_legal(state, "sell share tea") and not t.is_legal(state, "sell share gold")


def test_faq_two_trades_in_all_buy_two_sell_two_or_one_of_each(t):
    state = faq_after_building(t, shares={"ann": 3})
    after_two_buys = t.play(state, "buy share tea tea")
    assert not [m for m in t.legal_texts(after_two_buys) if m.startswith(("buy share", "sell share"))]
    after_two_sales = t.play(state, "sell share gold gold")
    assert not [m for m in t.legal_texts(after_two_sales) if m.startswith(("buy share", "sell share"))]
    one_of_each = t.turn(state, "buy share tea; sell share gold")
    assert not [m for m in t.legal_texts(one_of_each) if m.startswith(("buy share", "sell share"))]
    assert "buy flag" in t.legal_texts(one_of_each)  # the flag is not a trade


def test_faq_a_second_share_only_if_it_can_be_paid(t):
    state = faq_after_building(t, gold_value=290, money=0)  # 300 of income; gold now 100 a share
    state["money"]["ann"] = 150
    assert t.is_legal(state, "buy share gold") and not t.is_legal(state, "buy share gold gold")


def test_games_made_before_the_trades_option_keep_two_bought_and_two_sold_of_any_companies(t):
    state = after_building(t, shares={"ann": 3})  # options without `trades`: the earlier reading
    assert t.is_legal(state, "buy share gold tea") and t.is_legal(state, "sell share gold gold")
    state = t.turn(state, "buy share gold tea; sell share gold gold")
    assert t.legal_texts(state) == ["done", "buy flag"]
