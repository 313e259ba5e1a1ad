"""La Fièvre de l'Or's queue words (meta.yaml `queues:`), each played through the referee's turns: the choice
forms `bid up to N` and `take best`, the conditions, and the standing orders with what disarms them."""
from __future__ import annotations

import pytest

from support import QueueTable

Q = QueueTable("gold-fever")


@pytest.fixture
def table(gf):
    """Turn 1 with three players, ann bids first; the offer: new-london-2 (6 nuggets), -4 (3), -5 (2)."""
    return Q.env(gf.new())


def test_bid_up_to_bids_the_lowest_bid_allowed_while_it_is_within_the_limit(table):
    env, _ = Q.send(table, "ann", "bid 1; standing auction: bid up to 3 else pass")
    env, _ = Q.send(env, "bob", "bid 2")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries) == [("cid", ["pass"], None), ("ann", ["bid 3"], "standing order")]


def test_bid_up_to_is_no_bid_once_the_lowest_bid_allowed_is_above_the_limit(table):
    env, _ = Q.send(table, "ann", "bid 1; standing auction: bid up to 3 else pass")
    env, _ = Q.send(env, "bob", "bid 4")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries) == [("cid", ["pass"], None), ("ann", ["pass"], "standing order")]
    assert Q.to_act(env) == ("bob", "choose_card")  # bob won: the auction is over


def test_take_best_takes_the_concession_with_most_nuggets(table):
    env, _ = Q.send(table, "ann", "bid 1; take best")
    env, _ = Q.send(env, "bob", "pass")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries)[-1] == ("ann", ["take 1"], "queued")  # new-london-2, 6 nuggets


def test_take_best_chooses_nothing_when_only_events_are_on_offer(gf):
    state = gf.at_choice(gf.new(), "ann", ["saloon-1", "card-shark-1", "governor-1"])
    env, entries = Q.queue(Q.env(state), "ann", "take best else take 2")
    assert Q.played(entries)[0] == ("ann", ["take 2"], "queued")


def test_a_condition_that_a_card_is_offered(table):
    env, _ = Q.send(table, "ann", "bid 1; take 3 if new-london-9 offered else take 2 if new-london-4 offered")
    env, _ = Q.send(env, "bob", "pass")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries)[-1] == ("ann", ["take 2"], "queued")


def test_a_condition_on_a_players_gold(table):
    env, _ = Q.send(table, "ann", "bid 1; standing auction: pass if bob gold at least 10 else bid up to 9")
    env, _ = Q.send(env, "bob", "bid 2")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries)[-1] == ("ann", ["pass"], "standing order")  # bob still holds his 10


def test_a_condition_on_a_towns_mayor(gf):
    state = gf.own(gf.new(), "bob", "new-london-6", "new-london-7")
    env, _ = Q.send(Q.env(state), "ann", "bid 1; bid 5 if bob mayor of new-london else pass")
    env, _ = Q.send(env, "bob", "bid 2")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries)[-1] == ("ann", ["bid 5"], "queued")


def test_a_condition_on_the_high_bid(table):
    env, _ = Q.send(table, "ann", "bid 1; bid 4 if high bid at most 3 else pass")
    env, _ = Q.send(env, "bob", "bid 3")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries)[-1] == ("ann", ["bid 4"], "queued")


def test_a_standing_auction_order_is_disarmed_by_a_new_offer_and_never_plays_in_it(table):
    env, _ = Q.send(table, "ann", "pass; standing auction: bid up to 9 else pass")
    env, _ = Q.send(env, "bob", "bid 1")
    env, _ = Q.send(env, "cid", "pass")  # bob won turn 1
    env, _ = Q.send(env, "bob", "take 1")
    env, _ = Q.send(env, "cid", "take 2")
    while Q.to_act(env)[1] != "bid_for_lot":  # ann's card (forced), the roll: on to turn 2, led by bob
        env, _ = Q.send(env, Q.to_act(env)[0], "pass")
    assert env["state"]["turn"]["number"] == 2
    env, _ = Q.send(env, "bob", "bid 1")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries) == [("cid", ["pass"], None)] and Q.to_act(env) == ("ann", "bid_for_lot")
    shown = Q.shown(env, "ann")
    assert shown["standing"] == [] and "standing auction order disarmed (a new turn's cards are on offer)" \
        in shown["notices"][0]


def test_a_standing_mustang_order_keeps_the_mustang(gf):
    state = gf.hold(gf.new(), "cid", "mustang-1")
    env, _ = Q.send(Q.env(state), "ann", "bid 1")
    env, _ = Q.queue(env, "cid", "standing mustang: pass")
    env, _ = Q.send(env, "bob", "pass")
    env, _ = Q.send(env, "cid", "pass")
    env, entries = Q.send(env, "ann", "take 1")  # the Mustang is offered to cid, after the winner's choice
    assert Q.played(entries) == [("ann", ["take 1"], None), ("cid", ["pass"], "standing order")]
    assert Q.to_act(env) == ("bob", "choose_card")


def test_a_standing_telegraph_order_answers_after_the_roll_and_says_it_chose_blind(gf):
    state = gf.hold(gf.new(), "cid", "telegraph-1")
    env, _ = Q.queue(Q.env(state), "cid", "standing telegraph: pass")
    env, _ = Q.send(env, "ann", "bid 1")
    env, _ = Q.send(env, "bob", "pass")
    env, _ = Q.send(env, "cid", "pass")
    env, _ = Q.send(env, "ann", "take 1")
    env, entries = Q.send(env, "bob", "take 2")  # cid's card is forced, then the roll, then the telegraph
    assert ("cid", ["pass"], "standing order") in Q.played(entries)
    assert env["state"]["turn"]["number"] == 2 and "chosen blind" in Q.shown(env, "cid")["notices"][0]


def test_a_card_choice_queued_for_the_next_turn_stops_when_its_slot_holds_another_card(table):
    """`take 2` was slot 2's New London 4 when it was queued; next turn slot 2 holds another card: the same words
    would take something else, so the queue stops before that turn's first step and ann is asked."""
    env, _ = Q.send(table, "ann", "bid 1; take 1; next; pass; take 2")
    assert Q.record(env, "ann")["said"] == {"take 1": "New London 2, 6 nuggets", "take 2": "New London 4, 3 nuggets"}
    env, _ = Q.send(env, "bob", "pass")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries)[-1] == ("ann", ["take 1"], "queued")
    while Q.to_act(env)[1] == "choose_card":
        env, _ = Q.send(env, Q.to_act(env)[0], "take best")
    while Q.to_act(env)[0] != "ann":
        env, _ = Q.send(env, Q.to_act(env)[0], "pass")
    notice = Q.shown(env, "ann")["notices"][-1]
    assert Q.to_act(env) == ("ann", "bid_for_lot") and Q.record(env, "ann")["turns"] == []
    assert notice == ("your queue stopped at 'take 2': it now means New London 7, 6 nuggets, not New London 4, 3 "
                      "nuggets as when you queued it (legal: pass, bid 1..9); dropped: pass; take 2")


# ------------------------------------------------------------ every name a report prints is a word a player may write

def test_a_card_on_offer_may_be_taken_by_the_name_every_report_prints_and_the_log_records_its_slot(table):
    """The offer prints `new-london-4`; `take new-london-4` takes it (the log keeps `take 2`), and the slot number
    is still a move."""
    view = Q.game.rules.view(table["state"], "ann")
    assert "new-london-4" in Q.game.report.render(view, "ann")
    env, _ = Q.send(table, "ann", "bid 1; take new-london-4")
    env, _ = Q.send(env, "bob", "pass")
    env, entries = Q.send(env, "cid", "pass")
    assert Q.played(entries)[-1] == ("ann", ["take 2"], "queued")
    env, entries = Q.send(env, "bob", "take 3")
    assert Q.played(entries)[0] == ("bob", ["take 3"], None)


def test_a_card_named_that_is_no_longer_on_offer_stops_the_queue_with_the_legal_moves(table):
    env, _ = Q.send(table, "ann", "pass; take new-london-2")
    env, _ = Q.send(env, "bob", "pass")
    env, _ = Q.send(env, "cid", "bid 1")
    env, entries = Q.send(env, "cid", "take new-london-2")
    assert Q.played(entries) == [("cid", ["take 1"], None)] and Q.to_act(env) == ("ann", "choose_card")
    assert Q.shown(env, "ann")["notices"][-1] == (
        "your queue stopped at 'take new-london-2', not legal now (take one of the cards on offer (a concession "
        "is placed, an event acts); legal: take 2, take 3); dropped: take new-london-2")
