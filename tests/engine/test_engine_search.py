"""The search bot (pbem.search) and the games' `unseen` modules: it decides from the seat's view alone, the same
way for the same seed and budget, from positions that are consistent with the view; its levels are checked.

Small budgets (search:4) keep these fast; the strength is measured by benchmarks/bots.py."""
from __future__ import annotations

import random

import pytest

from pbem.play import botmoves, levels, playout, search, turns
from pbem.store import registry
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.games.chartered.setup import sort_hand
from pbem.games.heartland_hauling.phases.common import sort_cards
from pbem.rng import Rng
from support import NAMES, Pbem, playable_games

BUDGET = "search:4"


def positions(game, players: int, seed: str, every: int = 9):
    """(state, player to act) every `every` decisions of seeded games of greedy bots (one after another, as many
    as the caller takes), at decisions with more than one legal move."""
    names = NAMES[:players]
    for game_number in range(50):
        game_id = f"{seed}-{game_number}"
        state = playout.start(game, names, seed=game_id, game_id=game_id)
        for number, (_, _, state) in enumerate(playout.steps(game, state, seed=game_id, game_id=game_id,
                                                             seats={name: "greedy" for name in names})):
            pending = game.rules.pending(state)
            if pending is None:
                break
            legal = game.rules.legal_moves(state, pending["player"])
            if number % every == 0 and turns.forced(pending, legal) is None:
                yield state, pending["player"]


def tables():
    """Each game the search can play (it has an unseen.py) at its smallest and largest table."""
    return [pytest.param(game, count, id=f"{game.id}-{count}") for game in playable_games()
            if game.unseen is not None for count in sorted({game.min_players, game.max_players})]


# ------------------------------------------------------------------------------- what each game hides, changed

def redeal(hands: dict[str, list], deck: list, seat: str, rnd, order=sorted) -> list:
    """The other hands and the deck dealt again from the same cards, each hand keeping its size (in the game's
    order of a hand): the new deck."""
    others = [p for p in hands if p != seat]
    pool = deck + [card for p in others for card in hands[p]]
    rnd.shuffle(pool)
    for p in others:
        count = len(hands[p])
        hands[p], pool = order(pool[:count]), pool[count:]
    return pool


def chartered_hidden(state, seat, rnd):
    """Other hands and the deck: the same cards dealt again among them, the same counts."""
    state["deck"] = redeal(state["hands"], state["deck"], seat, rnd, sort_hand)


def coal_baron_hidden(state, seat, rnd):
    """The others' money, the decks' order, the others' deliveries not shown yet swapped with orders of the deck."""
    rnd.shuffle(state["tile_deck"])
    for player, pit in state["pits"].items():
        if player != seat:
            pit["money"] += rnd.randint(1, 9)
            shown = pit["shown_at_scorings"][-1] if pit["shown_at_scorings"] else 0
            for index in range(shown, len(pit["delivered"])):
                if state["order_deck"]:
                    swap = rnd.randrange(len(state["order_deck"]))
                    pit["delivered"][index], state["order_deck"][swap] = state["order_deck"][swap], \
                        pit["delivered"][index]
    rnd.shuffle(state["order_deck"])


def gold_fever_hidden(state, seat, rnd):
    pool = state["deck"] + state["set_aside"]
    rnd.shuffle(pool)
    state["set_aside"], state["deck"] = pool[:len(state["set_aside"])], pool[len(state["set_aside"]):]


def heartland_hidden(state, seat, rnd):
    hands = {p: hauler["hand"] for p, hauler in state["haulers"].items()}
    state["deck"] = redeal(hands, state["deck"], seat, rnd, lambda cards: sort_cards(state, cards))
    for p, hand in hands.items():
        state["haulers"][p]["hand"] = hand


def summit_hidden(state, seat, rnd):
    state["deck"] = redeal(state["hands"], state["deck"], seat, rnd)


HIDDEN = {"chartered": chartered_hidden, "coal-baron": coal_baron_hidden, "gold-fever": gold_fever_hidden,
          "heartland-hauling": heartland_hidden, "summit-race": summit_hidden}


def hidden_changed(game, state: dict, seat: str, rnd) -> dict | None:
    """The position with what the seat cannot see changed: by hand for the games above, by the game's own
    unseen.py for another installed game (None where it does not rebuild the decision)."""
    if game.id in HIDDEN:
        other = search.copied(state)
        HIDDEN[game.id](other, seat, rnd)
        return other
    return search.imagine(game, game.rules.view(state, seat), game.own_components, rnd)


@pytest.mark.parametrize("game,count", tables())
def test_the_search_reads_only_the_view_two_positions_with_the_same_view_get_the_same_move(game, count):
    """Other hands, deck order and hidden money changed: the seat's view is the same, so is the move (same seed,
    same budget). The positions are taken where the hidden parts differ and the search weighs several moves."""
    compared = 0
    for state, seat in positions(game, count, f"search-view-{count}"):
        other = hidden_changed(game, state, seat, random.Random(compared))
        if other is None:
            continue
        view = game.rules.view(state, seat)
        assert game.rules.view(other, seat) == view
        legal = game.rules.legal_moves(state, seat)
        moves = [levels.decide(game, BUDGET, game.rules.view(position, seat), legal, random.Random(7))
                 for position in (state, other)]
        assert moves[0] == moves[1], (seat, view["to_act"])
        compared += other != state
        if compared >= 2:
            break
    assert compared >= 2


@pytest.mark.parametrize("game,count", tables())
def test_the_positions_the_search_imagines_show_the_seat_its_own_view_and_the_same_legal_moves(game, count):
    """unseen.sample_state: the imagined position's view for the seat is the view it was made from, and the seat
    may make the same moves there; different generators imagine different positions."""
    components = game.default_components()
    checked, differ = 0, 0
    for state, seat in positions(game, count, f"search-unseen-{count}", every=3):
        view = game.rules.view(state, seat)
        imagined = [search.imagine(game, view, components, random.Random(seed)) for seed in (1, 2)]
        if imagined[0] is None:  # a decision whose frames the view does not show: the search plays greedy there
            continue
        for position in imagined:
            assert game.rules.view(position, seat) == view
            assert game.rules.legal_moves(position, seat) == game.rules.legal_moves(state, seat)
        checked += 1
        differ += imagined[0] != imagined[1]
        if checked == 12:
            break
    assert checked == 12 and differ >= 6


@pytest.mark.parametrize("game", [game for game in playable_games() if game.unseen is not None],
                         ids=lambda game: game.id)
def test_the_search_is_deterministic_for_a_seed_and_a_budget_and_plays_a_legal_move(game):
    for state, seat in positions(game, game.min_players, "search-again"):
        view, legal = game.rules.view(state, seat), game.rules.legal_moves(state, seat)
        first = levels.decide(game, BUDGET, view, legal, random.Random(3))
        assert first == levels.decide(game, BUDGET, view, legal, random.Random(3))
        assert game.rules.apply(search.copied(state), seat, first, Rng("s", "s", 1)) is not None
        break


CHEAP = ("coal-baron", "summit-race")  # whole games by a search seat in a second or two; the others are `slow`


@pytest.mark.parametrize("game", [pytest.param(game, marks=() if game.id in CHEAP else pytest.mark.slow)
                                  for game in playable_games()], ids=lambda game: game.id)
def test_a_search_seat_plays_a_whole_game_to_its_end(game):
    """(benchmarks/bots.py plays hundreds, every seat searching too)"""
    names = NAMES[:game.min_players]
    state = playout.play(game, names, seed="search-ends", seats={names[0]: BUDGET, names[1]: "greedy"})
    assert game.rules.pending(state) is None


# ------------------------------------------------------------------------------- levels

@pytest.mark.parametrize("text,level", [("random", "random"), ("greedy", "greedy"), ("search", "search"),
                                        ("search:200", "search:200"), (" Search:7 ", "search:7")])
def test_a_bot_level_is_random_greedy_or_search_with_a_budget(text, level):
    assert str(levels.parse_level(text)) == level


@pytest.mark.parametrize("text", ["clever", "search:0", "search:-3", "search:x", "greedy:5", "search:", "",
                                  f"search:{levels.MAX_BUDGET + 1}"])
def test_an_unknown_level_or_a_budget_below_1_is_refused_with_the_levels_named(text):
    with pytest.raises(PbemError) as refused:
        levels.parse_level(text)
    assert refused.value.exit_code == 2
    assert "search" in str(refused.value)


def test_search_alone_plays_the_budget_the_game_declares_and_names_it():
    game = registry.get("chartered")
    assert str(levels.parse_level("search").played(game)) == f"search:{game.meta['search']['budget']}"
    assert str(levels.parse_level("search:9").played(game)) == "search:9"


def with_search_version(game, version: int):
    """The game as if its meta.yaml said `search: {version: N}` (its own search changed, the others' did not)."""
    return registry.Game(game.id, game.module, {**game.meta, "search": {**game.meta["search"], "version": version}})


def test_a_games_own_search_version_is_the_one_its_bot_moves_record_and_verify_checks():
    chartered = registry.get("chartered")
    game = with_search_version(chartered, search.VERSION + 1)
    assert search.version(game) == search.VERSION + 1
    assert search.version(registry.get("heartland-hauling")) == search.VERSION  # no version of its own: the search's
    entry = botmoves.signed(game, {"number": 7, "player": "ann"}, "search:4")
    assert entry["search_version"] == search.VERSION + 1 and entry["bot_version"] == game.bot_version
    assert botmoves.remade_by_this_pbem(game, entry)
    older = dict(entry, search_version=search.VERSION)  # made before the game's search changed
    assert not botmoves.remade_by_this_pbem(game, older)
    assert f"search version {search.VERSION} and this pbem's {search.VERSION + 1}" in \
        botmoves.not_remade_note(game, older, timeout=False)
    assert botmoves.remade_by_this_pbem(chartered, older)  # the other titles' moves are remade as before


def test_a_game_without_an_unseen_module_plays_its_search_seats_greedy():
    """A plug-in written before the search: its search level plays the greedy bot's move, never fails."""
    game = registry.get("coal-baron")
    stripped = registry.Game(game.id, game.module, game.meta)
    stripped.__dict__["unseen"] = None
    assert str(levels.parse_level("search:50").played(stripped)) == "greedy"
    state, seat = next(positions(game, 2, "no-unseen"))
    view, legal = game.rules.view(state, seat), game.rules.legal_moves(state, seat)
    assert levels.decide(stripped, "search:50", view, legal, random.Random(1)) == \
        levels.decide(game, "greedy", view, legal, random.Random(1))


def test_the_organiser_is_told_when_a_game_cannot_be_searched_and_its_greedy_bot_plays_instead(tmp_path, monkeypatch):
    game = registry.get("coal-baron")
    monkeypatch.setitem(game.__dict__, "unseen", None)  # a plug-in written before the search
    result = Pbem()("new", "coal-baron", tmp_path / "g1", "--player", "ann", "--player", "bob", "--bot", "bob=search")
    assert result.code == 0, result.err
    assert "note: Coal Baron cannot be searched (the game has no unseen.py)" in result.err
    assert engine.load_state(engine.open_game(tmp_path / "g1"))["bots"] == {"bob": "greedy"}


def test_a_demo_plays_each_seat_at_its_own_level_the_game_the_same_seats_play_in_memory(tmp_path):
    """`pbem demo --bots search:2,greedy`: one level a seat, in seat order, through the referee."""
    from pbem.cli import demo
    game, directory = registry.get("coal-baron"), tmp_path / "demo-levels"
    final = demo.run(game.id, None, "levels", {}, directory, 0, lambda *_: None, bot=["search:2", "greedy"])
    assert final["finished"]
    stored = engine.load_state(engine.open_game(directory))["state"]
    table = {"seed": "levels", "bot_seed": "levels", "game_id": directory.name}
    assert stored == playout.play(game, NAMES[:2], seats={"alice": "search:2", "bob": "greedy"}, **table)
    assert stored != playout.play(game, NAMES[:2], seats={"alice": "greedy", "bob": "greedy"}, **table)
