"""The final score (the French rules): gold + the nuggets on one's concessions + 5 per Maire card; the highest wins;
ruling: equal totals share the rank. The report shows the table and, at the end, the calculation."""


def over(gf, state):
    state["phase"], state["stack"] = "over", []
    return state


def test_score_is_gold_plus_nuggets_plus_5_per_maire(gf):
    state = gf.own(gf.new(), "ann", "cold-mountain-3", "cold-mountain-4")
    state["gold"]["ann"] = 12
    assert state["mayors"]["cold-mountain"] == "ann"
    ranking = gf.rules.result(over(gf, state))
    assert ranking[0] == {"player": "ann", "score": 12 + 5 + 6 + 5, "rank": 1, "details": {
        "gold": 12, "nuggets on concessions": 11, "Maire cards": 1, "points for Maire cards (x5)": 5}}


def test_saloons_and_kept_events_score_nothing(gf):
    state = gf.hold(gf.new(), "bob", "telegraph-1", "governor-1")
    state["saloons"]["takamawok-saloon-1"] = {"owner": "bob", "event": "saloon-1", "girls": None}
    assert gf.rules.score_lines(state, "bob")["total"] == 10


def test_highest_total_wins(gf):
    state = gf.own(gf.new(), "cid", "san-narciso-9")
    ranking = gf.rules.result(over(gf, state))
    assert [(line["player"], line["rank"]) for line in ranking][0] == ("cid", 1)


def test_tied_scores_share_the_rank(gf):
    state = gf.own(gf.new(), "cid", "san-narciso-9")
    state["gold"]["bob"] = 17
    ranking = gf.rules.result(over(gf, state))
    assert {line["player"]: line["rank"] for line in ranking} == {"bob": 1, "cid": 1, "ann": 3}


def test_final_report_shows_the_scoring_calculation(gf):
    state = over(gf, gf.own(gf.new(), "ann", "cold-mountain-3", "cold-mountain-4"))
    text = gf.game.report.render(gf.rules.view(state, None), None)
    assert "The game is over." in text and "Final score: gold + nuggets + 5 per Maire card" in text
    line = next(row for row in text.splitlines() if " ann " in f" {row} " and "x 5" in row)
    assert line.split()[-1] == "26" and "1 x 5 = 5" in line and "11" in line.split()


def test_report_shows_offer_bids_concessions_mayors_saloons_and_gold(gf):
    state = gf.own(gf.new(), "bob", "takamawok-3", "takamawok-4")
    state["saloons"]["cold-mountain-saloon-1"] = {"owner": "cid", "event": "saloon-1", "girls": None}
    state["saloon_supply"].remove("cold-mountain-saloon-1")
    state = gf.play(state, "ann", "bid 3")
    text = gf.game.report.render(gf.rules.view(state, "ann"), "ann")
    assert "Cards on offer" in text and "new-london-2 (number 2, 6 nuggets)" in text
    assert "Bids so far: ann bids 3" in text
    assert "To act: bob (bid or pass)" in text
    towns = next(row for row in text.splitlines() if row.startswith("takamawok "))
    assert "bob" in towns.split()  # the mayor
    concessions = next(row for row in text.splitlines() if row.startswith("bob ") and "3:1" in row)
    assert "4:3" in concessions
    assert "cold-mountain-saloon-1 (2)" in text
    gold = next(row for row in text.splitlines() if row.startswith("ann ") and "cold" not in row)
    assert gold.split()[1] == "10"


def test_report_never_names_a_card_of_the_hidden_deck(gf):
    state = gf.new()
    text = gf.game.report.render(gf.rules.view(state, "ann"), "ann")
    hidden = [card for card in state["deck"] if state["cards"][card]["type"] == "concession"]
    assert not any(f"{card} " in text or f"{card}\n" in text for card in hidden)
