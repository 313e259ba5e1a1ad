"""Deadlines, reminders and vacations: pure functions of (the game's clock record, now).

Time enters only at the edges (`--now` on the command line, else the system clock); everything here takes `now`
as a parameter and returns new data, so each rule is exact and testable. Times are stored as ISO-8601 UTC text to
the second ("2025-12-01T18:00:00Z"); durations as whole seconds.

The clock record lives in the referee's state (`clock`); pbem.text.times says what every player sees of it. A
decision is the time between two accepted submissions: it starts when the previous one was accepted (or the game
began, or the previous decision timed out) and is due `deadline` later — later still by an organiser's extension,
and the clock stops while the player to act is on vacation. A pause stops it for everyone.
"""
from __future__ import annotations

import copy
import datetime
import re

from ..contract import UsageError
from ..messages import lazy
from ..text.times import DAY, UTC, at, format_duration, iso, lazily, parse_time, readable

POLICIES = ("wait", "first-legal", "bot")
DEFAULT_VACATION_DAYS = 14
MAX_TIMEOUTS = 100


# ---------------------------------------------------------------- time at the edges

def utcnow() -> datetime.datetime:
    """The system clock: used only where no --now was given."""
    return datetime.datetime.now(UTC).replace(microsecond=0)


def moment(now) -> datetime.datetime:
    """`now` as given to a command (None: the system clock; text: ISO-8601)."""
    if now is None:
        return utcnow()
    return now if isinstance(now, datetime.datetime) else parse_time(now)


# ---------------------------------------------------------------- the record

def new_clock(deadline: int | None, reminder: int | None = None, on_timeout: str = "wait",
              timeouts: int | None = None, vacation_days: int = DEFAULT_VACATION_DAYS) -> dict:
    """A clock record with these settings and no decision started yet."""
    check_settings(deadline, reminder, on_timeout, timeouts, vacation_days)
    return {"deadline": deadline, "reminder": reminder, "on_timeout": on_timeout, "timeouts": timeouts,
            "vacation_days": vacation_days, "started": None, "extension": 0, "due": None, "reminded": False,
            "paused": None, "credit": {}, "strikes": {}, "vacations": [], "vacation_used": {}}


def timeout_level(clock: dict, player: str) -> str:
    """The level of the bot that plays `player`'s decisions that time out under the `bot` policy (the record's
    `timeout_bots`; a game made before levels has none: its greedy bot plays them, as it always did)."""
    return (clock.get("timeout_bots") or {}).get(player, "greedy")


def check_settings(deadline, reminder, on_timeout, timeouts, vacation_days) -> None:
    if on_timeout not in POLICIES:
        raise UsageError(f"--on-timeout {on_timeout!r}: one of {', '.join(POLICIES)}")
    if reminder is not None and deadline is not None and reminder >= deadline:
        raise UsageError(f"--reminder {format_duration(reminder)} must be shorter than the deadline "
                         f"({format_duration(deadline)}): it is sent that long before the move is due")
    if timeouts is not None and not 1 <= timeouts <= MAX_TIMEOUTS:
        raise UsageError(f"--timeouts {timeouts}: from 1 to {MAX_TIMEOUTS} consecutive timeouts")
    if not 0 <= vacation_days <= 366:
        raise UsageError(f"--vacation-days {vacation_days}: from 0 to 366")


def _vacations_of(clock: dict, player: str) -> list[tuple[datetime.datetime, datetime.datetime]]:
    return sorted((at(v["from"]), at(v["to"])) for v in clock["vacations"] if v["player"] == player)


def due_time(started: datetime.datetime, length: int, vacations) -> datetime.datetime:
    """When a decision of `length` seconds started at `started` is due, the clock stopped during each vacation
    (sorted, not overlapping) of the player: a deadline that would fall inside a vacation falls after it."""
    due = started + datetime.timedelta(seconds=length)
    for start, end in vacations:
        if end <= started:
            continue
        if start >= due:
            break
        due += end - max(start, started)
    return due


def refresh(clock: dict, player: str | None) -> dict:
    """The due time of the current decision (of `player`, None when the game is over) from the record."""
    clock = copy.deepcopy(clock)
    if player is None or clock["deadline"] is None or clock["paused"] or clock["started"] is None:
        clock["due"] = None
        return clock
    length = clock["deadline"] + clock["extension"]
    clock["due"] = iso(due_time(at(clock["started"]), length, _vacations_of(clock, player)))
    return clock


def begin(clock: dict, player: str | None, started: datetime.datetime) -> dict:
    """A new decision of `player` starts at `started`: any extension granted to them beforehand applies to it."""
    clock = copy.deepcopy(clock)
    clock["started"] = iso(started)
    clock["reminded"] = False
    clock["extension"] = clock["credit"].pop(player, 0) if player is not None else 0
    return refresh(clock, player)


def answered(clock: dict, player: str) -> dict:
    """The player moved: their run of consecutive timeouts is over."""
    clock = copy.deepcopy(clock)
    clock["strikes"].pop(player, None)
    return clock


def forget_past(clock: dict, now: datetime.datetime) -> dict:
    """Vacations that are over are dropped from the record (their days stay counted in vacation_used)."""
    clock = copy.deepcopy(clock)
    clock["vacations"] = [v for v in clock["vacations"] if at(v["to"]) > now]
    return clock


# ---------------------------------------------------------------- what a tick must do

def next_event(clock: dict, player: str | None, now: datetime.datetime) -> str | None:
    """'timeout' when the current decision is overdue at `now`, 'remind' when its reminder is due and not sent,
    else None."""
    if player is None or clock.get("due") is None:
        return None
    due = at(clock["due"])
    if now >= due:
        return "timeout"
    if clock["reminder"] and not clock["reminded"] and now >= due - datetime.timedelta(seconds=clock["reminder"]):
        return "remind"
    return None


def strike(clock: dict, player: str) -> tuple[dict, bool]:
    """One more consecutive timeout of `player`; True when it makes them count as resigned."""
    clock = copy.deepcopy(clock)
    clock["strikes"][player] = clock["strikes"].get(player, 0) + 1
    out = clock["timeouts"] is not None and clock["strikes"][player] >= clock["timeouts"]
    return clock, out


# ---------------------------------------------------------------- the organiser's changes

def set_deadline(clock: dict, player: str | None, deadline: int | None = None, reminder: int | None = None,
                 on_timeout: str | None = None, timeouts: int | None = None, no_timeouts: bool = False) -> dict:
    """New settings. A new deadline applies to the current decision too, counted from its start (a decision
    already older than it is overdue at once: the next tick applies the policy)."""
    clock = copy.deepcopy(clock)
    for key, value in (("deadline", deadline), ("reminder", reminder), ("on_timeout", on_timeout),
                       ("timeouts", timeouts)):
        if value is not None:
            clock[key] = value
    if no_timeouts:
        clock["timeouts"] = None
    if reminder is not None:
        clock["reminded"] = False
    check_settings(clock["deadline"], clock["reminder"], clock["on_timeout"], clock["timeouts"],
                   clock["vacation_days"])
    return refresh(clock, player)


def extend(clock: dict, to_act: str | None, player: str, seconds: int) -> dict:
    """More time for `player`: their current decision if they are to act, else their next one."""
    clock = copy.deepcopy(clock)
    if player == to_act:
        clock["extension"] += seconds
        clock["reminded"] = False
    else:
        clock["credit"][player] = clock["credit"].get(player, 0) + seconds
    return refresh(clock, to_act)


def pause(clock: dict, to_act: str | None, now: datetime.datetime) -> dict:
    if clock["paused"]:
        raise UsageError(f"the clock is already paused (since {readable(clock['paused'])})")
    clock = copy.deepcopy(clock)
    clock["paused"] = iso(now)
    return refresh(clock, to_act)


def resume(clock: dict, to_act: str | None, now: datetime.datetime) -> dict:
    """The time the clock stood still is given back: the current decision restarts that much later."""
    if not clock["paused"]:
        raise UsageError("the clock is not paused")
    clock = copy.deepcopy(clock)
    stopped = now - at(clock["paused"])
    if clock["started"] is not None:
        clock["started"] = iso(at(clock["started"]) + max(stopped, datetime.timedelta(0)))
    clock["paused"] = None
    return refresh(clock, to_act)


# ---------------------------------------------------------------- vacations

def parse_span(start: str, end: str, now: datetime.datetime) -> tuple[datetime.datetime, datetime.datetime]:
    """FROM and TO of a vacation: ISO times, or dates (TO's whole day included). One that has begun is counted
    from now."""
    first = parse_time(start, "vacation FROM")
    last = parse_time(end, "vacation TO")
    if re.fullmatch(r"\s*\d{4}-\d{2}-\d{2}\s*", end):
        last += datetime.timedelta(days=1)
    if last <= first:
        raise UsageError(lazy("vacation {start} {end}: it must end after it begins", start=start, end=end))
    if last <= now:
        raise UsageError(lazy("vacation {start} {end}: it is already over", start=start, end=end))
    return max(first, now), last


def _by_year(start: datetime.datetime, end: datetime.datetime) -> dict[str, int]:
    """The seconds of [start, end) in each calendar year (UTC)."""
    spans = {}
    while start < end:
        new_year = datetime.datetime(start.year + 1, 1, 1, tzinfo=UTC)
        stop = min(end, new_year)
        spans[str(start.year)] = spans.get(str(start.year), 0) + int((stop - start).total_seconds())
        start = stop
    return spans


def take_vacation(clock: dict, player: str, to_act: str | None, start: datetime.datetime,
                  end: datetime.datetime) -> dict:
    """Add a vacation of `player`, within their yearly allowance and not overlapping one they already have."""
    for first, last in _vacations_of(clock, player):
        if start < last and first < end:
            # TRANSLATORS: `vacation cancel` is the command as it is typed.
            raise UsageError(lazy("{player} already has a vacation from {start} to {end}: cancel it first (vacation "
                                  "cancel)", player=player, start=lazily(iso(first)), end=lazily(iso(last))))
    clock = copy.deepcopy(clock)
    used = clock["vacation_used"].setdefault(player, {})
    allowance = clock["vacation_days"] * DAY
    for year, seconds in _by_year(start, end).items():
        if used.get(year, 0) + seconds > allowance:
            left = max(0, allowance - used.get(year, 0))
            said = {"player": player, "days": clock["vacation_days"], "year": year, "asked": format_duration(seconds)}
            # TRANSLATORS: {left} and {asked}: durations as a player writes them (3d, 1d12h); {year}: 2026.
            raise UsageError(lazy("{player} may take {days} days of vacation a year in this game; {left} left in "
                                  "{year}, and this vacation asks for {asked} of it", left=format_duration(left),
                                  **said) if left else
                             lazy("{player} may take {days} days of vacation a year in this game; nothing left in "
                                  "{year}, and this vacation asks for {asked} of it", **said))
        used[year] = used.get(year, 0) + seconds
    clock["vacations"].append({"player": player, "from": iso(start), "to": iso(end)})
    clock["vacations"].sort(key=lambda v: (v["from"], v["player"]))
    return refresh(clock, to_act)


def cancel_vacations(clock: dict, player: str, to_act: str | None, now: datetime.datetime) -> tuple[dict, int]:
    """End `player`'s running vacation now and drop their planned ones; the days not taken are given back.
    Returns (the new record, how many vacations were changed)."""
    clock = copy.deepcopy(clock)
    kept, changed = [], 0
    used = clock["vacation_used"].setdefault(player, {})
    for vacation in clock["vacations"]:
        start, end = at(vacation["from"]), at(vacation["to"])
        if vacation["player"] != player or end <= now:
            kept.append(vacation)
            continue
        changed += 1
        for year, seconds in _by_year(max(start, now), end).items():
            used[year] = max(0, used.get(year, 0) - seconds)
        if start < now:
            kept.append({**vacation, "to": iso(now)})
    clock["vacations"] = kept
    return refresh(clock, to_act), changed
