"""The auction (the French rules): from the first player clockwise, bid higher or pass; a passer is out; never above
what you hold; it ends when one bidder is left; if all pass, the first player wins at 0."""


def test_auction_starts_with_first_player_and_goes_clockwise(gf):
    state = gf.new(("ann", "bob", "cid", "dee"))
    assert gf.decision(state) == ("ann", "bid_for_lot")
    state = gf.play(state, "bid 1", "ann")
    assert gf.decision(state) == ("bob", "bid_for_lot")
    state = gf.play(state, "pass", "bob")
    assert gf.decision(state) == ("cid", "bid_for_lot")


def test_bid_is_a_range_from_one_above_the_high_bid_to_own_gold(gf):
    state = gf.new()
    assert gf.legal(state, "ann") == [{"action": "pass"}, {"action": "bid", "amount": {"min": 1, "max": 10}}]
    state = gf.play(state, "bid 4", "ann")
    assert gf.legal(state, "bob") == [{"action": "pass"}, {"action": "bid", "amount": {"min": 5, "max": 10}}]
    assert gf.legal(state, "ann") == [] and gf.legal(state, "cid") == []


def test_bid_must_exceed_the_highest_bid(gf):
    state = gf.play(gf.new(), "bid 4", "ann")
    assert not gf.is_legal(state, "bid 4", "bob")
    assert not gf.is_legal(state, "bid 3", "bob")
    assert gf.is_legal(state, "bid 5", "bob")


def test_bid_never_above_own_gold(gf):
    state = gf.new()
    state["gold"]["ann"] = 6
    assert gf.is_legal(state, "bid 6", "ann")
    assert not gf.is_legal(state, "bid 7", "ann")


def test_player_who_cannot_outbid_may_only_pass(gf):
    state = gf.new()
    state["gold"]["bob"] = 4
    state = gf.play(state, "bid 4", "ann")
    assert gf.legal(state, "bob") == [{"action": "pass"}]
    state["gold"]["cid"] = 0
    state = gf.play(state, "pass", "bob")
    assert gf.legal(state, "cid") == [{"action": "pass"}]


def test_passer_is_out_of_the_auction(gf):
    state = gf.new()
    state = gf.play(state, "pass", "ann")
    state = gf.play(state, "bid 2", "bob")
    state = gf.play(state, "bid 3", "cid")
    # ann passed: the bidding goes back to bob, skipping her
    assert gf.decision(state) == ("bob", "bid_for_lot")
    state = gf.play(state, "bid 4", "bob")
    assert gf.decision(state) == ("cid", "bid_for_lot")


def test_auction_ends_when_all_but_the_high_bidder_passed(gf):
    state = gf.new()
    state = gf.play(state, "bid 3", "ann")
    state = gf.play(state, "pass", "bob")
    state = gf.play(state, "pass", "cid")
    assert state["turn"]["winner"] == "ann" and state["turn"]["price"] == 3
    assert gf.decision(state) == ("ann", "choose_card")


def test_all_pass_first_player_wins_at_zero(gf):
    state = gf.new()
    for player in ("ann", "bob", "cid"):
        state = gf.play(state, "pass", player)
    assert state["turn"]["winner"] == "ann" and state["turn"]["price"] == 0
    assert state["gold"] == {"ann": 10, "bob": 10, "cid": 10}
    assert gf.decision(state) == ("ann", "choose_card")


def test_last_player_may_still_bid_after_the_others_passed_without_bidding(gf):
    state = gf.new()
    state = gf.play(state, "pass", "ann")
    state = gf.play(state, "pass", "bob")
    assert gf.decision(state) == ("cid", "bid_for_lot")
    state = gf.play(state, "bid 1", "cid")
    assert state["turn"]["winner"] == "cid" and state["turn"]["price"] == 1


def test_bids_so_far_are_public(gf):
    state = gf.play(gf.play(gf.new(), "bid 2", "ann"), "pass", "bob")
    view = gf.view(state, None)
    assert view["turn"]["bids"] == [{"player": "ann", "bid": 2}, {"player": "bob", "bid": None}]
    assert view["turn"]["high_bidder"] == "ann" and view["turn"]["high_bid"] == 2
    assert "Bids so far: ann bids 2, bob pass" in gf.game.report.render(view, None)


def test_a_resigned_seat_never_bids():
    from pbem import bots
    from pbem.store import registry
    from support import reach_decision
    game = registry.get("gold-fever")
    _, _, legal, view = reach_decision(game, {}, ["alice", "bob", "carol"], "bid_for_lot")
    assert any(m["action"] == "bid" for m in legal)
    assert bots.resigned_move(game, view, legal) == {"action": "pass"}
