"""Times and durations as people read and write them, and the clock as every player sees it.

Durations in and out ('72h', '3d' and 259200 seconds; '3 days' in a sentence), times in and out (ISO-8601 UTC
text to the second, as the clock record stores them, and 'Mon 1 Dec 2025 18:00 UTC' in a sentence), the part of
the clock record every player may read (`public`: public.yaml and each view carry it) and the lines a report
prints about it. The clock's rules (pbem.clock.clock) keep the record; what is said of it is said here.
"""
from __future__ import annotations

import datetime
import re

from ..contract import UsageError
from .phrases import plural

UTC = datetime.timezone.utc
DAY = 86400
MIN_DURATION, MAX_DURATION = 60, 366 * DAY
UNITS = {"d": DAY, "h": 3600, "m": 60}
DURATION = re.compile(r"(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?")
POLICY_TEXT = {"wait": "the referee reminds you again and waits",
               "first-legal": "the referee plays your first legal move for that decision",
               "bot": "the referee's bot plays that decision for you"}
POLICY_TEXT_OF = {"wait": "the referee reminds {player} and waits",  # the same, of a player, for everyone to read
                  "first-legal": "the referee plays {player}'s first legal move",
                  "bot": "the referee's bot plays for {player}"}


def parse_duration(text: str, what: str = "duration") -> int:
    """'72h', '3d', '1d12h', '90m' -> seconds (a minute to a year)."""
    spec = str(text).strip().lower().replace(" ", "")
    match = DURATION.fullmatch(spec)
    if not spec or not match or not any(match.groups()):
        raise UsageError(f"{what} {text!r}: write days, hours and minutes like 72h, 3d, 1d12h or 90m")
    seconds = sum(int(value) * UNITS[unit] for value, unit in zip(match.groups(), "dhm") if value)
    if not MIN_DURATION <= seconds <= MAX_DURATION:
        raise UsageError(f"{what} {text!r}: between 1 minute and 366 days")
    return seconds


def plain_duration(seconds: int) -> str:
    """Seconds in words: 259200 -> '3 days', 129600 -> '1 day 12 hours'."""
    days, rest = divmod(int(seconds), DAY)
    hours, rest = divmod(rest, 3600)
    parts = [plural(n, unit) for n, unit in ((days, "day"), (hours, "hour"), (rest // 60, "minute")) if n]
    return " ".join(parts) or "0 minutes"


def format_duration(seconds: int) -> str:
    """Seconds as the shortest text parse_duration reads back: 259200 -> '3d', 129600 -> '1d12h'."""
    days, rest = divmod(int(seconds), DAY)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    return "".join(f"{n}{unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if n) or "0m"


def parse_time(text: str, what: str = "--now") -> datetime.datetime:
    """An ISO-8601 time ('2025-12-01T18:00:00Z', '+01:00' offsets, a bare date = its midnight) in UTC. A time
    without an offset is read as UTC."""
    spec = str(text).strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", spec):
            value = datetime.datetime.fromisoformat(spec + "T00:00:00")
        else:
            value = datetime.datetime.fromisoformat(spec.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise UsageError(f"{what} {spec[:40]!r}: not an ISO-8601 time (like 2025-12-01T18:00:00Z)") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).replace(microsecond=0)


def iso(moment: datetime.datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def at(text: str) -> datetime.datetime:
    """A time written by `iso` back as a datetime."""
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def readable(text: str) -> str:
    """'2025-12-01T18:00:00Z' -> 'Mon 1 Dec 2025 18:00 UTC'."""
    value = at(text)
    return f"{value:%a} {value.day} {value:%b %Y %H:%M} UTC"


def until(text: str, now: datetime.datetime) -> str:
    """How far a due time is from now, in the largest sensible unit: 'in 2 days', 'in 5 hours', '3 hours ago'."""
    seconds = int((at(text) - now).total_seconds())
    span = abs(seconds)
    for size, unit in ((DAY, "day"), (3600, "hour"), (60, "minute")):
        if span >= size or unit == "minute":
            words = plural(span // size, unit)
            break
    return f"in {words}" if seconds >= 0 else f"{words} ago"


def due_phrase(player: str, due: str, now: datetime.datetime | None = None) -> str:
    """'ann must move by Mon 1 Dec 2025 18:00 UTC (in 2 days)'."""
    return f"{player} must move by {readable(due)}" + (f" ({until(due, now)})" if now is not None else "")


def public(clock: dict) -> dict:
    """The clock as every player sees it (public.yaml and each view): settings, the due time, a pause, the
    vacations not yet over and who has missed deadlines in a row."""
    return {"deadline": format_duration(clock["deadline"]) if clock["deadline"] else None,
            "reminder": format_duration(clock["reminder"]) if clock["reminder"] else None,
            "on_timeout": clock["on_timeout"], "timeouts": clock["timeouts"],
            "vacation_days": clock["vacation_days"], "due": clock["due"], "paused": clock["paused"],
            "vacations": [dict(v) for v in clock["vacations"]],
            "strikes": {player: n for player, n in sorted(clock["strikes"].items()) if n}}


def summary_lines(shown: dict, to_act: str | None, now: datetime.datetime | None = None) -> list[str]:
    """The lines a report prints about the clock (from `public`'s data)."""
    lines = []
    if shown["paused"]:
        lines.append(f"The clock is paused (since {readable(shown['paused'])}).")
    elif shown["due"] and to_act:
        then = POLICY_TEXT_OF[shown["on_timeout"]].format(player=to_act)
        lines.append(due_phrase(to_act, shown["due"], now) + f"; if no move has arrived by then, {then} "
                     f"({plain_duration(parse_duration(shown['deadline']))} a decision).")
    for vacation in shown["vacations"]:
        if now is not None and at(vacation["to"]) <= now:
            continue  # over (the record forgets it at its next change)
        running = now is not None and at(vacation["from"]) <= now
        lines.append(f"{vacation['player']} {'is' if running else 'will be'} on vacation "
                     f"{'until' if running else 'from ' + readable(vacation['from']) + ' to'} "
                     f"{readable(vacation['to'])}.")
    for player, count in shown["strikes"].items():
        limit = f" (resigned after {shown['timeouts']})" if shown["timeouts"] else ""
        lines.append(f"{player} has missed {plural(count, 'deadline')} in a row{limit}.")
    return lines
