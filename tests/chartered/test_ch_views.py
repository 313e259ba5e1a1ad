"""What each player sees (hands private, deck order hidden, market public), the report drawn from a view, and the
phrase that says what each legal move does."""
from __future__ import annotations

from pbem.games.chartered import report
from pbem.text import language


def mid_game(t):
    """Ann holds 8 (expands gold), 5 (founds), 14 (dead) and a level-2; gold 1-2-7 worth 40; tea on 19-25-31."""
    state = t.empty_hands(t.new(2))
    t.company(state, "gold", {1: 1, 2: 1, 7: 2}, hq=1, shares={"ann": 2}, flag="bob")
    t.company(state, "tea", {19: 1, 25: 1, 31: 1}, hq=25, value=60, shares={"bob": 1})
    t.give(state, "ann", "8", "5", "14", "level-2")
    t.give(state, "bob", "30", "31")
    return state


def test_a_hand_is_seen_by_its_owner_the_others_see_its_size(t):
    state = mid_game(t)
    mine, theirs, public = (t.view(state, "ann"), t.view(state, "bob"), t.view(state, None))
    assert mine["private"] == {"player": "ann", "hand": ["5", "8", "14", "level-2"]}
    assert theirs["private"] == {"player": "bob", "hand": ["30", "31"]}
    assert "private" not in public
    assert [(p["name"], p["cards"]) for p in public["players"]] == [("ann", 4), ("bob", 2)]
    assert "level-2" not in str(theirs) and "level-2" not in str(public)


def test_the_deck_order_is_hidden_its_size_and_the_market_are_public(t):
    state = mid_game(t)
    for viewer in (None, "ann"):
        view = t.view(state, viewer)
        assert view["deck_count"] == len(state["deck"]) and view["market"] == state["market"]
        assert "deck" not in view and str(state["deck"][:8]) not in str(view)


def test_money_shares_and_flags_are_public(t):
    public = t.view(mid_game(t), None)
    ann = public["players"][0]
    assert (ann["money"], ann["shares"], ann["flags"]) == (600, {"gold": 2}, [])
    gold = next(c for c in public["companies"] if c["id"] == "gold")
    assert (gold["value"], gold["price"], gold["holders"], gold["flag"]) == (40, 10, {"ann": 2}, "bob")


def test_the_report_draws_the_board_as_a_map_of_plots(t):
    """Plot, company and floors, `*` on the headquarters, `+` where a company may be founded; `-` and `|` join
    the plots that touch (none across a canal: 2 and 3 do not touch, nor 8 and 9)."""
    text = report.render(t.view(mid_game(t), None), None)
    lines = text.splitlines()
    top = lines.index(next(line for line in lines if line.startswith(" 1 ")))
    assert lines[top:top + 4] == [
        " 1 GLD1* -  2 GLD1     3 +     -  4 +     -  5 +     -  6 +",
        " |          |          |          |          |          |",
        " 7 GLD2  -  8          9 +     - 10 +       11 +     - 12 +",
        " |          |          |          |          |          |"]
    assert "19 TEA1  - 20" in text and "25 TEA1* - 26" in text


def report_line(text, first_word):
    return next(line.split() for line in text.splitlines() if line.split()[:1] == [first_word])


def test_the_report_shows_companies_stock_board_players_and_market(t):
    state = mid_game(t)
    text = report.render(t.view(state, None), None)
    # the companies' table is split in two to fit 78 columns, each part naming the companies
    assert [line.split() for line in text.splitlines() if line.split()[:1] == ["GLD"]][:2] == [
        ["GLD", "Goud", "Compagnie", "gold", "40", "10", "(buy", "50)", "7"], ["GLD", "ann", "2", "bob", "1", "3"]]
    assert [line.split() for line in text.splitlines() if line.split()[:1] == ["COF"]][1] == ["COF", "free", "to", "found"]
    assert report_line(text, "value") == ["value", "share", "price", "companies"]  # the stock board, a row a step
    assert report_line(text, "30") == ["30", "10", "GLD"] and report_line(text, "60") == ["60", "20", "TEA"]
    assert report_line(text, "90") == ["90", "30"]                 # gold on the step of 30, tea on 60
    assert report_line(text, "ann") == ["ann", "600", "4", "GLD", "2", "200"]
    assert report_line(text, "bob") == ["bob", "600", "2", "TEA", "1", "GLD", "400"]
    assert f"Market: {', '.join(state['market'])}" in text
    assert "Your hand" not in text
    assert f"Deck: {len(state['deck'])} cards." in text


def test_the_last_card_of_the_deck_is_one_card_in_every_language(t):
    state = mid_game(t)
    state["deck"] = state["deck"][:1]
    assert "Deck: 1 card." in report.render(t.view(state, None), None)
    with language.reading("fr"):
        assert "Pioche : 1 carte." in report.render(t.view(state, None), None)


def test_the_report_shows_the_viewer_their_own_hand_with_what_each_card_does(t):
    text = report.render(t.view(mid_game(t), "ann"), "ann")
    assert "Your hand (4 cards):" in text
    assert "  8: expands GLD to 50, you get 50" in text
    assert "  14: cannot be played now" in text
    assert "  5: founds a company at 30 + 1 share, you get 30" in text
    assert "  level-2: a 2nd floor on a plot you choose" in text


def describe_all(t, state):
    view = t.view(state, t.to_act(state))
    return {t.game.format_move(move): report.describe(view, move) for move in t.legal(state)}


def test_each_move_says_what_it_does(t):
    state = mid_game(t)
    phrases = describe_all(t, state)
    assert phrases["build 8"] == "8: expands GLD to 50, you get 50"
    assert phrases["build 5"] == "5: founds a company at 30 + 1 share, you get 30"
    assert phrases["raise (any 1 of 1 2 19 25 31)"] == "level-2 card: a 2nd floor on one of 5 plots, +10 to its company"
    assert phrases["buy deck"] == f"the top card of the deck for 50 ({len(state['deck'])} left)"
    assert phrases["refresh"] == "pay 50 for 5 new market cards, then buy one"
    assert all(len(text) <= 70 for text in phrases.values())


def test_moves_after_building_say_what_they_cost_and_bring(t):
    state = t.play(mid_game(t), "build 8")
    phrases = describe_all(t, state)
    assert phrases["done"] == ""
    assert phrases["buy share (any 1..2 of gold gold tea tea)"] == "up to 2 shares at: GLD 50, TEA 50"
    assert phrases["sell share (any 1..2 of gold gold)"] == "up to 2 shares to the bank at: GLD 10"
    state["companies"]["gold"]["flag"] = None
    assert describe_all(t, state)["buy flag"] == "your 1st flag, on GLD, for 200: worth 4 x 10 now"


def test_founding_and_merger_moves_say_what_they_do(t):
    state = t.play(mid_game(t), "build 5")
    assert describe_all(t, state)["found coffee (any 2 of 4 6 11)"] == "Koffie Compagnie (coffee) on 5: 30, 1 free share"
    state = mid_game(t)
    state["companies"]["gold"]["value"] = 60
    t.give(state, "ann", "13")
    assert describe_all(t, state)["build 13"] == "13: merges GLD 60 + TEA 60 into 130, you get 130"
    state = t.play(state, "build 13")
    assert describe_all(t, state) == {"survivor gold": "GLD survives; TEA shares paid 20",
                                      "survivor tea": "TEA survives; GLD shares paid 20"}


def test_a_market_card_says_what_it_would_do_for_the_buyer(t):
    state = mid_game(t)
    state["market"][0] = "13"
    assert describe_all(t, state)["buy 13"] == "for 50: 13: merges GLD 40 + TEA 60 into 110, you get 110"


def test_every_legal_move_of_a_random_game_has_a_short_phrase(t):
    """Every entry of every decision of whole random games (2 and 6 players), described from the mover's view."""
    from pbem.play import playout
    for players, seed in ((2, "p2"), (6, "p6")):
        state = playout.start(t.game, ["ann", "bob", "cid", "dee", "eve", "fay"][:players], seed=seed)
        for _, _, state in playout.steps(t.game, state, seed=seed):
            if t.rules.pending(state) is None:
                break
            view = t.view(state, t.to_act(state))
            for move in t.legal(state):
                phrase = report.describe(view, move)
                assert isinstance(phrase, str) and len(phrase) <= 70, (move, phrase)
                assert phrase or move["action"] in ("done", "pass")
