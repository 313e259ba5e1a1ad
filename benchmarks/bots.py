"""How often each game's greedy bot (games/<package>/bot.py) beats random players.

    python benchmarks/bots.py [--game chartered] [--games 50] [--players 4]

One greedy seat (it moves round the table from game to game) against random bots, 4 players (or the game's
largest count if 4 is out of range). A win is a rank of 1 not shared. Target: at least 90 % of the games.
Exit status 1 if a game misses it.
"""
from __future__ import annotations

import argparse
import copy
import importlib
import random
import sys

from pbem import bots, notation, playout, registry
from pbem.rng import Rng

TARGET = 0.9
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def greedy_wins(game: registry.Game, greedy_bot, players: list[str], seat: int, seed: int) -> bool:
    state = playout.start(game, players, seed=f"bots{seed}")
    rnd, number = random.Random(seed), 0
    while game.rules.pending(state):
        number += 1
        player = game.rules.pending(state)["player"]
        legal = game.rules.legal_moves(state, player)
        if player == players[seat]:
            move = greedy_bot.choose(game.rules.view(state, player), legal, rnd)
        else:
            move = bots.choose(legal, rnd)
        move = game.normalise(move)
        assert notation.is_legal(move, legal), f"{game.id}: {player} chose an illegal {move}"
        state = game.rules.apply(copy.deepcopy(state), player, move, Rng(f"bots{seed}", "bots", number))
    winners = [row["player"] for row in game.rules.result(state) if row["rank"] == 1]
    return winners == [players[seat]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game id (default: every game with a bot)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    missed = False
    for game in registry.all_games():
        if args.game and game.id not in args.game:
            continue
        try:
            greedy_bot = importlib.import_module(f"pbem.games.{game.package}.bot")
        except ModuleNotFoundError:
            continue
        count = min(max(args.players, game.min_players), game.max_players)
        players = NAMES[:count]
        wins = sum(greedy_wins(game, greedy_bot, players, seed % count, seed) for seed in range(args.games))
        rate = wins / args.games
        missed |= rate < TARGET
        print(f"{game.id:<20} {count} players  greedy won {wins}/{args.games} = {rate:.0%}  "
              f"target >= {TARGET:.0%} {'ok' if rate >= TARGET else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
