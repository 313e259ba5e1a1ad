"""A whole game in which one seat never answers finishes under each timeout policy: alice plays her turns, bob
never does, and the clock (ticks at each due time) settles his decisions. The game ends, verifies, and every one
of bob's entries is the referee's, with the policy's reason.

`first-legal` settles every one of bob's decisions by timeout to the end of the game; `wait` needs a limit of
timeouts in a row to end (then the seat counts as resigned and the referee plays it); `bot` is given a limit too,
after six of its moves, to keep the suite's time (each timeout is a tick and a transaction)."""
from __future__ import annotations

import copy
import datetime

import pytest

from pbem import bots
from pbem.clock import clock, correspondence
from pbem.engine import engine
from pbem.rng import Rng
from pbem.text import times

T0 = times.parse_time("2025-12-01T12:00:00Z")
MAX_STEPS = 2000


def alice_turn(gd: engine.GameDir, state: dict) -> list[str]:
    """Alice's consecutive decisions, as one submission: the first legal move of each, until the turn passes or
    she must see something new."""
    game, moves = gd.game, []
    rng = Rng("alice does not know the seed", gd.id, 0)
    while (pending := game.rules.pending(state)) and pending["player"] == "alice" \
            and not (moves and pending.get("fresh_info")):
        move = bots.first_legal(game.rules.legal_moves(state, "alice"))
        moves.append(game.format_move(game.normalise(move)))
        state = game.rules.apply(copy.deepcopy(state), "alice", game.normalise(move), rng)
        if rng.outcomes:
            break
    return moves


@pytest.mark.parametrize("policy,extra", [("wait", {"timeouts": 2}), ("first-legal", {}), ("bot", {"timeouts": 7})])
def test_a_game_whose_silent_seat_never_answers_finishes_under_each_policy(tmp_path, policy, extra):
    directory = tmp_path / "silent"
    correspondence.create("coal-baron", directory, [("alice", None), ("bob", None)], seed=f"silent-{policy}",
                          deadlines=clock.new_clock(48 * 3600, 12 * 3600, policy, **extra), now=T0)
    gd = engine.open_game(directory)
    now, ticks = T0, 0
    for _ in range(MAX_STEPS):
        env = engine.load_state(gd)
        pending = gd.game.rules.pending(env["state"])
        if pending is None:
            break
        if pending["player"] == "alice":
            now += datetime.timedelta(hours=1)
            correspondence.submit(gd, "alice", alice_turn(gd, env["state"]), by="referee", now=now)
        else:
            now = times.at(env["clock"]["due"])
            assert correspondence.tick(gd, now)["changed"]
            ticks += 1
    else:
        pytest.fail("the game did not end")
    assert engine.verify(gd)["finished"]
    bobs = [e for e in engine.read_log(gd, full=True)["entries"] if e["player"] == "bob"]
    assert bobs and all(e["by"] == "referee" for e in bobs)
    if policy == "wait":  # two timeouts, then resigned: the referee played his seat from then on, at once
        assert ticks == 2 and bobs[0]["moves"] == ["resign"] and bobs[0]["reason"] == "2 consecutive timeouts"
        assert engine.status(gd)["ranking"][-1]["player"] == "bob"
    elif policy == "bot":
        assert [e.get("reason") for e in bobs[:7]] == ["timeout (bot)"] * 6 + ["7 consecutive timeouts"]
        assert ticks == 7
    else:
        assert all(e["reason"] == f"timeout ({policy})" for e in bobs) and ticks == len(bobs)
