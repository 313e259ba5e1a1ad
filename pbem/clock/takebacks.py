"""Takeback by consent with the clock (pbem.engine.takebacks does the rest): a request is answered within the
game's move deadline, or DEFAULT_ANSWER_TIME in a game without deadlines; an answer that comes later, or the tick
after the deadline, finds it refused. A granted takeback restarts the clock for the player whose decision it is
again, as any turn does.
"""
from __future__ import annotations

import datetime

from ..engine import engine, takebacks
from ..text import times
from . import clock, correspondence, notices
from .correspondence import Restart

DEFAULT_ANSWER_TIME = 2 * times.DAY  # a game without deadlines: two days to answer, the clubs' usual weekend


def answer_time(env: dict) -> int:
    """How long the other players have to answer a takeback: the game's move deadline, else the default."""
    return (env.get("clock") or {}).get("deadline") or DEFAULT_ANSWER_TIME


def request(gd: engine.GameDir, player: str, *, now=None, **how) -> dict:
    """`player` asks to take back their last decision (pbem.engine.takebacks.request), to be answered within the
    game's move deadline from `now`."""
    moment = clock.moment(now)
    until = moment + datetime.timedelta(seconds=answer_time(engine.load_state(gd)))
    restart = Restart(gd, moment)
    return {**takebacks.request(gd, player, times.iso(until), after_turn=restart, **how), "due": restart.due}


def answer(gd: engine.GameDir, player: str, agree: bool, *, now=None, **how) -> dict:
    """`player` agrees to the takeback asked or declines it (pbem.engine.takebacks.answer) at `now`."""
    moment = clock.moment(now)
    restart = Restart(gd, moment)
    result = takebacks.answer(gd, player, agree, times.iso(moment), after_turn=restart, **how)
    return {**result, "due": restart.due}


def expire(gd: engine.GameDir, now, owe: bool = False) -> dict | None:
    """The takeback asked, refused if its deadline has passed at `now` (the tick's). `owe`: the transport will tell
    the players at once, so the refusal is recorded as owed to them with it (pbem.clock.notices), as a tick's
    changes are: a run killed before it told them leaves it to the next."""
    at = times.iso(clock.moment(now))
    owed = (lambda entries: notices.record(gd, at, [], entries)[1]) if owe else None
    return takebacks.expire(gd, at, owed)


def tick(gd: engine.GameDir, now, owe: bool = False) -> tuple[dict, dict | None]:
    """The clock's whole tick of one game, for every transport (`pbem tick`, `pbem git referee --tick`): the
    takeback asked refused once its time has run out (a game without deadlines has one for it too), then every
    overdue decision settled (pbem.clock.correspondence.tick). (The tick's result, the refusal's entries first
    among its entries; the refusal, or None.)"""
    expired = expire(gd, now, owe)
    result = correspondence.tick(gd, now, owe=owe)
    if expired:
        result.update(changed=True, entries=[*expired["entries"], *result["entries"]])
    return result, expired
