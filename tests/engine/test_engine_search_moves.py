"""The search chooses the same moves as when its results were recorded: the moves a search seat made in seeded
games of every title (one search seat at the game's own budget against greedy seats, at its smallest and largest
table), kept in search_moves.yaml beside this file. A change that only makes the search cheaper (state copies,
views, legal moves in the rollouts) must leave every one of them as it was; a change that makes it choose
otherwise raises the search's version for the games it changes (pbem.play.search.VERSION, or a game's own meta.yaml
`search: {version}`; the benchmark's accumulated games of those games then start again: benchmarks/bots.py) and
records their moves again:

    .venv/bin/python tests/engine/test_engine_search_moves.py [GAME ...]   # rewrites search_moves.yaml (those games)

The default suite checks the first moves of the smallest table's game; the `slow` run checks whole games."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
import yaml

from pbem.play import playout, search
from pbem.store import registry

RECORD = Path(__file__).with_name("search_moves.yaml")
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
FIRST = 2  # the search seat's moves the default suite replays, a game


def tables(game) -> list[tuple[int, str]]:
    """(players, seed) of the recorded games: the smallest and the largest table."""
    return [(count, f"search-moves-{count}") for count in sorted({game.min_players, game.max_players})]


def search_moves(game, players: int, seed: str, limit: int | None = None) -> list[str]:
    """The moves the search seat (the first player, at the game's own budget) makes in a seeded game against
    greedy seats, as text; the first `limit` only, if given."""
    names = NAMES[:players]
    seats = {name: ("search" if name == names[0] else "greedy") for name in names}
    state = playout.start(game, names, seed=seed, game_id=seed)
    moves = (game.format_move(move) for player, move, _ in playout.steps(game, state, seed=seed, game_id=seed,
                                                                        seats=seats) if player == names[0])
    return list(itertools.islice(moves, limit))


def searched_games() -> list[registry.Game]:
    return [game for game in registry.all_games() if game.unseen is not None]


def recorded() -> dict:
    return yaml.safe_load(RECORD.read_text())


def cases():
    """The default suite: the first moves at the smallest table; the `slow` run: every recorded game whole. The
    games recorded (another installed game, such as a club's own plug-in, has its moves recorded by its makers)."""
    games = [game for game in searched_games() if game.id in recorded()["games"]]
    first = [pytest.param(game, *tables(game)[0], FIRST, id=f"{game.id}-first") for game in games]
    whole = [pytest.param(game, count, seed, None, id=f"{game.id}-{count}", marks=pytest.mark.slow)
             for game in games for count, seed in tables(game)]
    return first + whole


@pytest.mark.parametrize("game,count,seed,limit", cases())
def test_the_search_seat_makes_the_moves_recorded_for_its_version(game, count, seed, limit):
    game_record = recorded()["games"][game.id]
    assert game_record["search_version"] == search.version(game), f"{game.id}'s search changed: record again"
    assert game_record["bot_version"] == game.bot_version, f"{game.id}'s greedy bot changed: record again"
    expected = game_record["tables"][count]["moves"]
    assert search_moves(game, count, seed, limit) == (expected[:limit] if limit else expected)


def main(only: list[str]) -> None:
    """Record the moves of this version of the search, of the games named (default: all; the others' records are
    kept as they are); run from the worktree, with its .venv."""
    games = recorded()["games"] if only else {}
    for game in searched_games():
        if only and game.id not in only:
            continue
        tables_moves = {count: {"seed": seed, "moves": search_moves(game, count, seed)}
                        for count, seed in tables(game)}
        games[game.id] = {"bot_version": game.bot_version, "search_version": search.version(game),
                          "tables": tables_moves}
        print(game.id, {count: len(t["moves"]) for count, t in tables_moves.items()}, flush=True)
    RECORD.write_text(yaml.safe_dump({"games": games}, allow_unicode=True, width=120))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
