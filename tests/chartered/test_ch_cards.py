"""A. Buying a warehouse card (optionally after refreshing the market) and C. selling shares when one can neither
buy nor build (French rules)."""
from __future__ import annotations

from collections import Counter


def ann_to_act(t, *cards, money=600):
    state = t.give(t.empty_hands(t.new(2)), "ann", *cards)
    state["money"]["ann"] = money
    return state


# ------------------------------------------------------------------------------------------------ A: buy

def test_buying_a_market_card_costs_50_and_the_deck_refills_the_market(t):
    state = ann_to_act(t)
    market, top = list(state["market"]), state["deck"][0]
    state = t.play(state, f"buy {market[1]}")
    assert state["hands"]["ann"] == [market[1]] and state["money"]["ann"] == 550
    assert state["market"] == [market[0]] + market[2:] + [top]


def test_buying_the_top_card_of_the_deck_costs_50(t):
    state = ann_to_act(t)
    top, market = state["deck"][0], list(state["market"])
    state = t.play(state, "buy deck")
    assert state["hands"]["ann"] == [top] and state["money"]["ann"] == 550 and state["market"] == market


def test_buying_a_card_ends_the_turn(t):
    assert t.decision(t.play(ann_to_act(t), "buy deck")) == ("bob", "take_turn")


def test_a_hand_has_no_limit(t):
    state = ann_to_act(t, *[str(n) for n in range(3, 40)], money=1000)
    assert len(state["hands"]["ann"]) == 37 and t.is_legal(state, "buy deck")
    assert len(t.play(state, "buy deck")["hands"]["ann"]) == 38


def test_a_card_needs_50_florins(t):
    state = ann_to_act(t, money=49)
    assert not [text for text in t.legal_texts(state) if text.startswith("buy")]


def test_refresh_costs_50_then_a_card_must_be_bought(t):
    state = ann_to_act(t)
    old, deck = list(state["market"]), list(state["deck"])
    state = t.play(state, "refresh")
    assert state["money"]["ann"] == 550 and state["market"] == deck[:5]
    assert t.decision(state) == ("ann", "buy_card")
    assert t.legal_texts(state) == [f"buy {card}" for card in deck[:5]] + ["buy deck"]
    assert Counter(state["deck"]) == Counter(deck[5:] + old)   # the old market is shuffled into the deck
    state = t.play(state, f"buy {deck[2]}")
    assert state["money"]["ann"] == 500 and t.decision(state) == ("bob", "take_turn")


def test_refresh_shows_the_new_market_before_the_buy(t):
    state = t.play(ann_to_act(t), "refresh")
    assert t.rules.pending(state)["fresh_info"] is True


def test_refresh_shuffles_the_old_market_into_the_deck_with_the_rng(t):
    rng = t.rng()
    t.play(ann_to_act(t), "refresh", rng=rng)
    assert [(o["what"], o["public"]) for o in rng.outcomes] == [("the old market shuffled into the deck", False)]


def test_refresh_needs_florins_for_the_card_too(t):
    assert "refresh" not in t.legal_texts(ann_to_act(t, money=99))
    assert "refresh" in t.legal_texts(ann_to_act(t, money=100))



def test_no_refresh_with_an_empty_deck_and_a_short_deck_gives_a_short_market(t):
    state = ann_to_act(t)
    state["deck"] = []
    assert "refresh" not in t.legal_texts(state)
    state = ann_to_act(t)
    old, state["deck"] = list(state["market"]), state["deck"][:2]
    new = list(state["deck"])
    state = t.play(state, "refresh")
    assert state["market"] == new and Counter(state["deck"]) == Counter(old)

# ------------------------------------------------------------------------------------------ C: sell to buy

def stuck(t, money=20, **holdings):
    """Ann cannot build (no card) and cannot pay for a card; gold (value 150) and tea (60) are on the board."""
    state = ann_to_act(t, money=money)
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1, value=150, shares={"ann": holdings.get("gold", 0)})
    t.company(state, "tea", {43: 1, 44: 1, 37: 1}, hq=43, value=60, shares={"ann": holdings.get("tea", 0)})
    for company in ("gold", "tea"):
        if not holdings.get(company):
            state["companies"][company]["shares"] = {}
    return state


def test_neither_buy_nor_build_forces_a_share_sale(t):
    state = stuck(t, gold=1, tea=2)
    assert t.legal_texts(state) == ["sell share (any 1..3 of gold tea tea)"]


def test_after_selling_a_card_must_be_bought(t):
    state = t.play(stuck(t, gold=1), "sell share gold")          # 20 + 50 = 70
    assert state["money"]["ann"] == 70 and t.decision(state) == ("ann", "raise_funds")
    assert "buy deck" in t.legal_texts(state)
    state = t.play(state, "buy deck")
    assert state["money"]["ann"] == 20 and len(state["hands"]["ann"]) == 1
    assert t.decision(state) == ("bob", "take_turn")



def test_more_shares_may_be_sold_before_the_card_is_bought_even_when_it_can_be_paid(t):
    state = t.play(stuck(t, gold=2), "sell share gold")          # 20 + 50 = 70: a card can be paid
    assert "buy deck" in t.legal_texts(state) and "sell share gold" in t.legal_texts(state)
    state = t.play(state, "sell share gold")
    assert state["money"]["ann"] == 120 and t.decision(state) == ("ann", "raise_funds")

def test_sell_more_while_one_share_is_not_enough(t):
    state = t.play(stuck(t, money=0, tea=3), "sell share tea")   # 20: not enough
    assert t.legal_texts(state) == ["pass", "sell share (any 1..2 of tea tea)"]
    state = t.play(state, "sell share tea tea")
    assert state["money"]["ann"] == 60 and "buy deck" in t.legal_texts(state) and "pass" not in t.legal_texts(state)


def test_one_share_sold_and_still_short_the_player_may_stop_and_keep_the_others(t):
    state = t.play(stuck(t, money=0, tea=3), "sell share tea")   # 20: the rules ask for one share sold, not all
    view = t.view(state, "ann")
    assert "your turn ends" in t.game.report.describe(view, {"action": "pass"})
    state = t.play(state, "pass")
    assert state["companies"]["tea"]["shares"] == {"ann": 2} and state["money"]["ann"] == 20
    assert t.decision(state) == ("bob", "take_turn") and state["passes"] == 0  # a sale is not a pass


def test_everything_sold_and_still_short_ends_the_turn(t):
    state = t.play(stuck(t, money=0, tea=1), "sell share tea")
    assert state["money"]["ann"] == 20 and t.decision(state) == ("bob", "take_turn")


def test_nothing_to_sell_means_pass(t):
    state = stuck(t)
    assert t.legal_texts(state) == ["pass"]
    assert t.decision(t.play(state, "pass")) == ("bob", "take_turn")


def test_with_no_card_left_to_buy_a_player_who_cannot_build_passes(t):
    state = stuck(t, money=500, gold=2)
    state["deck"], state["market"] = [], []
    assert t.legal_texts(state) == ["pass"]


def test_a_player_who_can_build_is_not_forced_to_sell(t):
    state = stuck(t, gold=1)
    t.give(state, "ann", "8")
    assert t.legal_texts(state) == ["build 8"]
