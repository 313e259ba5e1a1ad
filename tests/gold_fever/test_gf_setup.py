"""Setup and the reveal of the lots (the French rules, first paragraphs), and the components file."""
from collections import Counter

import pytest

from click.testing import CliRunner

from pbem.cli.commands import cli
from pbem.games.gold_fever.phases import turn
from pbem.store import validation

# The French names of events that French reviews of the game give; every other French name is designed.
NAMED_IN_FRENCH_SOURCES = {"Saloon", "Dynamite", "Hold-up", "Mustang"}


def test_components_hold_45_concessions_15_events_5_maires_10_saloons(gf):
    state = gf.new()
    types = Counter(card["type"] for card in state["cards"].values())
    assert types["concession"] == 45 and types["event"] == 15 and types["saloon"] == 10
    assert len(state["mayors"]) == 5
    per_town = Counter(card["town"] for card in state["cards"].values() if card["type"] == "concession")
    assert set(per_town.values()) == {9}


def test_towns_carry_french_names_mapped_from_english_edition(gf):
    towns = {town["id"]: town["english"] for town in gf.new()["towns"]}
    assert towns == {"new-london": "Cactus Junction", "cold-mountain": "Cold Mountain",
                     "takamawok": "Coyote City", "whiskey-river": "Dry Gulch", "san-narciso": "San Narciso"}


def test_concession_ids_name_town_and_number_with_nuggets(gf):
    cards = gf.new()["cards"]
    assert cards["cold-mountain-6"] == {"type": "concession", "town": "cold-mountain", "number": 6, "nuggets": 9,
                                        "dangerous": True}
    assert cards["san-narciso-9"]["nuggets"] == 7


def test_maire_and_saloon_cards_are_kept_aside_not_in_deck(gf):
    state = gf.new()
    in_play = state["deck"] + state["turn"]["offer"]
    assert not any(state["cards"][card]["type"] == "saloon" for card in in_play)
    assert len(state["saloon_supply"]) == 10 and all(m is None for m in state["mayors"].values())
    assert len(in_play) == 60


def test_each_player_starts_with_10_gold(gf):
    assert gf.new(("ann", "bob", "cid", "dee"))["gold"] == {"ann": 10, "bob": 10, "cid": 10, "dee": 10}


def test_reveal_as_many_cards_as_players(gf):
    for players in (("a", "b", "c"), ("a", "b", "c", "d"), ("a", "b", "c", "d", "e")):
        state = gf.new(players)
        assert len(state["turn"]["offer"]) == len(players)
        assert len(state["deck"]) == 60 - len(players)


def test_first_turn_reveals_only_concessions_events_go_back_and_deck_reshuffled(gf):
    state_rng = gf.rng()
    state = gf.rules.setup(["ann", "bob", "cid"], gf.game.resolve_options({}), gf.game.default_components(),
                           state_rng)
    # scripted shuffles keep the order: concessions come first, so no event was drawn and nothing reshuffled
    assert [o["what"] for o in state_rng.outcomes] == ["deck shuffle", "first player"]
    deck = ["dynamite-1", "mustang-1", "cold-mountain-3", "holdup-1", "cold-mountain-4", "cold-mountain-5",
            "cold-mountain-7"]
    state["deck"], state["turn"] = list(deck), None
    rng = gf.rng()
    turn.start_turn(state, "ann", rng)
    assert state["turn"]["offer"] == ["cold-mountain-3", "cold-mountain-4", "cold-mountain-5"]
    assert sorted(state["deck"]) == sorted(["dynamite-1", "mustang-1", "holdup-1", "cold-mountain-7"])
    assert [o["what"] for o in rng.outcomes] == ["deck reshuffle (first turn)"]
    assert rng.outcomes[0]["public"] is False


def test_later_turns_reveal_events_too(gf):
    state = gf.new()
    state["deck"] = ["dynamite-1", "mustang-1", "cold-mountain-3", "holdup-1"]
    turn.start_turn(state, "ann", gf.rng())
    assert state["turn"]["number"] == 2
    assert state["turn"]["offer"] == ["dynamite-1", "mustang-1", "cold-mountain-3"]


def test_first_player_drawn_at_random_and_recorded_publicly(gf):
    rng = gf.rng()
    state = gf.rules.setup(["ann", "bob", "cid"], gf.game.resolve_options({}), gf.game.default_components(), rng)
    first = [o for o in rng.outcomes if o["what"] == "first player"]
    assert first == [{"what": "first player", "result": "ann", "public": True}]
    assert gf.decision(state) == ("ann", "bid_for_lot")
    assert gf.rules.pending(state)["fresh_info"] is True


def test_deck_shuffle_is_recorded_privately(gf):
    rng = gf.rng()
    gf.rules.setup(["ann", "bob", "cid"], gf.game.resolve_options({}), gf.game.default_components(), rng)
    assert rng.outcomes[0]["what"] == "deck shuffle" and rng.outcomes[0]["public"] is False


def test_short_game_removes_15_cards_unseen(gf):
    state = gf.new(options={"short-game": "on"})
    assert len(state["set_aside"]) == 15
    assert len(state["deck"]) + len(state["turn"]["offer"]) == 45
    view = gf.view(state, None)
    assert view["set_aside_count"] == 15 and "set_aside" not in view


def test_short_game_only_for_three_players(gf):
    import pytest
    from pbem.contract import PbemError
    with pytest.raises(PbemError, match="3 players"):
        gf.new(("a", "b", "c", "d"), options={"short-game": "on"})


def test_deck_order_is_hidden_from_public_and_player_views(gf):
    state = gf.new()
    for viewer in (None, "ann"):
        view = gf.view(state, viewer)
        assert "deck" not in view and view["deck_count"] == len(state["deck"])
        text = repr(view)
        hidden = [card for card in state["deck"] if state["cards"][card]["type"] == "concession"]
        assert not any(f"'{card}'" in text for card in hidden)


def test_gold_is_public(gf):
    view = gf.view(gf.new(), None)
    assert [p["gold"] for p in view["players"]] == [10, 10, 10]


def test_no_player_may_be_called_bank(gf):
    import pytest
    from pbem.contract import PbemError
    with pytest.raises(PbemError, match="bank"):
        gf.new(("ann", "bank", "cid"))


def test_every_event_entry_names_its_source_and_the_designed_copy_says_so(gf):
    events = gf.game.default_components()["events"]
    assert sum(event["count"] for event in events) == 15
    assert all(event.get("source") for event in events)
    holdup = next(event for event in events if event["kind"] == "holdup")
    assert holdup["count"] == 2 and "designed" in holdup["source"]


def test_a_clubs_components_govern_the_game(gf):
    components = gf.game.default_components()
    components["starting_gold"] = 12
    components["points_per_maire"] = 4
    robbery = next(event for event in components["events"] if event["kind"] == "stagecoach-robbery")
    robbery["gold"] = 8
    next(event for event in components["events"] if event["kind"] == "dynamite")["count"] = 1
    state = gf.new(components=components)
    assert state["gold"]["ann"] == 12 and state["points_per_maire"] == 4
    assert "dynamite-2" not in state["cards"] and len(state["deck"]) + 3 == 58
    state = gf.play(gf.at_choice(state, "ann", ["stagecoach-robbery-1", "new-london-2", "new-london-4"]),
                    "take 1", "ann")
    assert state["gold"]["ann"] == 20


def test_event_names_no_source_gives_are_marked_designed(gf):
    for event in gf.game.default_components()["events"]:
        if event["name"] not in NAMED_IN_FRENCH_SOURCES:
            assert "French name: designed" in event["source"], event["name"]


@pytest.mark.parametrize("unread", [
    lambda c: c.update(maire_cards_per_town=1),  # one mayorship per town is the rule, not a number to change
    lambda c: c["towns"][0].update(colour="green"),  # the English town colours: nothing in the game uses them
    lambda c: c.update(bank="unlimited"),  # the bank never runs dry: a ruling, not data
], ids=["maire_cards_per_town", "town colour", "bank"])
def test_components_file_has_no_field_the_rules_never_read(gf, unread):
    components = gf.game.default_components()
    assert validation.is_valid("gold-fever", validation.game_name("components"), components)
    unread(components)
    assert not validation.is_valid("gold-fever", validation.game_name("components"), components)


def test_pbem_games_explains_each_option_on_its_own_line(gf):
    text = CliRunner().invoke(cli, ["games"]).output
    table = text.split("\n\n")[0]
    assert max(len(line) for line in table.splitlines()) <= 100  # the table stays readable
    options = text[text.index("gold-fever options"):]
    rows = options.splitlines()
    for key, spec in gf.game.meta["options"].items():
        at = next(i for i, row in enumerate(rows) if row.startswith(f"  {key}="))
        assert rows[at] == f"  {key}=off|on (default off)"
        explained = []
        for row in rows[at + 1:]:
            if not row.startswith(" " * 6):
                break
            explained.append(row.strip())
        assert " ".join(explained) == spec["help"]
