"""The generic suite every registered game and player count must pass: random play-outs to the end over many
seeds with schema-valid states and views at every step, YAML round trips, no dead ends, no leaks between
players' views, and whole games through the referee that replay to the stored state."""
from __future__ import annotations

import pytest

from support import NAMES, assert_fits, edge_counts, game_counts, playable_games
from pbem.cli import demo
from pbem.contract import PbemError
from pbem.engine import engine
from pbem.play import playout
from pbem.store import registry, yamlio

SEEDS = range(4)
JSONSCHEMA_EVERY = 25  # every position is checked by the compiled schemas; every 25th by jsonschema and YAML too


def leaf_paths(data, path=()):
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaf_paths(value, path + (key,))
    elif isinstance(data, list):
        yield path
    else:
        yield path


def private_paths_of(player: str, own_view: dict, public_paths: set[tuple]) -> set[tuple]:
    """Paths in a player's view that the public view lacks (`public_paths`: its leaf paths) and that are keyed by
    that player's name."""
    return {p for p in leaf_paths(own_view) if p not in public_paths and player in p}


def has_path(data, path) -> bool:
    for key in path:
        if isinstance(data, dict) and key in data:
            data = data[key]
        else:
            return False
    return True


def check_position(game: registry.Game, state: dict, players: list[str], thorough: bool = True) -> None:
    assert_fits(game.id, "state", state, thorough)
    if thorough:
        assert yamlio.loads(yamlio.dumps(state)) == state, "the state does not survive a YAML round trip"
    public = game.rules.view(state, None)
    assert_fits(game.id, "public-view", public, thorough)
    views = {p: game.rules.view(state, p) for p in players}
    public_paths = set(leaf_paths(public))
    for player, own in views.items():
        assert_fits(game.id, "player-view", own, thorough)
        secret = private_paths_of(player, own, public_paths)
        for other, seen in views.items():
            if other != player:
                leaked = [p for p in secret if has_path(seen, p)]
                assert not leaked, f"{other}'s view holds {player}'s private {leaked[:3]}"


@pytest.mark.parametrize("game_id,count", game_counts())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_reaches_the_end_with_valid_states_and_views(game_id, count, seed):
    game = registry.get(game_id)
    players = NAMES[:count]
    state = playout.start(game, players, seed=f"s{seed}")
    check_position(game, state, players)
    moves = 0
    for moves, (_, _, state) in enumerate(playout.steps(game, state, seed=f"s{seed}", bot_seed=seed), 1):
        check_position(game, state, players, thorough=moves % JSONSCHEMA_EVERY == 0)
    assert game.rules.pending(state) is None
    ranking = game.rules.result(state)
    assert sorted(row["player"] for row in ranking) == sorted(players)
    assert ranking[0]["rank"] == 1 and all(isinstance(row["score"], int) for row in ranking)
    assert [row["rank"] for row in ranking] == sorted(row["rank"] for row in ranking)


@pytest.mark.parametrize("game_id", [g.id for g in playable_games()])
@pytest.mark.parametrize("option_values", ["non-default"])
def test_random_playout_with_every_option_set(game_id, option_values):
    game = registry.get(game_id)
    options = {key: next(c for c in spec["choices"] if c != spec["default"])
               for key, spec in game.meta.get("options", {}).items()}
    finished = 0
    for count in range(game.min_players, game.max_players + 1):
        try:
            final = playout.play(game, NAMES[:count], options, seed="opts", bot_seed=count)
        except PbemError:  # an option may be for some player counts only (the game says so at `new`)
            continue
        assert game.rules.pending(final) is None
        finished += 1
    assert finished


@pytest.mark.parametrize("game_id,count", edge_counts())
def test_a_demo_game_through_the_referee_replays_to_the_stored_state(game_id, count, tmp_path):
    directory = tmp_path / f"demo-{count}"
    final = demo.run(game_id, count, f"replay-{count}", {}, directory, 0, lambda *_: None)
    assert final["finished"]
    gd = engine.open_game(directory)
    assert engine.verify(gd)["moves"] == final["move_number"] - 1
    # The same seeds in memory give the same game: the engine adds nothing of its own.
    game = registry.get(game_id)
    state = playout.play(game, NAMES[:count], seed=f"replay-{count}", bot_seed=f"replay-{count}",
                         game_id=directory.name)
    assert state == engine.load_state(gd)["state"]
