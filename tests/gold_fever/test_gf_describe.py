"""Each legal move says what it does (report.describe, from the mover's view only): the card `take` takes and the
mayor's fee it costs, what a bid is against, what an event's target is."""
import pytest

from pbem.text import language
from support import described_actions

FILLER = ["new-london-2", "new-london-4"]


def event_for(gf, state, card):
    """ann takes the event `card` and must now aim it."""
    return gf.play(gf.at_choice(state, "ann", [card] + FILLER), "take 1", "ann")


def describe(gf, state, text):
    player = gf.decision(state)[0]
    entries = {gf.game.format_move(m): m for m in gf.legal(state, player)}
    assert text in entries, sorted(entries)
    return gf.game.report.describe(gf.view(state, player), entries[text])


def test_take_says_the_concession_and_the_mayors_fee(gf):
    state = gf.own(gf.new(), "bob", "cold-mountain-5", "cold-mountain-7")  # bob mayor of Cold Mountain, fee 2
    state = gf.at_choice(state, "ann", ["cold-mountain-9", "new-london-2", "stagecoach-robbery-1"])
    assert describe(gf, state, "take 1") == "Cold Mountain 9, 3 nuggets; pay mayor bob 2"
    assert describe(gf, state, "take 2") == "New London 2, 6 nuggets"
    # an event by its name in the reader's words, as the picture names it (the printed name is the French one)
    assert describe(gf, state, "take 3") == "Stagecoach robbery: take 10 from the bank"


def test_bid_says_whom_it_outbids_and_the_gold_at_hand(gf):
    state = gf.new()
    assert describe(gf, state, "bid 1..10") == "open the auction (you hold 10): the winner chooses first and rolls"
    state = gf.play(state, "bid 4", "ann")
    assert describe(gf, state, "bid 5..10") == "outbid ann's 4 (you hold 10); paid down the table"
    with language.reading("fr"):  # (not «les 1 d'ann»: the bid, whatever it is, is what ann offers)
        assert describe(gf, state, "bid 5..10") == "surenchérir sur ann, qui offre 4 (vous avez 10) ; payé de " \
                                                   "voisin en voisin"
    assert describe(gf, state, "pass") == "out of this auction"


def test_dynamite_names_each_target_and_whose_it_is(gf):
    state = gf.own(gf.new(), "bob", "cold-mountain-3", "cold-mountain-4")
    gf.own(state, "cid", "cold-mountain-9", "takamawok-5", "san-narciso-6")
    state["saloons"]["cold-mountain-saloon-1"] = {"owner": "cid", "event": "saloon-1", "girls": None}
    state["saloon_supply"].remove("cold-mountain-saloon-1")
    state = event_for(gf, state, "dynamite-1")
    assert describe(gf, state, "dynamite takamawok-5") == "blow up cid's Takamawok 5 (5 nuggets)"
    assert describe(gf, state, "dynamite san-narciso-6") == "blow up cid's San Narciso 6 (1 nugget)"
    with language.reading("fr"):
        assert describe(gf, state, "dynamite san-narciso-6").endswith("San Narciso 6 de cid (1 pépite)")
    choice = next(gf.game.format_move(m) for m in gf.legal(state, "ann") if isinstance(m["target"], dict))
    assert describe(gf, state, choice) == "blow up one in Cold Mountain: bob 3, 4; cid 9, saloon"


def test_expropriation_says_the_mayors_fee(gf):
    state = gf.own(gf.new(), "ann", "cold-mountain-3")
    gf.own(state, "bob", "cold-mountain-5", "cold-mountain-7")
    state = event_for(gf, state, "expropriation-1")
    assert describe(gf, state, "expropriate (any 1 of cold-mountain-5 cold-mountain-7)") == \
        "take one in Cold Mountain: bob 5, 7; pay mayor bob 2"


def test_lasting_events_say_what_they_will_pay(gf):
    state = event_for(gf, gf.new(), "saloon-1")
    assert describe(gf, state, "saloon takamawok") == \
        "others' concessions in Takamawok pay you 2 each time they produce"
    state = gf.own(gf.new(), "ann", "takamawok-10", "takamawok-12")
    state = event_for(gf, state, "new-vein-1")
    assert describe(gf, state, "vein (any 1 of takamawok-10 takamawok-12)") == \
        "one of your Takamawok 10, 12 yields 3 more"


def test_telegraph_says_what_the_roll_becomes(gf):
    state = gf.hold(gf.new(), "bob", "telegraph-1")
    state = gf.take_remaining(gf.at_choice(state, "ann", ["new-london-2", "new-london-4", "new-london-5"]),
                              [(3, 4)])
    assert gf.decision(state) == ("bob", "send_telegraph")
    assert describe(gf, state, "telegraph 1 4..6") == "die 1 shows 3: the roll becomes 8..10 (now 7)"
    assert describe(gf, state, "pass") == "keep the Telegraph; the roll stays 3 + 4 = 7"


@pytest.mark.parametrize("players", [3, 5])
def test_every_legal_move_of_a_random_game_has_a_short_description(gf, players):
    described = described_actions(gf.game, ["ann", "bob", "cid", "dee", "eve"][:players], {}, f"describe-{players}")
    assert {"bid", "pass", "take"} <= described
