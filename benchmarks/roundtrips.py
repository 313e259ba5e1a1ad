"""Round trips: how many answers each player sends in a game, with and without queues, against
benchmarks/targets.yaml.

    python benchmarks/roundtrips.py [--games 8] [--game coal-baron ...]

A correspondence game lasts as many days as it has round trips. For each title, seeded 4-player games are played
twice in memory through the referee's own turns (pbem.play.turns: forced moves, queues and standing orders exactly as
the engine plays them), every seat a greedy bot (games/<package>/bot.py):

- without queues, a player answers each time the referee asks them: their move and the rest of their turn, up to
  the point where new information must be seen first (a card drawn) or the decision passes to someone else;
- with queues, each answer also says what the player will do later, as a thoughtful player would (the plans
  below, one per title): the rest of a refill chosen blind, the next turn as ranked choices, a proxy bid as a
  standing order. Every plan is made from the player's view when they answer and the moves they send (their own
  next mining turn is worked out on their own pit, which is public), never from hidden cards.

Reported per title: answers per player per game with and without, and how many fewer; Heartland's refill case by
itself (answers asked for at a refill decision); the moves the queues played and how often a queue stopped (a step
not legal when its decision came: the player is asked, and told why). Exit status 1 if a title misses its target
(`roundtrips_fewer`: at least that share of answers saved).
"""
from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
from pathlib import Path

import yaml

from pbem import bots, notation
from pbem.contract import PbemError
from pbem.play import playout, queues, submission, turns
from pbem.rng import Rng
from pbem.store import registry

HERE = Path(__file__).resolve().parent
NAMES = ["alice", "bob", "carol", "dave"]
RANKED = 4  # alternatives a plan ranks for one step


# ---------------------------------------------------------------------------------------------- a greedy player

def ranking(game, view: dict, legal: list[dict], rnd: random.Random, count: int = RANKED) -> list[dict]:
    """The greedy bot's choices in order: its choice, then its choice without that entry, and so on."""
    left, ranked = list(legal), []
    while left and len(ranked) < count:
        move = bots.decide(game, "greedy", view, left, rnd)
        ranked.append(move)
        left = [entry for entry in left if not notation.matches(move, entry)]
    return ranked


def answer_now(game, state: dict, player: str, rnd: random.Random) -> tuple[list[dict], dict]:
    """The player's turn as they send it: the greedy bot's moves while the decisions are theirs and show nothing
    new (worked out on their own moves: the referee will apply them). Returns (moves, the state after them)."""
    moves = []
    while True:
        pending = game.rules.pending(state)
        if pending is None or pending["player"] != player or (moves and pending.get("fresh_info")):
            return moves, state
        legal = game.rules.legal_moves(state, player)
        move = bots.decide(game, "greedy", game.rules.view(state, player), legal, rnd)
        moves.append(move)
        state = game.rules.apply(copy.deepcopy(state), player, move, Rng("plan", "plan", len(moves)))


def texts(game, moves: list[dict]) -> list[str]:
    return [game.format_move(move) for move in moves]


def alternatives(game, moves: list[dict]) -> str:
    return " else ".join(texts(game, moves))


# ---------------------------------------------------------------------------------------------- the plans

def plan_coal_baron(game, state, player, now, after, rnd) -> list[str]:
    """The draft picks still to come as ranked choices; after a placement, the next turn: the greedy bot's next
    choices of placement, ranked, and the mining steps of the first mining space among them (worked out on the
    player's own pit)."""
    pending = game.rules.pending(state)
    view = game.rules.view(state, player)
    legal = game.rules.legal_moves(state, player)
    if pending["decision"] == "draft_orders":
        rest = [m for m in ranking(game, view, legal, rnd, len(legal)) if m != now[0]]
        picks = sum(1 for p in state["draft"]["queue"] if p == player)
        return [alternatives(game, rest[i:i + RANKED - 1]) + " else draft best" for i in range(picks)]
    if pending["decision"] not in ("place_workers", "place_or_pass"):
        return []
    ranked = [m for m in ranking(game, view, legal, rnd) if m != now[0] and m["action"] != "pass"]
    if not ranked:
        return []
    steps = [alternatives(game, ranked)]
    mining = next((m for m in ranked if m["action"] == "place"
                   and state["components"]["spaces"][m["space"]]["kind"] == "mining"), None)
    if mining is not None:
        steps += texts(game, own_mining(game, after, player, mining, rnd))
    return ["next", *steps]


def own_mining(game, after: dict, player: str, placement: dict, rnd) -> list[dict]:
    """The greedy bot's mining steps for that space, worked out on the player's own pit as it will be (the pit is
    public; nothing the steps read is hidden)."""
    pit = copy.deepcopy(after)
    pit["stack"] = [{"decision": "mine", "player": player,
                     "steps": pit["components"]["spaces"][placement["space"]]["steps"]}]
    steps = []
    while (pending := game.rules.pending(pit)) is not None and pending["player"] == player \
            and pending["decision"] in ("mine", "choose_substitutes"):
        legal = game.rules.legal_moves(pit, player)
        move = bots.decide(game, "greedy", game.rules.view(pit, player), legal, rnd)
        steps.append(move)
        pit = game.rules.apply(pit, player, move, Rng("plan", "plan", len(steps)))
        if not pit["stack"] or pit["stack"][-1]["decision"] not in ("mine", "choose_substitutes"):
            break
    return steps


def plan_gold_fever(game, state, player, now, after, rnd) -> list[str]:
    """At the auction: a proxy bid (`bid up to` what the greedy bot would pay, else pass) as a standing order for
    this auction, and the card choice ranked; once a game, pass on the Mustang and the Telegraph by standing
    orders."""
    from pbem.games.gold_fever import bot
    pending = game.rules.pending(state)
    view = game.rules.view(state, player)
    plan = [] if (state["turn"]["number"] > 1 or pending["decision"] != "bid_for_lot") else [
        "standing mustang: pass", "standing telegraph: pass"]
    if pending["decision"] != "bid_for_lot":
        return plan
    me = bot.Prospector(view)
    offer = [slot for slot in view["turn"]["offer"] if slot["card"]]
    values = sorted((me.card_value(slot["card"]) for slot in offer), reverse=True)
    limit = int((values[0] - sum(values) / len(values)) * bot.PRICE_SHARE)
    ranked = sorted(offer, key=lambda slot: -me.card_value(slot["card"]))
    plan.append(f"standing auction: bid up to {limit} else pass" if limit > 0 else "standing auction: pass")
    plan.append(" else ".join(f"take {slot['slot']}" for slot in ranked[:RANKED]))
    return plan


def plan_chartered(game, state, player, now, after, rnd) -> list[str]:
    """The next turn: the greedy bot's other choices of this turn, ranked (a build or a buy), the top card of the
    deck last; then no trades."""
    pending = game.rules.pending(state)
    if pending["decision"] != "take_turn":
        return []
    view = game.rules.view(state, player)
    legal = game.rules.legal_moves(state, player)
    ranked = [m for m in ranking(game, view, legal, rnd) if m != now[0] and m["action"] in ("build", "raise", "buy")]
    if not ranked:
        return []
    return ["next", alternatives(game, ranked) + " else buy deck", "done"]


def plan_heartland(game, state, player, now, after, rnd) -> list[str]:
    """The rest of the refill, chosen blind: each card the greedy bot's choice among the face-up cards it can see
    now, else the top of the deck."""
    pending = after and game.rules.pending(after)
    if pending is None or pending["player"] != player or pending["decision"] != "refill":
        return []
    view = game.rules.view(state, player)
    hand = len(after["haulers"][player]["hand"])
    limit = state["components"]["hand_size"]
    wanted = [card for card in view["face_up"] if card.startswith("fuel")]
    wanted += [card for card in view["face_up"] if not card.startswith("fuel")]
    steps = []
    for index in range(max(0, limit - hand)):
        pick = wanted[index] if index < len(wanted) and index < 1 else None
        steps.append(f"take {pick} else draw" if pick else "draw")
    return steps


PLANS = {"coal-baron": plan_coal_baron, "gold-fever": plan_gold_fever, "chartered": plan_chartered,
         "heartland-hauling": plan_heartland}


# ---------------------------------------------------------------------------------------------- a game

def play(game, seed: str, queued: bool) -> tuple[dict[str, int], dict[str, int], int, int]:
    """One seeded game through the referee's turns: (answers by player, answers asked at a refill by player, moves
    the queues and standing orders played, times a queue stopped and its player was asked)."""
    rnd = random.Random(seed)
    state = playout.start(game, NAMES, seed=seed, game_id=seed)
    env = {"move_number": 1, "seed": seed, "players": list(NAMES), "resigned": [], "forced_moves": "referee",
           "state": state}
    state, entries, records = turns.referee_turns(game, state, env, turns.MoveAt(env["seed"], seed, 1), [])
    env.update(state=state, move_number=1 + len(entries), queues=records)
    answers = {name: 0 for name in NAMES}
    refills = {name: 0 for name in NAMES}
    played = stopped = 0
    for _ in range(5000):
        pending = game.rules.pending(env["state"])
        if pending is None:
            return answers, refills, played, stopped
        player = pending["player"]
        answers[player] += 1
        refills[player] += pending["decision"] == "refill"
        notices = (env["queues"].get(player) or {}).get("notices", [])
        stopped += any(notice.startswith("your queue stopped") for notice in notices)
        now, after = answer_now(game, env["state"], player, rnd)
        sent = texts(game, now)
        if queued:
            sent += PLANS[game.id](game, env["state"], player, now, after, rnd)
        try:
            state, entries, records = submission.play_submission(game, seed, env, submission.Turn(player, sent), False)
        except PbemError as exc:
            raise AssertionError(f"{game.id} {seed}: {sent} refused: {exc}") from None
        env.update(state=state, move_number=env["move_number"] + len(entries), queues=records)
        played += sum(len(entry["moves"]) for entry in entries if entry.get("reason") in queues.REASONS)
    raise AssertionError(f"{game.id} {seed}: not over")


def measure(game, games: int) -> dict:
    """Per player per game, with and without queues: answers, answers asked at a refill, moves the queues played,
    queues stopped."""
    rows = {}
    for queued in (False, True):
        counts = []
        for number in range(games):
            answers, refills, played, stopped = play(game, f"roundtrips-{number}", queued)
            counts.append((statistics.mean(answers.values()), statistics.mean(refills.values()),
                           played / len(NAMES), stopped / len(NAMES)))
        rows[queued] = tuple(statistics.mean(column) for column in zip(*counts))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--game", action="append", help="only these games (default: the four pbem ships, each with "
                                                        "its players' plan below; a plug-in game has none)")
    args = parser.parse_args()
    unplanned = sorted(set(args.game or ()) - set(PLANS))
    if unplanned:
        parser.error(f"no players' plan for {', '.join(unplanned)}: the benchmark measures {', '.join(PLANS)}")
    target = yaml.safe_load((HERE / "targets.yaml").read_text())["roundtrips_fewer"]["target"]
    print(f"pbem round trips — {args.games} seeded 4-player games a title, every seat a greedy bot; answers per "
          f"player per game")
    print(f"  {'title':<34}{'without':>9}{'with':>9}{'fewer':>8}   target")
    ok = True
    for game in registry.all_games():
        if game.id not in (args.game or PLANS):
            continue
        rows = measure(game, args.games)
        (without, refill_without, _, _), (with_queues, refill_with, played, stopped) = rows[False], rows[True]
        fewer = 1 - with_queues / without
        met = fewer >= target
        ok &= met
        print(f"  {game.title:<34}{without:9.1f}{with_queues:9.1f}{fewer:8.0%}   >= {target:.0%} "
              f"{'ok' if met else 'MISSED'}")
        if game.id == "heartland-hauling":
            print(f"    of them asked at a refill       {refill_without:9.1f}{refill_with:9.1f}"
                  f"{1 - refill_with / refill_without:8.0%}")
        print(f"    moves played by queues and standing orders: {played:.1f}; queues stopped (asked, told why): "
              f"{stopped:.1f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
