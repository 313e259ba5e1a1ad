"""The report: the map drawn as a grid from a view, public things for everyone, a hand for its owner only; and
the short description of every legal move, built from the mover's view."""
from __future__ import annotations

from pbem.games.heartland_hauling import report
from pbem.play import playout
from pbem.store import registry
from pbem.text import language

GAME = registry.get("heartland-hauling")


def position(t):
    state = t.every_upgrade(t.lay_map(t.started(2, {"truck-stops": "on", "alternate-routes": "on"}), t.SMALL))
    state["map"]["alternate"] = ["midville"]
    state["components"]["locations"]["midville"]["alternate"] = {"w": "closed", "s": "toll"}
    state["truck_stops"] = [{"upgrade": "forklift", "cell": "a2", "bought_by": None}]
    t.truck(state, "alice", cell="b2", money=7, hand=["fuel-2", "corn", "pigs"], cargo={"pigs": 2})
    t.truck(state, "bob", cell="d3", money=12, hand=["cattle", "cattle"])
    return t.begin(state, "alice")


def test_the_map_is_drawn_as_a_grid_with_goods_crates_demands_trucks_roads_and_truck_stops(t):
    text = report.render(t.view(position(t), None), None)
    lines = text.splitlines()
    assert any(line.startswith(" 2 |STOP $4      |Eureka") for line in lines)  # row 2: the stop, then Eureka
    assert "|Forklift     |" in text
    assert "*so5" in text and "pi$3 ca$4" in text  # Eureka: 5 native soybeans; wants pigs $3, cattle $4
    assert "Midville ^" in text and "XMidville" in text.replace("|", "")  # alternate side, closed west edge
    assert "$" * 13 in text  # the toll road on Midville's south edge
    assert any("alice" in line and line.startswith("   |") for line in lines)  # alice's truck in Eureka's box
    assert "West Morgan" in text and "(centre)" in text


def test_money_cargo_and_face_up_cards_are_public_hands_only_counted(t):
    state = position(t)
    public = report.render(t.view(state, None), None)
    assert "$7" in public and "pigs 2 (2/8)" in public and "Face up:" in public
    assert "Your hand" not in public
    mine = report.render(t.view(state, "alice"), "alice")
    assert "Your hand (alice): fuel-2, corn, pigs" in mine
    bobs = report.render(t.view(state, "bob"), "bob")
    assert "fuel-2, corn, pigs" not in bobs and "Your hand (bob): cattle, cattle" in bobs


def test_every_legal_move_has_a_short_description_and_every_position_a_report(t):
    """Over whole games: every entry of every decision is described in at most 70 characters, and the mover's
    report renders with their hand and nobody else's."""
    for count, options in ((2, {"truck-stops": "on", "alternate-routes": "on"}), (3, {})):
        players = ["alice", "bob", "carol"][:count]
        state = playout.start(GAME, players, options, seed="describe")
        for _, _, state in playout.steps(GAME, state, seed="describe", bot_seed=1):
            pending = GAME.rules.pending(state)
            if pending is None:
                break
            view = GAME.rules.view(state, pending["player"])
            text = report.render(view, pending["player"])
            assert f"Your hand ({pending['player']})" in text and text.count("Your hand") == 1
            for entry in GAME.rules.legal_moves(state, pending["player"]):
                text = report.describe(view, entry)
                assert len(text) <= 70, (GAME.format_move(entry), text)


def test_descriptions_say_what_a_move_costs_and_gains(t):
    state = position(t)
    view = t.view(state, "alice")
    assert report.describe(view, GAME.parse_move("move s")) == "to Flint (b3), 1 space"
    assert report.describe(view, GAME.parse_move("move w")) == "to truck stop Forklift (a2), 1 space"
    state = t.play(state, "move s s")
    view = t.view(state, "alice")
    assert report.describe(view, GAME.parse_move("pay fuel-2")) == "fuel worth 2 spaces"
    assert report.describe(view, GAME.parse_move("pay cash")) == "$2 for 2 spaces"
    t.truck(state, "alice", cell="d2", hand=["pigs", "pigs"])
    state = t.begin(state, "alice", phase="act")
    view = t.view(state, "alice")
    unload = next(m for m in t.legal(state) if m["action"] == "unload")
    assert report.describe(view, unload) == "$5 a crate, 1 pigs bill each; up to 2 crates, $10"
    t.truck(state, "alice", cell="d2", hand=["pigs"])
    view = t.view(state, "alice")
    unload = next(m for m in t.legal(state) if m["action"] == "unload")
    assert report.describe(view, unload) == "$5 a crate, 1 pigs bill each; up to 1 crate, $5"
    with language.reading("fr"):
        assert report.describe(view, unload) == "5 $ la caisse, 1 facture porcs chacune ; jusqu'à 1 caisse, 5 $"
    discard = next(m for m in t.legal(state) if m["action"] == "discard")
    assert report.describe(view, discard) == "any of your cards, for $1"


def test_a_description_is_built_from_the_view_alone(t):
    state = position(t)
    view = t.view(state, "alice")
    state["haulers"]["bob"]["hand"] = ["fuel-3"] * 5  # the state changes, the view does not: same words
    for entry in t.legal(state):
        assert report.describe(view, entry) == report.describe(t.view(position(t), "alice"), entry)


def test_every_location_to_place_is_printed_by_the_word_its_move_takes(t):
    """The map prints a location's name (Bedford Falls); the table of the locations still to place prints the id
    beside it (bedford-falls), the word `place` takes: no name the report prints for a choice is unwritable."""
    state = t.new(3)
    player = t.rules.pending(state)["player"]
    text = report.render(t.view(state, player), player)
    places = [move for move in t.rules.legal_moves(state, player) if move["action"] == "place"]
    assert places and all(f"\n{move['location']} " in text for move in places)
