"""Turns, shifts and the phase-card variant's rounds: who plays next, the end of a shift, a new start player."""
from __future__ import annotations

from pbem.decisions import push

from ..scoring import score_shift
from .common import is_phase_game, next_clockwise, refill_display


def begin_shift(state):
    if is_phase_game(state):
        state["phase"] = {"leader": state["start_player"], "domain": None, "cards": {}, "passed": [], "to_pick": []}
        begin_round(state)
    else:
        state["turn"] = state["start_player"]
        push(state, "place_workers", state["start_player"])


def end_turn(state):
    """After a turn's action: refill the emptied spaces (the Chinese rules: at the end of the turn), then the next
    player."""
    refill_display(state)
    if is_phase_game(state):
        continue_round(state)
        return
    nxt = next_clockwise(state, state["turn"])  # players without workers are skipped (the Chinese rules)
    if nxt is None:
        end_shift(state)
    else:
        state["turn"] = nxt
        push(state, "place_workers", nxt)


def end_shift(state):
    """Shift scoring, then (after shifts 1 and 2) a new start player, and every worker comes home."""
    state["turn"] = None
    score_shift(state)
    if state["shift"] >= state["components"]["shifts"]:
        state["over"] = True
        state["phase"] = None
        return
    state["start_player"] = choose_start_player(state)
    return_workers(state)
    state["shift"] += 1
    begin_shift(state)


def return_workers(state):
    for p in state["players"]:
        state["pits"][p]["workers"] = state["components"]["workers"]
        state["canteen"][p] = 0
    for space in state["board"]:
        state["board"][space] = []


def choose_start_player(state):
    """The French rules: most workers on the minecart factory spaces (the draw-5 space included, the canteen not);
    the Chinese rules: on a tie the first tied player clockwise after the old start player, who never keeps it on a
    tie. Nobody in the factory: the next player clockwise (the BoardGameArena implementation)."""
    counts = {p: 0 for p in state["players"]}
    for space, workers in state["board"].items():
        if state["components"]["spaces"][space]["domain"] == "factory":
            for p in workers:
                counts[p] += 1
    old = state["start_player"]
    best = max(counts.values())
    tied = [p for p in state["players"] if counts[p] == best]
    if best > 0 and tied == [old]:
        return old
    players = state["players"]
    i = players.index(old)
    clockwise = [players[(i + k) % len(players)] for k in range(1, len(players))]
    if best == 0:
        return clockwise[0]
    return next(p for p in clockwise if p in tied)


def begin_round(state):
    """Phase-card variant: a round starts with every player who has workers picking a phase card, leader first."""
    phase = state["phase"]
    leader = phase["leader"]
    if state["pits"][leader]["workers"] == 0:
        leader = next_clockwise(state, leader)
    if leader is None:
        end_shift(state)
        return
    players = state["players"]
    i = players.index(leader)
    order = [players[(i + k) % len(players)] for k in range(len(players))]
    phase.update({"leader": leader, "domain": None, "cards": {}, "passed": [],
                  "to_pick": [p for p in order if state["pits"][p]["workers"] > 0]})
    push(state, "pick_phase_card", phase["to_pick"].pop(0))


def continue_round(state):
    """Phase-card variant: after a placement or a pass, the next player clockwise who has not passed and still has
    workers plays in the round's domain; when there is none, the round ends and the lead moves clockwise."""
    phase = state["phase"]
    players = state["players"]
    i = players.index(state["turn"])
    for k in range(1, len(players) + 1):
        p = players[(i + k) % len(players)]
        if p not in phase["passed"] and state["pits"][p]["workers"] > 0:
            state["turn"] = p
            push(state, "place_or_pass", p)
            return
    nxt = next_clockwise(state, phase["leader"])
    if nxt is None:
        end_shift(state)
        return
    phase["leader"] = nxt
    begin_round(state)


def legal_pick(state, frame):
    taken = set(state["phase"]["cards"].values())
    return [{"action": "pick", "card": c} for c in state["components"]["phase_cards"] if c not in taken]


def pick_phase_card(state, frame, move, rng):
    phase = state["phase"]
    phase["cards"][frame["player"]] = move["card"]
    if phase["to_pick"]:
        push(state, "pick_phase_card", phase["to_pick"].pop(0))
    else:
        state["turn"] = phase["leader"]
        push(state, "place_workers", phase["leader"])
