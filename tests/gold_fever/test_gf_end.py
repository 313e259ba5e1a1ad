"""The final score (the French rules): gold + the nuggets on one's concessions + 5 per Maire card; the highest wins;
ruling: equal totals share the rank. The report shows the table and, at the end, the calculation."""
from pbem.games.gold_fever import scoring
from pbem.text import report


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
    assert scoring.score_lines(state, "bob")["total"] == 10


def test_highest_total_wins(gf):
    state = gf.own(gf.new(), "cid", "san-narciso-9")
    ranking = gf.rules.result(over(gf, state))
    assert [(line["player"], line["rank"]) for line in ranking][0] == ("cid", 1)


def test_tied_scores_share_the_rank(gf):
    state = gf.own(gf.new(), "cid", "san-narciso-9")
    state["gold"]["bob"] = 17
    ranking = gf.rules.result(over(gf, state))
    assert {line["player"]: line["rank"] for line in ranking} == {"bob": 1, "cid": 1, "ann": 3}


def test_final_report_shows_the_scoring_calculation_in_one_table(gf):
    state = over(gf, gf.own(gf.new(), "ann", "cold-mountain-3", "cold-mountain-4"))
    text = gf.game.report.render(gf.view(state, None), None)
    assert "The game is over." in text and "Final score" not in text  # the ranking below is the only score table
    parts = report.ranking(gf.rules.result(state)).split("\n\n")  # split in parts to fit 78 columns
    header = parts[0].splitlines()[0].split() + [w for part in parts[1:] for w in part.splitlines()[0].split()[2:]]
    assert header == ["rank", "player", "gold", "nuggets", "on", "concessions", "Maire", "cards", "points", "for",
                      "Maire", "cards", "(x5)", "score"]
    rows = [next(row for row in part.splitlines() if " ann " in row).split() for part in parts]
    assert rows[0] + [cell for row in rows[1:] for cell in row[2:]] == ["1", "ann", "10", "11", "1", "5", "26"]


def test_report_calls_the_mayor_a_mayor_in_every_table(gf):
    state = gf.own(gf.new(), "bob", "takamawok-3", "takamawok-4")
    text = gf.game.report.render(gf.view(state, None), None)
    players = text[text.index("Players"):text.index("Concessions by town")]
    towns = text[text.index("Towns"):]
    assert "mayor of" in players.splitlines()[1] and "mayor" in towns.splitlines()[1].split()
    assert "Maire of" not in text
    assert next(row for row in players.splitlines() if row.startswith("bob ")).split()[2] == "takamawok"


def test_report_shows_offer_bids_concessions_mayors_saloons_and_gold(gf):
    state = gf.own(gf.new(), "bob", "takamawok-3", "takamawok-4")
    state["saloons"]["cold-mountain-saloon-1"] = {"owner": "cid", "event": "saloon-1", "girls": None}
    state["saloon_supply"].remove("cold-mountain-saloon-1")
    state = gf.play(state, "bid 3", "ann")
    text = gf.game.report.render(gf.view(state, "ann"), "ann")
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
    text = gf.game.report.render(gf.view(state, "ann"), "ann")
    hidden = [card for card in state["deck"] if state["cards"][card]["type"] == "concession"]
    assert not any(f"{card} " in text or f"{card}\n" in text for card in hidden)
