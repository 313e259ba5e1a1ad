"""Chartered's queue words (meta.yaml `queues:`), each played through the referee's turns: the conditions (a
hand, which is hidden, only one's own) and the standing trades order with the merger that disarms it."""
from __future__ import annotations

import pytest

from pbem.contract import PbemError
from support import QueueTable

Q = QueueTable("chartered")


def gold_built(t, card="8", **money):
    """Ann to act, holding `card`; gold (plots 1, 2, 7) founded, tea (43, 44, 37) worth 150."""
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1, value=30)
    t.company(state, "tea", {43: 1, 44: 1, 37: 1}, hq=43, value=150, shares={"bob": 2})
    state["money"].update(money)
    return Q.env(t.give(state, "ann", card))


@pytest.mark.parametrize("limit, trade", [(50, "buy share gold"), (40, "done")])
def test_a_condition_on_a_shares_price(t, limit, trade):
    env, entries = Q.send(gold_built(t), "ann", f"build 8; buy share gold if price gold at most {limit} else done")
    assert Q.played(entries)[0] == ("ann", ["build 8", trade], None)


def test_a_condition_on_ones_own_hand(t):
    env, entries = Q.queue(gold_built(t), "ann", "build 8 if ann holds 8 else buy deck")
    assert Q.played(entries) == [("ann", ["build 8"], "queued")] and Q.to_act(env) == ("ann", "trade_shares")


def test_a_hand_of_another_player_is_hidden_and_refused_in_a_condition(t):
    with pytest.raises(PbemError, match=r"'buy deck if bob holds 8': bob's hand is hidden from you: a condition "
                                        r"reads only what you may see"):
        Q.queue(gold_built(t), "ann", "buy deck if bob holds 8")


def test_a_condition_that_a_card_is_in_the_market(t):
    env = gold_built(t)
    card = env["state"]["market"][0]
    env, entries = Q.queue(env, "ann", f"buy {card} if {card} in market else buy deck")
    assert Q.played(entries) == [("ann", [f"buy {card}"], "queued")] and Q.to_act(env) == ("bob", "take_turn")


def test_a_condition_on_a_players_money(t):
    env, entries = Q.queue(gold_built(t, ann=120), "ann", "refresh if ann money at least 150 else buy deck")
    assert Q.played(entries) == [("ann", ["buy deck"], "queued")]


@pytest.mark.parametrize("company, bought", [("gold", "gold"), ("coffee", "tea")])
def test_a_condition_that_a_company_is_founded(t, company, bought):
    env, entries = Q.send(gold_built(t), "ann", f"build 8; buy share {company} if {company} founded else buy share "
                                                f"tea")
    assert Q.played(entries)[0] == ("ann", ["build 8", f"buy share {bought}"], None)


def test_a_standing_trades_order_ends_the_trades_after_each_build(t):
    env, _ = Q.queue(gold_built(t), "ann", "standing trades: done")
    env, entries = Q.send(env, "ann", "build 8")
    assert Q.played(entries) == [("ann", ["build 8"], None), ("ann", ["done"], "standing order")]
    assert Q.to_act(env) == ("bob", "take_turn")


def test_a_standing_trades_order_is_disarmed_by_a_merger(t):
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 1}, hq=1, value=30, shares={"ann": 2, "bob": 1})
    t.company(state, "tea", {19: 1, 25: 1, 31: 1}, hq=25, value=60, shares={"bob": 1})
    env, _ = Q.queue(Q.env(t.give(state, "ann", "13")), "ann", "standing trades: done")
    env, entries = Q.send(env, "ann", "build 13")  # plot 13 touches gold and tea: they merge
    assert Q.played(entries) == [("ann", ["build 13"], None)] and Q.to_act(env) == ("ann", "trade_shares")
    assert "standing trades order disarmed (companies merged): done" in Q.shown(env, "ann")["notices"][0]
    assert Q.shown(env, "ann")["standing"] == []


# ------------------------------------------------------------ every name a report prints is a word a player may write

def test_a_company_may_be_written_by_the_code_every_report_prints_and_the_log_records_its_id(t):
    """The map, the companies table and the players' shares print GLD, not gold: `buy share GLD` and a condition
    `price gld ...` take it; the log keeps the id."""
    assert "GLD" in t.game.report.render(t.game.rules.view(gold_built(t)["state"], "ann"), "ann")
    env, entries = Q.send(gold_built(t), "ann", "build 8; buy share GLD if price gld at most 50 else done")
    assert Q.played(entries)[0] == ("ann", ["build 8", "buy share gold"], None)


def test_a_company_written_by_its_id_is_still_taken(t):
    env, entries = Q.send(gold_built(t), "ann", "build 8; sell share gold else buy share gold")
    assert Q.played(entries)[0] == ("ann", ["build 8", "buy share gold"], None)
