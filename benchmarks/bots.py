"""How the bots play, measured against the targets in benchmarks/targets.yaml (a long run, not a test).

    python benchmarks/bots.py [--games 100] [--random-games N] [--end-games 10] [--greedy-games 20] [--cpu-games 3]
                              [--budget N] [--game chartered ...] [--players 2 ...] [--line TEXT ...] [--quick]
                              [--shard I/N] [--seeds PREFIX] [--results DIR [--report-only | --backwards]]

For every game and every player count, seeded games played in memory, the seat under test moving round the table
from game to game and a shared first place counted as a win; each game draws its option set (seeded) among every
combination of the game's options a club may choose at that player count:

- **search vs greedy**: one search seat (pbem.play.search, at the game's budget or `--budget`) against greedy
  seats; its win share, against a target by player count (a fair share is 1/players);
- **search vs random**, **greedy vs random**: one seat of that level against random seats;
- **every seat search: games that end**: `--end-games` games with every seat searching, the share over before
  MAX_DECISIONS decisions (target 100%);

and, with the greedy bots only (cheap, so for every option set, not drawn): every seat greedy, the games that end;
against rule-of-thumb seats (RULES_OF_THUMB below, the kind of player a newcomer is), at 4 players; for Coal
Baron, the orders the greedy bot delivers and the share of its workers on banks with the phase cards next to the
base game.

The four games pbem ships are measured unless `--game` names others; a plug-in game (one installed from its own
package, such as the worked example) is measured only when named, and without the rule-of-thumb line (the
benchmark defines none for it). `--line TEXT` measures only the lines whose text holds TEXT (e.g. `--line "search
vs greedy"`; repeatable), so that a long run can be done line by line. `--quick` plays the rule-of-thumb line at
the default options only; `--shard I/N` measures only lines I, I + N, I + 2N ... of the report, so that N
processes share a long run. Exit status 1 if a target is missed.

`--results DIR` (benchmarks/results, committed) makes a long run add up across sessions: each line of games has a
file there, one JSON line a game (its line, title, players, number, seed, seats, options, ranking, CPU and the
versions that decided: the game's bot_version, the search's version for that game and its budget), appended as
soon as the game ends. A run plays only the games its line's file lacks for the versions of today's bots (every
game is seeded and the search's budget counts simulations, so a game gives the same result on any machine), and
reports from the file; `--report-only` plays nothing, and a line short of its games says "N of M games";
`--backwards` plays a line's missing games from its last one back, so that two processes share one long line (one
with it, one without: they meet in the middle, at most the game each had begun played twice, counted once). Coal
Baron's orders and banks lines are played in memory (seconds). benchmarks/release.sh runs the release lines so, one
title a process. `--seeds PREFIX` plays the win-share lines on other seeds than the release figures' (tuning
probes, into a results directory of their own).
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

import yaml

from pbem import bots
from pbem.play import levels, playout, turns
from pbem.play.search import version as search_version
from pbem.rng import Rng
from pbem.store import registry

HERE = Path(__file__).resolve().parent
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
MAX_DECISIONS = 20000


# ------------------------------------------------------------------------------------------ option sets

def option_sets(game: registry.Game, count: int) -> list[dict]:
    """Every combination of the game's options a club may choose at this player count (each a copy of its own).
    Heartland's alternate-routes counts only off and on (the number of cards is a detail of the same variant), and
    the options that keep an earlier pbem's reading are left at their new-game default. Found once a game and
    table size: each combination is tried by setting a game up, and every planned game draws among them."""
    key = (game.id, count)
    if key not in _OPTION_SETS:
        _OPTION_SETS[key] = _fitting_option_sets(game, count)
    return [dict(options) for options in _OPTION_SETS[key]]


_OPTION_SETS: dict[tuple[str, int], list[dict]] = {}


def _fitting_option_sets(game: registry.Game, count: int) -> list[dict]:
    choices = {}
    for key, spec in game.meta.get("options", {}).items():
        values = list(spec["choices"])
        if game.id == "heartland-hauling" and key == "alternate-routes":
            values = ["off", "on"]
        if key in ("returned-locations", "removed-next-to"):
            values = [spec["default"]]
        choices[key] = values
    sets = [dict(zip(choices, values)) for values in itertools.product(*choices.values())]
    return [options for options in sets if fits(game, count, options)]


def fits(game: registry.Game, count: int, options: dict) -> bool:
    try:
        playout.start(game, NAMES[:count], options, seed="fits")
    except Exception:  # the game refuses this option at this player count (a PbemError for the organiser)
        return False
    return True


def label(options: dict, game: registry.Game) -> str:
    defaults = {k: spec["default"] for k, spec in game.meta.get("options", {}).items()}
    changed = [f"{k}={v}" for k, v in options.items() if v != defaults.get(k)]
    return ", ".join(changed) or "(defaults)"


# ------------------------------------------------------------------------------------------ the seats

def first_of(legal: list[dict], action: str) -> dict | None:
    return next((entry for entry in legal if entry["action"] == action), None)


def coal_baron_rules(view: dict, legal: list[dict], rnd: random.Random) -> dict:
    """Deliver a complete order, else put a cube on an order, else load a cube; place on a delivery space, else the
    mining space with most steps, else the best bank; anything else at random."""
    for action in ("fill", "load"):
        entry = first_of(legal, action)
        if entry:
            return bots.instantiate(entry, rnd)
    places = [e for e in legal if e["action"] == "place"]
    if places:
        board = {space["space"]: space for space in view["board"]}
        def worth(entry):
            space = board[entry["space"]]
            if space["kind"] == "delivery":
                return 100
            return space.get("steps") or space.get("amount") or 0
        return max(places, key=worth)
    return bots.choose(legal, rnd)


def gold_fever_rules(view: dict, legal: list[dict], rnd: random.Random) -> dict:
    """Take the concession with the most nuggets; bid at most 4; anything else at random."""
    decision = view["to_act"]["decision"]
    if decision == "bid_for_lot":
        bid = first_of(legal, "bid")
        if bid and bid["amount"]["min"] <= 4:
            return {"action": "bid", "amount": bid["amount"]["min"]}
        return first_of(legal, "pass") or bots.choose(legal, rnd)
    if decision == "choose_card":
        offer = {slot["slot"]: slot["card"] for slot in view["turn"]["offer"]}
        def nuggets(entry):
            card = offer.get(entry["slot"])
            return card.get("nuggets", -1) if card and card["type"] == "concession" else -1
        return max(legal, key=nuggets)
    return bots.choose(legal, rnd)


def chartered_rules(view: dict, legal: list[dict], rnd: random.Random) -> dict:
    """Build whenever a card can be played, else buy the top card of the deck; after building, one share of the
    company built on while 150 florins are left, then done; anything else at random."""
    for action in ("build", "raise"):
        entry = first_of(legal, action)
        if entry:
            return bots.instantiate(entry, rnd)
    buy = next((e for e in legal if e["action"] == "buy" and e["card"] == "deck"), None) or first_of(legal, "buy")
    if buy:
        return buy
    if view["to_act"]["decision"] == "trade_shares":
        me = next(p for p in view["players"] if p["name"] == view["private"]["player"])
        company = view["turn"]["company"]
        share = next((e for e in legal if e["action"] == "buy_share" and company in
                      (e["company"]["from"] if isinstance(e["company"], dict) else e["company"])), None)
        if share and me["money"] >= 150:
            return {"action": "buy_share", "company": [company]}
        return first_of(legal, "done")
    return bots.choose(legal, rnd)


def heartland_rules(view: dict, legal: list[dict], rnd: random.Random) -> dict:
    """Unload all it can, else load all it can; pay with fuel cards before cash; draw from the deck; drive to a
    random location; anything else at random."""
    for action in ("unload", "load"):
        entries = [e for e in legal if e["action"] == action]
        if entries:
            entry = max(entries, key=lambda e: e["crates"]["max"])
            return {**entry, "crates": entry["crates"]["max"]}
    for action in ("fuel", "cash", "draw", "pass"):
        entry = first_of(legal, action)
        if entry:
            return entry
    return bots.choose(legal, rnd)


RULES_OF_THUMB = {"coal-baron": coal_baron_rules, "gold-fever": gold_fever_rules, "chartered": chartered_rules,
                  "heartland-hauling": heartland_rules}


# ------------------------------------------------------------------------------------------ playing

def play(game: registry.Game, players: list[str], options: dict, seed: str, seats: dict[str, str],
         on_move=None, timed: list[float] | None = None) -> dict | None:
    """One game in memory, as pbem.play.playout plays it (forced moves by the referee, each decision with the engine's
    randomness for its number); `seats` gives each player's level (pbem.play.levels) or `rules`. None if not over
    after MAX_DECISIONS decisions. `timed`: the CPU time of each search decision is added to it."""
    state = playout.start(game, players, options, seed, game_id=seed)
    rnd = random.Random(seed)
    for number in range(1, MAX_DECISIONS + 1):
        decision = game.rules.pending(state)
        if decision is None:
            return state
        player = decision["player"]
        legal = game.rules.legal_moves(state, player)
        move = turns.forced(decision, legal)
        if move is None:
            kind = seats.get(player, "random")
            started = time.process_time()
            if kind == "rules":
                move = RULES_OF_THUMB[game.id](game.rules.view(state, player), legal, rnd)
            else:
                move = levels.decide(game, kind, game.rules.view(state, player), legal, rnd, game.own_components)
            if timed is not None and kind.startswith("search"):
                timed.append(time.process_time() - started)
        move = game.normalise(move)
        if on_move:
            on_move(state, player, move)
        state = game.rules.apply(state, player, move, Rng(seed, seed, number))  # nothing else holds it: no copy
    return None


def drawn_options(game, count: int, seed: str) -> dict:
    """The option set a seeded game plays with: one of every combination a club may choose at this count."""
    return random.Random(seed).choice(option_sets(game, count))


# ------------------------------------------------------------------------------------------ the games of a line

class Planned(NamedTuple):
    """One seeded game of a line: its number in the line, seed, options, each player's level and the seat under
    test (None when every seat plays the same level)."""
    index: int
    seed: str
    options: dict
    seats: dict[str, str]
    seat: str | None = None


def win_games(game, count: int, games: int, hero: str, others: str, options: dict | None = None,
              seeds: str = "win") -> list[Planned]:
    """The games of a win-share line: one seat of level `hero` against `count - 1` seats of level `others`, the
    seat moving round the table from game to game; each game draws its option set unless `options` are given.
    `seeds`: the seeds' prefix (the release figures' `win`; another for tuning, so a bot is never tuned on the very
    games that judge it)."""
    players, planned = NAMES[:count], []
    for n in range(games):
        seat, seed = players[n % count], f"{seeds}-{hero}-{others}-{count}-{n}"
        seats = {p: (others if p != seat else hero) for p in players}
        planned.append(Planned(n, seed, options if options is not None else drawn_options(game, count, seed),
                               seats, seat))
    return planned


def greedy_ending_games(count: int, options: dict, games: int) -> list[Planned]:
    """Every seat greedy, the same option set in every game."""
    players = NAMES[:count]
    return [Planned(n, f"end-{count}-{n}", options, dict.fromkeys(players, "greedy")) for n in range(games)]


def search_ending_games(game, count: int, games: int, search: str) -> list[Planned]:
    """Every seat searching, each game with a drawn option set."""
    players = NAMES[:count]
    return [Planned(n, f"end-search-{count}-{n}", drawn_options(game, count, f"end-search-{count}-{n}"),
                    dict.fromkeys(players, search)) for n in range(games)]


def cpu_games(game, games: int) -> list[Planned]:
    """One search seat at the game's own budget (meta.yaml search) against greedy seats at its largest table, the
    seat moving round the table: what a club's search seat costs."""
    players = NAMES[:game.max_players]
    planned = []
    for n in range(games):
        seat, seed = players[n % len(players)], f"cpu-{n}"
        seats = {p: ("search" if p == seat else "greedy") for p in players}
        planned.append(Planned(n, seed, drawn_options(game, len(players), seed), seats, seat))
    return planned


def win_rate(game, count: int, games: int, hero: str, others: str, options: dict | None = None) -> float:
    """The share of `games` games (win_games, played now in memory) the seat of level `hero` wins."""
    return win_share(Ledger().records(game, f"{count} players: {hero} vs {others}",
                                      win_games(game, count, games, hero, others, options)), games).value


class Measured(NamedTuple):
    """A line's figure over the games played so far (None before any), and how many of those asked."""
    value: float | None
    games: int
    asked: int


def win_share(records: list[dict], asked: int) -> Measured:
    """The share of games the seat under test won (a shared first place counts; a game that did not end is lost)."""
    wins = sum(any(row["player"] == record["seat"] and row["rank"] == 1 for row in record["ranking"] or [])
               for record in records)
    return Measured(wins / len(records) if records else None, len(records), asked)


def ending_share(records: list[dict], asked: int) -> Measured:
    """The share of games over before MAX_DECISIONS decisions."""
    ended = sum(record["ranking"] is not None for record in records)
    return Measured(ended / len(records) if records else None, len(records), asked)


def decision_cpu(records: list[dict], asked: int, summary) -> Measured:
    """`summary` (median, max) of the CPU seconds of every timed search decision of the games."""
    times = [seconds for record in records for seconds in record["search_cpu"]]
    return Measured(summary(times) if times else None, len(records), asked)


# ------------------------------------------------------------------------------------------ results that accumulate

def versions(game, seats: dict[str, str]) -> dict:
    """The versions of what decides a game's moves: the game's greedy bot, and the search and its budget when a
    seat searches (a seat's level as it plays: `search` becomes `search:N`)."""
    budgets = sorted({levels.parse_level(level).budget for level in seats.values() if level.startswith("search")})
    return {"bot_version": game.bot_version, "search_version": search_version(game) if budgets else None,
            "budget": budgets[0] if len(budgets) == 1 else budgets or None}


def as_played(game, seats: dict[str, str]) -> dict[str, str]:
    return {p: level if level == "rules" else str(levels.parse_level(level).played(game)) for p, level in seats.items()}


def identity(record: dict) -> str:
    """What makes two records the same game: its line, number, seed, seats, options and the versions that decided."""
    return json.dumps([record[key] for key in ("line", "index", "seed", "seats", "options", "versions")],
                      sort_keys=True)


def played(game, line: str, planned: Planned) -> dict:
    """Play one planned game: its record (one JSON line of the results)."""
    seats, timed = as_played(game, planned.seats), []
    started = time.process_time()
    state = play(game, list(seats), planned.options, planned.seed, seats, timed=timed)
    cpu = time.process_time() - started
    ranking = None if state is None else [{key: row[key] for key in ("player", "rank", "score")}
                                          for row in game.rules.result(state)]
    return {"line": line, "title": game.id, "players": list(seats), "index": planned.index, "seed": planned.seed,
            "seats": seats, "seat": planned.seat, "options": planned.options, "ranking": ranking,
            "cpu": round(cpu, 3), "search_cpu": [round(seconds, 4) for seconds in timed],
            "versions": versions(game, seats)}


class Ledger:
    """The games of the report's lines. With a directory (`--results DIR`), each line has a file there, one JSON
    line a finished game, appended as soon as it ends; a run plays only the games its file lacks for the same
    versions of the bots, and reports from the file, so runs in different sessions add up. Without one, every game
    is played in memory. `play_missing` False: the report from the files alone (a line short of games says so).
    `backwards`: the missing games from the last planned one back, so that a second process can share a long line
    with one going forward; each reads the line's file again before a game it would play, and they meet with at
    most the game each had begun played twice (the report counts it once)."""

    def __init__(self, directory: Path | None = None, play_missing: bool = True, backwards: bool = False):
        self.directory, self.play_missing, self.backwards = directory, play_missing, backwards

    def path(self, game, line: str) -> Path | None:
        slug = re.sub(r"[^a-z0-9]+", "-", line.lower()).strip("-")
        return None if self.directory is None else self.directory / f"{game.id}-{slug}.jsonl"

    def records(self, game, line: str, planned: list[Planned]) -> list[dict]:
        """The planned games' records: those in the line's file, the others played now (unless `play_missing` is
        False), in the order planned."""
        path = self.path(game, line)
        known, found = known_records(path), {}
        for number in (reversed(range(len(planned))) if self.backwards else range(len(planned))):
            plan = planned[number]
            seats = as_played(game, plan.seats)
            wanted = identity({"line": line, "index": plan.index, "seed": plan.seed, "seats": seats,
                               "options": plan.options, "versions": versions(game, seats)})
            if wanted not in known and self.play_missing:
                known = known_records(path)  # another process sharing the line may have played it meanwhile
                if wanted not in known:
                    known[wanted] = played(game, line, plan)
                    if path is not None:
                        append_record(path, known[wanted])
            if wanted in known:
                found[number] = known[wanted]
        return [found[number] for number in sorted(found)]


def known_records(path: Path | None) -> dict:
    """The records of a line's file by their game's identity (the first, if a game was played twice)."""
    known = {}
    for record in read_records(path):
        known.setdefault(identity(record), record)
    return known


def read_records(path: Path | None) -> list[dict]:
    """The records of a results file; a line cut short (a run killed while writing it) is left out."""
    if path is None or not path.exists():
        return []
    records = []
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(text))
        except ValueError:
            continue
    return records


def append_record(path: Path, record: dict) -> None:
    """Add one game's record to its line's file at once (on a line of its own, even after a line cut short)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n"
    with path.open("a+b") as handle:
        handle.seek(0, os.SEEK_END)
        if handle.tell():
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                text = "\n" + text
        handle.write(text.encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())


def bank_share(game, options, games) -> float:
    """Coal Baron: of the workers the greedy bots placed, the share placed on bank spaces (4 players, all greedy)."""
    placed = {"banks": 0, "all": 0}

    def count(state, player, move):
        if move["action"] in ("place", "overplace"):
            space = move["space"] if isinstance(move["space"], str) else move["space"][0]
            needs = next(s["needs"] for s in game.rules.view(state, player)["board"] if s["space"] == space)
            workers = move.get("workers") or needs
            placed["all"] += workers
            placed["banks"] += workers if space.startswith("bank") else 0
    players = NAMES[:4]
    for n in range(games):
        play(game, players, options, f"banks-{n}", {p: "greedy" for p in players}, on_move=count)
    return placed["banks"] / max(1, placed["all"])


def orders_delivered(game, games) -> float:
    players, delivered = NAMES[:4], []
    for n in range(games):
        greedy = players[n % 4]
        state = play(game, players, {}, f"orders-{n}", {greedy: "greedy"})
        delivered.append(len(state["pits"][greedy]["delivered"]))
    return statistics.mean(delivered)


# ------------------------------------------------------------------------------------------ the report

def measures(game: registry.Game, args, targets: dict):
    """The game's lines of the report, in order, each measured when asked for: (text, measure, goal, kind), kind
    `at least`, `at most` or `shown` (no target). A line of games is measured from its games' records
    (args.ledger: played now, or read back from the results)."""
    goal = {key: targets[key]["target"] for key in targets}
    search = f"search:{args.budget}" if args.budget else "search"
    counts = [n for n in range(game.min_players, game.max_players + 1) if not args.players or n in args.players]

    def line(text, planned, figure, asked):
        return lambda: figure(args.ledger.records(game, text, planned()), asked)

    for count in counts:
        for options in option_sets(game, count):
            text = f"{count} players, {label(options, game)}: games that end (every seat greedy)"
            yield (text, line(text, lambda count=count, options=options: greedy_ending_games(count, options,
                                                                                              args.greedy_games),
                              ending_share, args.greedy_games), goal["greedy_games_end"], "at least")
    for count in counts:
        lines = [("search vs greedy", search, "greedy", args.games,
                  goal["search_win_rate_vs_greedy"][min(count, 5)]),
                 ("search vs random", search, "random", args.random_games, goal["search_win_rate_vs_random"]),
                 ("greedy vs random", "greedy", "random", args.games, goal["greedy_win_rate"])]
        for name, hero, others, games, target in lines:
            text = f"{count} players: {name}"
            yield (text, line(text, lambda count=count, hero=hero, others=others, games=games:
                              win_games(game, count, games, hero, others, seeds=args.seeds), win_share, games),
                   target, "at least")
        text = f"{count} players: every seat search: games that end"
        yield (text, line(text, lambda count=count: search_ending_games(game, count, args.end_games, search),
                          ending_share, args.end_games), goal["search_games_end"], "at least")
    if game.max_players in counts:
        text = f"{game.max_players} players: search CPU a decision at the game's budget"
        for summary, name in ((statistics.median, "median"), (max, "most")):
            yield (f"{text}, {name}", line(text, lambda: cpu_games(game, args.cpu_games),
                                           lambda records, asked, summary=summary: decision_cpu(records, asked,
                                                                                               summary),
                                           args.cpu_games),
                   goal[f"search_decision_cpu_{name}"], "at most (seconds)")
    yield from greedy_measures(game, args, goal, line)


def greedy_measures(game: registry.Game, args, goal: dict, line):
    """The greedy bots' own lines: against rules of thumb (4 players, each option set), Coal Baron's orders and
    banks (these two always played in memory: a few seconds)."""
    if game.id in RULES_OF_THUMB and game.min_players <= 4 <= game.max_players:
        for options in option_sets(game, 4) if not args.quick else [game.resolve_options({})]:
            text = f"4 players, {label(options, game)}: greedy vs 3 rules of thumb"
            yield (text, line(text, lambda options=options: win_games(game, 4, args.greedy_games, "greedy", "rules",
                                                                      options), win_share, args.greedy_games),
                   goal["greedy_win_rate_vs_rules_of_thumb"], "at least")
    if game.id == "coal-baron" and not args.report_only:
        yield ("orders delivered per game by the greedy bot", lambda: orders_delivered(game, args.greedy_games),
               goal["coal_baron_orders_delivered"], "at least (count)")
        base = {}
        yield ("greedy workers on banks, base game",
               lambda: base.setdefault("share", bank_share(game, {}, args.greedy_games)), None, "shown")
        yield ("greedy workers on banks, phase cards",
               lambda: bank_share(game, {"phase-cards": "on"}, args.greedy_games),
               lambda: base.setdefault("share", bank_share(game, {}, args.greedy_games))
               + goal["coal_baron_phase_banks_over_base"], "at most")


def shown(value: float, goal, kind: str) -> str:
    """A figure and its target as the report prints them."""
    if kind == "at least (count)":
        return f"{value:7.1f}   target >= {goal}"
    if kind == "at most (seconds)":
        return f"{value:6.2f}s   target <= {goal}s"
    return f"{value:7.0%}   target {'<=' if kind == 'at most' else '>='} {goal:.0%}"


def report_line(text: str, value, goal, kind: str) -> tuple[str, bool]:
    """One line of the report and whether its target is met: a line of games short of those asked is not yet
    its figure (it says `N of M games`) and meets no target."""
    partial = isinstance(value, Measured) and value.games < value.asked
    short = f" ({value.games} of {value.asked} games)" if partial else ""
    if isinstance(value, Measured):
        value = value.value
    if value is None:
        return f"    {text:<62} no games yet{short}", False
    if kind == "shown":
        return f"    {text:<62} {value:7.0%}", True
    hit = (value <= goal if kind.startswith("at most") else value >= goal) and not partial
    verdict = "so far" if partial else "ok" if hit else "MISSED"
    return f"    {text:<62} {shown(value, goal, kind)} {verdict}{short}", hit


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a line of search or greedy against a level "
                                                              "(100 for the release figures)")
    parser.add_argument("--random-games", type=int, help="games of the search against random seats (default: "
                                                         "--games)")
    parser.add_argument("--end-games", type=int, default=10, help="games a line with every seat searching")
    parser.add_argument("--greedy-games", type=int, default=20, help="games a line of the greedy bots' own lines "
                                                                     "(each option set)")
    parser.add_argument("--cpu-games", type=int, default=3, help="games of one search seat at the game's own "
                                                                 "budget whose decisions are timed (largest table)")
    parser.add_argument("--budget", type=int, help="the search's simulations a decision (default: each game's own, "
                                                   "meta.yaml search)")
    parser.add_argument("--game", action="append", help="only these games (default: the four games pbem ships; "
                                                        "a plug-in game is measured only when named)")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    parser.add_argument("--line", action="append", help="only the lines whose text holds this (e.g. \"search vs "
                                                        "greedy\"); repeatable")
    parser.add_argument("--quick", action="store_true", help="the rule-of-thumb line at the default options only")
    parser.add_argument("--shard", default="0/1", help="I/N: only every N-th line of the report, from the I-th "
                                                       "(to run N processes side by side)")
    parser.add_argument("--seeds", default="win", help="the seeds' prefix of the win-share lines (default: win, the "
                                                        "release figures'; another for tuning probes)")
    parser.add_argument("--results", type=Path, help="a directory where each line's games accumulate, one JSON "
                                                     "line a game (benchmarks/results): a run plays only the games "
                                                     "not there yet for the same versions of the bots")
    parser.add_argument("--report-only", action="store_true", help="with --results: the report from the games "
                                                                   "there, playing none")
    parser.add_argument("--backwards", action="store_true", help="with --results: play a line's missing games from "
                                                                 "its last one back (a second process sharing the "
                                                                 "line with one going forward)")
    args = parser.parse_args(argv)
    if args.report_only and args.results is None:
        parser.error("--report-only reads the games of --results DIR: name the directory")
    args.random_games = args.random_games or args.games
    if args.backwards and args.results is None:
        parser.error("--backwards shares a line's games through --results DIR: name the directory")
    args.ledger = Ledger(args.results, play_missing=not args.report_only, backwards=args.backwards)
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    shard, shards = (int(part) for part in args.shard.split("/"))
    targets = yaml.safe_load((HERE / "targets.yaml").read_text())
    budget = f"search:{args.budget}" if args.budget else "each game's search budget"
    print(f"pbem bots — {args.games} seeded games a line against a level ({budget}; {args.random_games} of the "
          f"search against random seats), {args.end_games} with every seat searching, {args.greedy_games} a line of "
          f"the greedy bots' own lines"
          + (f" (shard {shard}/{shards}: every {shards}th line from line {shard})" if shards > 1 else ""), flush=True)
    ok, index = True, -1
    for game in registry.all_games():
        if game.id not in (args.game or RULES_OF_THUMB):
            continue
        print(f"{game.id}", flush=True)
        for text, measure, goal, kind in measures(game, args, targets):
            if args.line and not any(part in text for part in args.line):
                continue
            index += 1
            if index % shards != shard:
                continue
            value = measure()
            printed, hit = report_line(text, value, goal() if callable(goal) else goal, kind)
            ok &= hit
            print(printed, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
