"""How well the greedy bots play, measured against the targets in benchmarks/targets.yaml.

    python benchmarks/bots.py [--games 50] [--game coal-baron ...]

For each game: seeded 4-player games played in memory, one greedy bot against three random ones (the greedy seat
moves round the table from game to game, so no seat's advantage counts for it). Reported: the greedy bot's win
rate (a shared first place counts as a win) and, for Coal Baron, the orders delivered per player per game by the
greedy bot. Exit status 1 if a target is missed.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import yaml

from pbem import playout, registry

HERE = Path(__file__).resolve().parent
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


def orders_delivered(state: dict, player: str) -> int:
    """Coal Baron: the order cards a player delivered over the game."""
    return len(state["pits"][player]["delivered"])


EXTRA = {"coal-baron": ("orders delivered per game by the greedy bot", orders_delivered,
                        "coal_baron_orders_delivered")}


def measure(game: registry.Game, games: int, count: int) -> tuple[float, list[int]]:
    wins, extra = 0, []
    players = NAMES[:count]
    for number in range(games):
        greedy = players[number % count]
        state = playout.play(game, players, seed=f"bots-{number}", bot_seed=number, seats={greedy: "greedy"},
                             game_id=f"bots-{number}")
        ranking = game.rules.result(state)
        wins += any(row["player"] == greedy and row["rank"] == 1 for row in ranking)
        if game.id in EXTRA:
            extra.append(EXTRA[game.id][1](state, greedy))
    return wins / games, extra


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--game", action="append", help="only these games (default: every registered game)")
    args = parser.parse_args()
    targets = yaml.safe_load((HERE / "targets.yaml").read_text())
    win_target = targets["greedy_win_rate"]["target"]
    print(f"pbem bots — one greedy bot against random ones, {args.games} seeded games each")
    ok = True
    for game in registry.all_games():
        if args.game and game.id not in args.game:
            continue
        count = max(game.min_players, min(4, game.max_players))
        rate, extra = measure(game, args.games, count)
        hit = rate >= win_target
        ok &= hit
        print(f"  {game.id:<18} {count} players  greedy win rate {rate:6.0%}  target >= {win_target:.0%} "
              f"{'ok' if hit else 'MISSED'}")
        if game.id in EXTRA:
            label, _, key = EXTRA[game.id]
            value, target = statistics.mean(extra), targets[key]["target"]
            ok &= value >= target
            print(f"  {'':<18} {label}: {value:.1f}  target >= {target} {'ok' if value >= target else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
