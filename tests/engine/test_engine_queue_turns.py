"""A queue's two promises (pbem.play.guards), over whole games of every title played by bots whose every seat
also sends random queues: a queued step is never played in a later turn than the one it was written for, and a
step whose meaning changed since it was sent stops the queue. The turns are told apart as the game declares them
(its `turn`, or a player's run of decisions); the queues are random steps drawn from the moves legal so far."""
from __future__ import annotations

import copy
import random

import pytest

from pbem import bots
from pbem.contract import PbemError
from pbem.play import guards, names, plans, queues, submission, turns
from pbem.rng import Rng
from support import NAMES, playable_games

GAMES = [game for game in playable_games() if game.meta.get("queues")]
SEEDS = ["q1", "q2"]
MORE_SEEDS = [f"q{n}" for n in range(3, 23)]
MAX_SUBMISSIONS = 1500


class Watch:
    """What the test sees as the engine plays: the index of the game's turn at each decision (counted here from
    the game's declared turn, or from the runs of one player's decisions), each player's queued turns as they
    were written, and each queued move as it is played."""

    def __init__(self, game):
        self.game, self.turn, self.last = game, 0, None
        self.declared = plans.vocabulary(game).turn is not None
        self.groups: dict[str, list[dict]] = {}
        self.queued = None  # (player, group) of the queued move about to be applied
        self.counts = {"this turn": 0, "later turn": 0, "meaning stops": 0}

    def value(self, view: dict, player: str):
        return self.game.conditions.turn(view) if self.declared else player

    def applied(self, state: dict, player: str) -> None:
        """A decision of `player` is about to be applied in `state`: a new turn when it opens one."""
        value = self.value(self.game.rules.view(state, None), player)
        if value is not None and value != self.last:
            self.turn, self.last = self.turn + 1, value
        if self.queued is not None:
            self._played(*self.queued)
            self.queued = None

    def _played(self, player: str, index: int) -> None:
        groups = self.groups[player]
        group = groups[index]
        if group["turn"] is None:  # a turn sent for later: it is in the turn its first step is played in
            before = [g["turn"] for g in groups[:index] if g["turn"] is not None]
            assert group["after"] is None or self.turn > group["after"], "a later turn played in the one it was sent"
            assert not before or self.turn > before[-1], "a later turn played in the turn before it"
            group["turn"] = self.turn
        assert self.turn == group["turn"], (f"{player}'s step written for turn {group['turn']} was played in turn "
                                            f"{self.turn}")
        self.counts["this turn" if group["this turn"] else "later turn"] += 1

    def written(self, player: str, record: dict, result: dict, plan, started: bool, sight, unbegun: bool) -> None:
        """A queue replaced the player's: its turns, the first one (what is left of this turn) with its turn."""
        later = len(plan.later())
        now = len(result["turns"]) > later
        turn = None
        if now and not unbegun:
            value = self.value(sight.view("public"), player) if started else None
            turn = self.turn + (1 if value is not None and value != self.last else 0)
        self.groups[player] = ([{"turn": turn, "this turn": not unbegun, "after": None}] if now else []) + \
            [{"turn": None, "this turn": False, "after": None if unbegun else self.turn} for _ in range(later)]


def means(game, alt, sight) -> str:
    """What an alternative's move means now, as the game says it (its report's `meaning`)."""
    if alt.conditions or alt.choice is not None:
        return ""
    meaning = getattr(game.report, "meaning", None)
    return meaning(sight.view("private"), names.spelled(game, alt.move, sight)) if meaning else ""


def check_meanings(game, record: dict, decision: str, sight, players, forced, move, after: dict, watch) -> None:
    """When a queued turn starts or goes on after others' decisions, a move of it whose meaning changed since it
    was sent stops the queue (and the player is told); one whose meaning did not never does."""
    if forced is not None or guards.is_over(record, guards.turn_now(game, sight)) or not record["turns"] \
            or record["started"]:
        return
    vocab = plans.vocabulary(game)
    steps = [plans.parse_step(game, vocab, text.split(), sight.player, players) for text in record["turns"][0]]
    if not vocab.fits(steps[0], decision) or not guards.begins(game, record, sight):
        return  # not meant for this decision, or for a later turn than this one
    said = record.get("said") or {}
    changed = any(said.get(plans.move_text(game, vocab, alt)) not in (None, now) and now
                  for step in steps for alt in step.alternatives for now in [means(game, alt, sight)])
    told = len(after["notices"]) > len(record["notices"]) and " now means " in after["notices"][-1]
    assert (move is None and told) if changed else not told, (record, after)
    watch.counts["meaning stops"] += changed


@pytest.fixture
def watched(monkeypatch):
    """The engine's plays seen by a Watch: every decision applied, every queue written, every answer of one."""
    seen = {}
    real_apply, real_plan, real_answer = turns.apply_decision, queues.with_plan, queues.answer

    def apply(game, state, asked, move, rng, **how):
        seen["watch"].applied(state, asked.player)
        return real_apply(game, state, asked, move, rng, **how)

    def with_plan(game, record, plan, leftover, started, sight, written=guards.UNBEGUN):
        result = real_plan(game, record, plan, leftover, started, sight, written)
        if result["turns"] is not (record or {}).get("turns"):
            seen["watch"].written(sight.player, record, result, plan, started, sight, written is guards.UNBEGUN)
        return result

    def answer(game, record, decision, legal, sight, players, forced=None):
        move, reason, after = real_answer(game, record, decision, legal, sight, players, forced)
        watch = seen["watch"]
        check_meanings(game, record, decision, sight, players, forced, move, after, watch)
        if reason == queues.QUEUED:
            left = len(after["turns"]) + (0 if after.get("started") else 1)
            watch.queued = (sight.player, len(watch.groups[sight.player]) - left)
        return move, reason, after

    for module in (turns, submission):
        monkeypatch.setattr(module, "apply_decision", apply)
    monkeypatch.setattr(queues, "with_plan", with_plan)
    monkeypatch.setattr(queues, "answer", answer)
    return seen


def bot_move(game, state: dict, player: str, rnd: random.Random) -> dict:
    legal = game.rules.legal_moves(state, player)
    if bots.all_random_kind(game, rnd) == "random":
        return game.normalise(bots.instantiate(rnd.choice(legal), rnd))
    return bots.decide(game, "greedy", game.rules.view(state, player), legal, rnd)


def bot_run(game, env: dict, player: str, rnd: random.Random, pool: list[str]) -> tuple[list[str], bool]:
    """The bot's moves for the player's run of decisions, played on a copy with the engine's chance for this move
    number: (their texts, whether the run ended: the decision passed, or new information came)."""
    state, rng, texts = copy.deepcopy(env["state"]), Rng(env["seed"], "t", env["move_number"]), []
    while len(texts) < 30:
        for entry in game.rules.legal_moves(state, player):
            text = game.format_move(entry)
            if not any(isinstance(value, dict) for value in entry.values()) and text not in pool:
                pool.append(text)
        move = bot_move(game, state, player, rnd)
        texts.append(game.format_move(move))
        state = game.rules.apply(state, player, move, rng)
        pending = game.rules.pending(state)
        if pending is None or pending["player"] != player or pending.get("fresh_info"):
            return texts, True
    return texts, False


def random_steps(rnd: random.Random, pool: list[str]) -> list[str]:
    """Steps drawn from the moves seen so far, some ranked (`A else B`), some for the next turn (`next`)."""
    steps = []
    for _ in range(rnd.randint(1, 4)):
        if rnd.random() < 0.2:
            steps.append("next")
        step = rnd.choice(pool[-200:])
        steps.append(f"{step} else {rnd.choice(pool[-200:])}" if rnd.random() < 0.2 else step)
    return steps


def advance(env: dict, state: dict, entries: list[dict], records: dict) -> dict:
    number = entries[-1]["number"] + 1 if entries else env["move_number"]
    return {**env, "state": state, "move_number": number, "queues": records}


def play_with_queues(game, players: list[str], seed: str, watch: Watch) -> None:
    rnd, pool = random.Random(seed), []
    state = game.rules.setup(players, game.resolve_options({}), game.default_components(), Rng(seed, "t", 0))
    env = {"move_number": 1, "seed": seed, "players": players, "resigned": [], "forced_moves": "referee",
           "state": state, "queues": {}}
    env = advance(env, *turns.referee_turns(game, state, env, turns.MoveAt(seed, "t", 1), []))
    for _ in range(MAX_SUBMISSIONS):
        pending = game.rules.pending(env["state"])
        if pending is None:
            return
        if pool and rnd.random() < 0.2:  # a queue sent without a move, by anyone
            other = rnd.choice(players)
            env = advance(env, *submission.queue_submission(game, "t", copy.deepcopy(env), other,
                                                            random_steps(rnd, pool)))
            continue
        texts, ended = bot_run(game, env, pending["player"], rnd, pool)
        extra = random_steps(rnd, pool) if ended and pool and rnd.random() < 0.8 else []
        for sent in ([*texts, *extra], texts) if extra else (texts,):
            try:
                env = advance(env, *submission.play_submission(
                    game, "t", copy.deepcopy(env), submission.Turn(pending["player"], sent), False))
                break
            except PbemError:  # a queued step of a turn that went on at once was not legal: the turn alone
                continue
    raise AssertionError(f"{game.id}: not over after {MAX_SUBMISSIONS} submissions")


def run(game, seed: str, seen: dict) -> Watch:
    seen["watch"] = watch = Watch(game)
    players = NAMES[:min(max(game.min_players, 3), game.max_players)]
    play_with_queues(game, players, seed, watch)
    return watch


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_queues_play_each_step_in_the_turn_it_was_written_for(game, seed, watched):
    watch = run(game, seed, watched)
    assert watch.counts["this turn"] + watch.counts["later turn"] > 0, watch.counts


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.id)
@pytest.mark.parametrize("seed", MORE_SEEDS)
def test_random_queues_over_more_games(game, seed, watched):
    run(game, seed, watched)
