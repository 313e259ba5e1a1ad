"""The end (French rules): the game ends when the last warehouse is placed; 20 florins per card left in hand, every
share and flag sold at its value; the richest player wins."""
from __future__ import annotations


def last_warehouse(t, supply=1):
    state = t.give(t.empty_hands(t.new(2)), "ann", "8")
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1, shares={"bob": 1})
    state["supply"] = supply
    return state


def test_the_game_ends_after_the_turn_that_places_the_last_warehouse(t):
    state = t.play(last_warehouse(t), "build 8")
    assert state["supply"] == 0 and t.decision(state) == ("ann", "trade_shares")  # the builder finishes the turn
    state = t.play(state, "buy share gold")
    state = t.play(state, "done")
    assert t.rules.pending(state) is None and state["over"]


def test_the_game_goes_on_while_warehouses_remain(t):
    state = t.turn(last_warehouse(t, supply=2), "build 8; done")
    assert t.decision(state) == ("bob", "take_turn")


def test_the_game_ends_when_every_player_in_a_row_can_only_pass(t):
    state = t.empty_hands(t.new(3))
    state["deck"], state["market"] = [], []
    state = t.play(state, "pass")
    state = t.play(state, "pass")
    assert t.decision(state) == ("cid", "take_turn")
    assert t.rules.pending(t.play(state, "pass")) is None


def test_a_turn_that_is_not_a_pass_starts_the_count_again(t):
    state = t.empty_hands(t.new(2))
    state["deck"], state["market"] = [], []
    state = t.play(state, "pass")
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1)
    state = t.turn(t.give(state, "bob", "8"), "build 8; done")
    assert state["passes"] == 0
    state = t.play(state, "pass")
    assert t.decision(state) == ("bob", "take_turn")


def final_position(t):
    """Ann: 500 florins, 3 gold shares and the gold flag, 2 cards; bob: 900 florins, 1 tea share, no card."""
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1, value=300, shares={"ann": 3}, flag="ann")   # 100 a share
    t.company(state, "tea", {43: 1, 44: 1, 37: 1}, hq=43, value=60, shares={"bob": 1})             # 20 a share
    t.give(state, "ann", "9", "level-2")
    state["money"] = {"ann": 500, "bob": 900}
    state["over"], state["stack"] = True, []
    return state


def test_final_score_pays_20_per_card_and_sells_every_share_and_flag_at_its_value(t):
    result = {row["player"]: row for row in t.rules.result(final_position(t))}
    assert result["ann"]["score"] == 500 + 3 * 100 + 4 * 100 - 2 * 20
    assert result["bob"]["score"] == 900 + 20


def test_the_final_report_shows_each_players_calculation(t):
    result = {row["player"]: row["details"] for row in t.rules.result(final_position(t))}
    assert result["ann"] == {"florins": 500, "shares": "3 gold x 100 = 300", "flags": "gold flag 4 x 100 = 400",
                             "cards in hand": "2 x -20 = -40", "total": 1160}
    assert result["bob"] == {"florins": 900, "shares": "1 tea x 20 = 20", "flags": "0",
                             "cards in hand": "0 x -20 = 0", "total": 920}


def test_the_richest_wins(t):
    assert [(row["player"], row["rank"]) for row in t.rules.result(final_position(t))] == [("ann", 1), ("bob", 2)]


def test_a_tie_goes_to_more_florins_before_the_sale_then_is_shared(t):
    state = final_position(t)
    state["money"]["bob"] = 1140                   # 1140 + 20 = 1160, and more florins than ann
    assert [(row["player"], row["rank"]) for row in t.rules.result(state)] == [("bob", 1), ("ann", 2)]
    for company in ("gold", "tea"):                # now both hold 1160 florins and nothing else
        state["companies"][company].update(shares={}, flag=None)
    state["money"] = {"ann": 1160, "bob": 1160}
    state["hands"]["ann"] = []
    assert [(row["player"], row["rank"]) for row in t.rules.result(state)] == [("ann", 1), ("bob", 1)]


def test_two_players_with_two_companies_cannot_place_the_last_warehouse_and_end_when_both_pass(t):
    components = t.components()
    grey = next(c for c in components["cards"] if c["colour"] == "grey")
    cards = len(grey["plots"]) + sum(level["count"] for level in grey["levels"])
    row = next(r for r in components["setup"] if r["players"] == 2)
    free = components["values"]["free_warehouses"]
    assert cards + 2 * free < row["warehouses"]  # 60 cards + 2 free warehouses for each of 2 foundings < 65
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 2, 2: 2, 7: 2}, hq=1, shares={"ann": 1})  # 60: 20 a share, tea 10
    t.company(state, "tea", {43: 1, 44: 1, 37: 1}, hq=43, shares={"bob": 1})
    state["deck"], state["market"] = [], []
    state = t.play(t.play(state, "pass"), "pass")
    assert t.rules.pending(state) is None and state["supply"] > 0
    ranking = t.rules.result(state)
    assert sorted(row["player"] for row in ranking) == ["ann", "bob"]
    assert {row["player"]: row["rank"] for row in ranking} == {"ann": 1, "bob": 2}  # gold is worth more


def test_a_resigned_seat_buys_the_top_card_of_the_deck_instead_of_building():
    from pbem import bots
    from pbem.store import registry
    from support import reach_decision
    game = registry.get("chartered")
    _, _, legal, view = reach_decision(game, {}, ["ann", "bob", "cid"], "take_turn")
    assert any(m["action"] == "build" for m in legal)  # a build was possible: it could merge the others' companies
    assert bots.resigned_move(game, view, legal) == {"action": "buy", "card": "deck"}


def test_a_resigned_seat_short_of_a_card_after_one_sale_keeps_its_other_shares(t):
    from pbem import bots
    state = t.empty_hands(t.new(2))
    t.company(state, "tea", {43: 1, 44: 1, 37: 1}, hq=43, value=60, shares={"ann": 3})
    state["money"]["ann"] = 0
    state = t.play(state, "sell share tea")
    legal = t.legal(state)
    assert bots.resigned_move(t.game, t.view(state, "ann"), legal) == {"action": "pass"}
