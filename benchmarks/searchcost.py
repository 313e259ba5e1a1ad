"""The CPU of a fixed search workload, for paired runs of two versions of the code (A, B, A, B ..., each run a
process of its own): the first N decisions the search takes in a seeded game with every seat searching, the
benchmark's line `every seat search` (benchmarks/bots.py, its game `--index`, with its option set, at the game's own
budget). docs/bots.md, "The search's cost, cut without changing a move", gives the figures.

    python benchmarks/searchcost.py --game chartered --players 6 [--decisions 12] [--index 0]

Prints one JSON line: the CPU seconds of those search decisions and of the whole run, and a digest of every move
played, so that two versions that choose the same moves print the same digest.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

import bots

from pbem.play import levels, turns
from pbem.rng import Rng
from pbem.store import registry


def search_moves(game, players: int, decisions: int, index: int) -> tuple[list[str], float]:
    """The game's moves up to its `decisions`-th search decision, played as bots.play plays them, and the CPU
    seconds of those decisions."""
    plan = bots.search_ending_games(game, players, index + 1, "search")[index]
    seats = bots.as_played(game, plan.seats)
    state = bots.playout.start(game, list(seats), plan.options, plan.seed, game_id=plan.seed)
    rnd, moves, spent, searched = random.Random(plan.seed), [], 0.0, 0
    for number in range(1, bots.MAX_DECISIONS + 1):
        decision = game.rules.pending(state)
        if decision is None or searched == decisions:
            break
        player = decision["player"]
        legal = game.rules.legal_moves(state, player)
        move = turns.forced(decision, legal)
        if move is None:
            started = time.process_time()
            move = levels.decide(game, seats[player], game.rules.view(state, player), legal, rnd,
                                 game.own_components)
            spent += time.process_time() - started
            searched += 1
        move = game.normalise(move)
        moves.append(game.format_move(move))
        state = game.rules.apply(state, player, move, Rng(plan.seed, plan.seed, number))
    return moves, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game's id (chartered, gold-fever, ...)")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--decisions", type=int, default=12, help="search decisions played (default 12)")
    parser.add_argument("--index", type=int, default=0, help="the line's game (default 0, its first)")
    args = parser.parse_args()
    started = time.process_time()
    moves, spent = search_moves(registry.get(args.game), args.players, args.decisions, args.index)
    print(json.dumps({"game": args.game, "players": args.players, "decisions": args.decisions,
                      "search_cpu": round(spent, 3), "cpu": round(time.process_time() - started, 3),
                      "moves": len(moves), "digest": hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]}))


if __name__ == "__main__":
    main()
