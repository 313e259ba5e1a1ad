"""The card choice and the mayors (the French rules): the winner chooses first, then leftwards; a concession is
placed; taking a concession of a town whose mayor is someone else pays him as many gold as he has concessions there;
the Maire card goes to the player with the most concessions of the town (at least 2), after the payment."""

from pbem.games.gold_fever import scoring
from pbem.games.gold_fever.phases import events, mayors

FOUR = ("ann", "bob", "cid", "dee")
OFFER = ["cold-mountain-3", "cold-mountain-4", "takamawok-5", "san-narciso-9"]


def test_card_choice_goes_from_winner_leftwards(gf):
    state = gf.at_choice(gf.new(FOUR), "cid", OFFER)
    order = []
    for slot, dice in ((1, ()), (2, ()), (3, ()), (4, [(1, 1)])):
        player = gf.decision(state)[0]
        order.append(player)
        state = gf.play(state, f"take {slot}", player, dice=dice)
    assert order == ["cid", "dee", "ann", "bob"]


def test_take_names_a_slot_still_on_offer(gf):
    state = gf.at_choice(gf.new(FOUR), "ann", OFFER)
    assert gf.legal(state, "ann") == [{"action": "take", "slot": n} for n in (1, 2, 3, 4)]
    state = gf.play(state, "take 2", "ann")
    assert gf.legal(state, "bob") == [{"action": "take", "slot": n} for n in (1, 3, 4)]
    assert state["turn"]["offer"][1] is None


def test_concession_is_placed_in_front_of_taker(gf):
    state = gf.play(gf.at_choice(gf.new(FOUR), "ann", OFFER), "take 4", "ann")
    assert state["owners"] == {"san-narciso-9": "ann"}
    view = gf.view(state, None)
    assert [c["id"] for c in view["players"][0]["concessions"]] == ["san-narciso-9"]


def test_one_concession_makes_no_mayor(gf):
    state = gf.play(gf.at_choice(gf.new(FOUR), "ann", OFFER), "take 1", "ann")
    assert state["mayors"]["cold-mountain"] is None


def test_mayor_appointed_with_two_concessions_of_the_town(gf):
    state = gf.own(gf.new(FOUR), "ann", "cold-mountain-5")
    state = gf.play(gf.at_choice(state, "ann", OFFER), "take 1", "ann")
    assert state["mayors"]["cold-mountain"] == "ann"


def test_mayor_fee_paid_when_taking_a_concession_of_another_mayors_town(gf):
    state = gf.own(gf.new(FOUR), "ann", "cold-mountain-5", "cold-mountain-7")
    assert state["mayors"]["cold-mountain"] == "ann"
    state = gf.play(gf.at_choice(state, "bob", OFFER), "take 1", "bob")
    assert state["gold"]["bob"] == 8 and state["gold"]["ann"] == 12
    assert state["turn"]["fees"] == [{"player": "bob", "mayor": "ann", "town": "cold-mountain", "amount": 2}]


def test_mayor_pays_no_fee_to_himself(gf):
    state = gf.own(gf.new(FOUR), "ann", "cold-mountain-5", "cold-mountain-7")
    state = gf.play(gf.at_choice(state, "ann", OFFER), "take 1", "ann")
    assert state["gold"]["ann"] == 10 and state["turn"]["fees"] == []


def test_no_fee_in_a_town_without_mayor(gf):
    state = gf.own(gf.new(FOUR), "ann", "takamawok-3")
    state = gf.play(gf.at_choice(state, "bob", OFFER), "take 3", "bob")
    assert state["gold"]["bob"] == 10


def test_mayor_fee_is_what_the_taker_can_pay(gf):
    state = gf.own(gf.new(FOUR), "ann", "cold-mountain-5", "cold-mountain-7")
    state["gold"]["bob"] = 1
    state = gf.play(gf.at_choice(state, "bob", OFFER), "take 1", "bob")
    assert state["gold"]["bob"] == 0 and state["gold"]["ann"] == 11


def test_mayor_changes_only_when_majority_shifts(gf):
    state = gf.own(gf.new(FOUR), "ann", "cold-mountain-5", "cold-mountain-7")
    gf.own(state, "bob", "cold-mountain-8")
    state = gf.play(gf.at_choice(state, "bob", OFFER), "take 1", "bob")
    assert state["mayors"]["cold-mountain"] == "ann"  # 2 against 2: the incumbent keeps the Maire card
    state = gf.at_choice(state, "bob", ["cold-mountain-4"], choosers=["bob"])  # a later turn: bob wins again
    state = gf.play(state, "take 1", "bob", dice=[(1, 1)])
    assert state["mayors"]["cold-mountain"] == "bob"  # 3 against 2: the majority shifted


def test_new_mayor_first_pays_the_old_mayor(gf):
    state = gf.own(gf.new(FOUR), "ann", "cold-mountain-5", "cold-mountain-7")
    gf.own(state, "bob", "cold-mountain-8", "cold-mountain-9")
    state = gf.play(gf.at_choice(state, "bob", OFFER), "take 1", "bob")
    assert state["mayors"]["cold-mountain"] == "bob"
    assert state["turn"]["fees"] == [{"player": "bob", "mayor": "ann", "town": "cold-mountain", "amount": 2}]


def test_first_to_two_concessions_keeps_the_card_against_a_later_equal(gf):
    state = gf.own(gf.new(FOUR), "ann", "takamawok-3", "takamawok-4")
    gf.own(state, "bob", "takamawok-6", "takamawok-7")
    assert state["mayors"]["takamawok"] == "ann"


def test_mayor_left_without_a_concession_of_the_town_puts_the_card_back(gf):
    state = gf.own(gf.new(FOUR), "ann", "takamawok-3")
    state["mayors"]["takamawok"] = "ann"
    gf.own(state, "bob", "takamawok-4")
    events.remove_concession(state, "takamawok-3")
    assert state["mayors"]["takamawok"] is None


def test_mayor_fee_counts_the_mayors_concessions_of_that_town_only(gf):
    state = gf.own(gf.new(FOUR), "ann", "cold-mountain-5", "cold-mountain-7", "cold-mountain-8", "takamawok-3")
    state = gf.play(gf.at_choice(state, "bob", OFFER), "take 1", "bob")
    assert state["gold"]["ann"] == 13


def test_mayor_outnumbered_by_two_tied_rivals_puts_the_maire_card_back_aside(gf):
    # ann became mayor first; bob and cid drew level with her, which keeps the incumbent
    state = gf.own(gf.new(), "ann", "cold-mountain-3", "cold-mountain-4")
    gf.own(state, "bob", "cold-mountain-5", "cold-mountain-7")
    gf.own(state, "cid", "cold-mountain-8", "cold-mountain-9")
    assert state["mayors"]["cold-mountain"] == "ann"
    # bob blows up one of ann's: 1 against 2 and 2; the card cannot stay with fewer, and neither rival has the most
    state = gf.play(gf.at_choice(state, "bob", ["dynamite-1", "new-london-2", "new-london-4"]), "take 1", "bob")
    state = gf.play(state, "dynamite cold-mountain-3", "bob")
    assert state["mayors"]["cold-mountain"] is None
    assert mayors.mayor_fee(state, "cold-mountain") == 0
    assert scoring.score_lines(state, "ann")["maires"] == 0
    # the first to have the most alone takes it: cid takes a third concession (paying no fee, there is no mayor)
    state = gf.at_choice(state, "cid", ["cold-mountain-10"], choosers=["cid"])
    state = gf.play(state, "take 1", "cid", dice=[(1, 1)])
    assert state["mayors"]["cold-mountain"] == "cid" and state["turn"]["fees"] == []
