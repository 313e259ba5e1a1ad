"""Random play-outs by the bot: every game finishes, no gold appears or vanishes (the bank's ledger included),
every state and view fits its schema, moves survive the notation round trip, and the same seed gives the same
game with the same recorded dice."""
import copy
import json
import random
import re
from importlib import resources

import pytest
from jsonschema import Draft202012Validator

from pbem import bots, notation
from pbem.play import playout
from pbem.rng import Rng
from pbem.store import registry
from support import MOST_ENTRIES, assert_fits, random_decisions

GAME = registry.get("gold-fever")
NAMES = ["ann", "bob", "cid", "dee", "eve"]  # lowercase, as pbem names seats (the base schema says so)
SCHEMAS = ("state", "public-view", "player-view", "components")


def schema(name):
    return json.loads(resources.files("pbem.games.gold_fever").joinpath(f"schemas/{name}.schema.json").read_text())


def assert_valid(name, data, thorough=True):
    """Valid for pbem's compiled check and (thorough) for jsonschema too, over the schemas as pbem resolves them
    (the game's and pbem's base)."""
    assert_fits(GAME.id, name, data, thorough)


@pytest.mark.parametrize("name", SCHEMAS)
def test_schemas_are_valid_draft_2020_12_without_id(name):
    document = schema(name)
    Draft202012Validator.check_schema(document)
    assert "$id" not in document
    # references: the schema's own $defs, pbem's base and (the player's view) the public view it extends
    outside = {ref.split("#")[0] for ref in re.findall(r'"\$ref": "([^"]*)"', json.dumps(document))} - {""}
    assert outside <= {"base.schema.json", "game-public-view.schema.json"}


def test_default_components_fit_their_schema():
    assert_valid("components", GAME.default_components())


def test_public_view_schema_declares_no_private_field():
    declared = json.dumps(schema("public-view"))
    assert '"deck"' not in declared and '"set_aside"' not in declared and '"stack"' not in declared


def money(state):
    return sum(state["gold"].values()) + state["bank"]["taken_in"] - state["bank"]["paid_out"]


def outnumbered_mayors(state):
    """Towns whose Maire card lies with a player who has fewer concessions there than another player."""
    def count(player, town):
        return sum(1 for cid, owner in state["owners"].items()
                   if owner == player and state["cards"][cid]["town"] == town)
    return [town for town, mayor in state["mayors"].items() if mayor is not None
            and any(count(other, town) > count(mayor, town) for other in state["players"])]


CASES = [(n, {}, seed) for n in (3, 4, 5) for seed in range(6)] + [
    (3, {"short-game": "on"}, seed) for seed in range(3)] + [
    (3, {"bank-takes-the-rest": "on"}, seed) for seed in range(2)] + [
    (n, {"dangerous-mines": "on"}, seed) for n in (3, 5) for seed in range(3)]


@pytest.mark.parametrize("players,options,seed", CASES)
def test_random_playout_finishes_with_gold_conserved_and_schema_valid_views(players, options, seed):
    names = NAMES[:players]
    state = playout.start(GAME, names, options, seed=f"s{seed}")
    start = money(state)
    assert start == 10 * players
    for number, (player, move, state) in enumerate(playout.steps(GAME, state, seed=f"s{seed}", bot_seed=seed)):
        assert money(state) == start, f"gold not conserved after {GAME.format_move(move)}"
        assert all(gold >= 0 for gold in state["gold"].values())
        assert not outnumbered_mayors(state), f"after {GAME.format_move(move)}"
        if number % 5 == 0:  # jsonschema (tens of times slower than the compiled check) agrees every 25th move
            thorough = number % 25 == 0
            assert_valid("state", state, thorough)
            assert_valid("public-view", GAME.rules.view(state, None), thorough)
            assert_valid("player-view", GAME.rules.view(state, player), thorough)
    assert GAME.rules.pending(state) is None
    assert_valid("state", state)
    for viewer in [None, *names]:
        view = GAME.rules.view(state, viewer)
        assert_valid("player-view" if viewer else "public-view", view)
        GAME.report.render(view, viewer)
    ranking = GAME.rules.result(state)
    assert sorted(line["player"] for line in ranking) == sorted(names)
    for line in ranking:  # the details add up to the score: gold + nuggets + 5 per Maire card
        details = line["details"]
        assert line["score"] == details["gold"] + details["nuggets on concessions"] + 5 * details["Maire cards"]
    assert min(line["rank"] for line in ranking) == 1


CEILING_CASES = [(n, {}) for n in (3, 4, 5)] + [(n, {"dangerous-mines": "on"}) for n in (3, 4, 5)] + [
    (3, {"short-game": "on", "bank-takes-the-rest": "on"})]


@pytest.mark.parametrize("players,options", CEILING_CASES,
                         ids=[f"{n}p-{'-'.join(o) or 'base'}" for n, o in CEILING_CASES])
def test_no_decision_of_a_random_game_lists_more_than_40_lines_of_moves(players, options):
    decisions = random_decisions(GAME, NAMES[:players], options, f"ceiling-{players}-{len(options)}")
    assert 0 < max(len(legal) for _, _, legal in decisions) <= MOST_ENTRIES


def test_every_legal_move_round_trips_through_the_notation():
    state = playout.start(GAME, NAMES[:4], seed="notation")
    seen = set()
    for player, move, state in playout.steps(GAME, state, seed="notation", bot_seed=3):
        pending = GAME.rules.pending(state)
        if pending is None:
            break
        for entry in GAME.rules.legal_moves(state, pending["player"]):
            concrete = bots.first_legal([entry])
            text = GAME.format_move(concrete)
            assert GAME.parse_move(text) == concrete
            seen.add(entry["action"])
    assert {"bid", "pass", "take"} <= seen


@pytest.mark.parametrize("text,move", [
    ("bid 7", {"action": "bid", "amount": 7}),
    ("pass", {"action": "pass"}),
    ("take 3", {"action": "take", "slot": 3}),
    ("dynamite cold-mountain-9", {"action": "dynamite", "target": ["cold-mountain-9"]}),
    ("dynamite takamawok-saloon-1", {"action": "dynamite", "target": ["takamawok-saloon-1"]}),
    ("expropriate san-narciso-4", {"action": "expropriate", "concession": ["san-narciso-4"]}),
    ("holdup bob 8", {"action": "holdup", "victim": "bob", "amount": 8}),
    ("saloon whiskey-river", {"action": "saloon", "town": "whiskey-river"}),
    ("girls whiskey-river-saloon-2", {"action": "girls", "saloon": "whiskey-river-saloon-2"}),
    ("governor new-london", {"action": "governor", "town": "new-london"}),
    ("vein takamawok-10", {"action": "vein", "concession": ["takamawok-10"]}),
    ("mustang", {"action": "mustang"}),
    ("telegraph 2 6", {"action": "telegraph", "die": 2, "value": 6}),
])
def test_notation_examples(text, move):
    assert GAME.parse_move(text) == move
    assert GAME.format_move(move) == text


def test_every_pending_decision_is_declared_in_meta():
    declared = set(GAME.meta["decisions"])
    state = playout.start(GAME, NAMES[:5], seed="decisions")
    for _, _, state in playout.steps(GAME, state, seed="decisions", bot_seed=1):
        pending = GAME.rules.pending(state)
        if pending:
            assert pending["decision"] in declared


def replay(seed, players, options, bot_seed):
    """(final state, every recorded outcome) of one bot game, applying each move with the engine's Rng."""
    state = playout.start(GAME, players, options, seed=seed)
    outcomes = []
    rnd = random.Random(bot_seed)
    number = 0
    while GAME.rules.pending(state):
        number += 1
        player = GAME.rules.pending(state)["player"]
        move = bots.choose(GAME.rules.legal_moves(state, player), rnd)
        rng = Rng(seed, "playout", number)
        state = GAME.rules.apply(copy.deepcopy(state), player, move, rng)
        outcomes.append(rng.outcomes)
    return state, outcomes


def test_same_seed_same_game_and_every_roll_recorded_as_public_chance():
    first, outcomes = replay("verify", NAMES[:4], {}, 5)
    second, again = replay("verify", NAMES[:4], {}, 5)
    assert first == second and outcomes == again
    rolls = [o for moves in outcomes for o in moves if o["what"].startswith(("production roll", "hold-up"))]
    turns = first["turn"]["number"]
    assert sum(1 for o in rolls if o["what"].startswith("production roll")) == turns
    assert all(o["public"] and len(o["result"]) == 2 for o in rolls)


def test_no_move_is_offered_to_a_player_whose_turn_it_is_not():
    state = playout.start(GAME, NAMES[:3], seed="others")
    for _, _, state in playout.steps(GAME, state, seed="others", bot_seed=2):
        pending = GAME.rules.pending(state)
        for name in NAMES[:3]:
            if pending is None or name != pending["player"]:
                assert GAME.rules.legal_moves(state, name) == []
            else:
                last = GAME.rules.legal_moves(state, name)[-1]
                highest = {k: (v["from"][-v["max"]:] if "from" in v else v["max"]) if isinstance(v, dict) else v
                           for k, v in last.items()}
                assert notation.is_legal(GAME.parse_move(GAME.format_move(highest)),
                                         GAME.rules.legal_moves(state, name))
