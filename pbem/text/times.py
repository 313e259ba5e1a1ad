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
from ..messages import N_, _, lazy, ngettext, pgettext
from . import language

UTC = datetime.timezone.utc
DAY = 86400
MIN_DURATION, MAX_DURATION = 60, 366 * DAY
UNITS = {"d": DAY, "h": 3600, "m": 60}
DURATION = r"(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?"  # compiled at its first use
# What the referee does when a move is late (the clock's on_timeout), said to the late player (POLICY_TEXT) and
# of a player, for everyone to read (POLICY_TEXT_OF): the English msgids, rendered by `policy_text`.
POLICY_TEXT = {"wait": N_("the referee reminds you again and waits"),
               "first-legal": N_("the referee plays your first legal move for that decision"),
               "bot": N_("the referee's bot plays that decision for you")}
POLICY_TEXT_OF = {"wait": N_("the referee reminds {player} and waits"),
                  "first-legal": N_("the referee plays {player}'s first legal move"),
                  "bot": N_("the referee's bot plays for {player}")}


def parse_duration(text: str, what: str = "duration") -> int:
    """'72h', '3d', '1d12h', '90m' -> seconds (a minute to a year)."""
    spec = str(text).strip().lower().replace(" ", "")
    match = re.fullmatch(DURATION, spec)
    if not spec or not match or not any(match.groups()):
        raise UsageError(f"{what} {text!r}: write days, hours and minutes like 72h, 3d, 1d12h or 90m")
    seconds = sum(int(value) * UNITS[unit] for value, unit in zip(match.groups(), "dhm") if value)
    if not MIN_DURATION <= seconds <= MAX_DURATION:
        raise UsageError(f"{what} {text!r}: between 1 minute and 366 days")
    return seconds


def plain_duration(seconds: int) -> str:
    """Seconds in words, in the language being read: 259200 -> '3 days', 129600 -> '1 day 12 hours'."""
    days, rest = divmod(int(seconds), DAY)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [said(n) for n, said in ((days, _days), (hours, _hours), (minutes, _minutes)) if n]
    # TRANSLATORS: between the parts of a duration ("1 day 12 hours"; an empty translation is not used).
    return pgettext("duration separator", " ").join(parts) if parts else ngettext("{count} minute",
                                                                                  "{count} minutes", 0, count=0)


def _days(n: int) -> str:
    return ngettext("{count} day", "{count} days", n, count=n)


def _hours(n: int) -> str:
    return ngettext("{count} hour", "{count} hours", n, count=n)


def _minutes(n: int) -> str:
    return ngettext("{count} minute", "{count} minutes", n, count=n)


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
        raise UsageError(lazy("{what} {time}: not an ISO-8601 time (like 2025-12-01T18:00:00Z)", what=what,
                              time=repr(spec[:40]))) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).replace(microsecond=0)


def iso(moment: datetime.datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def at(text: str) -> datetime.datetime:
    """A time written by `iso` back as a datetime."""
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def readable(text: str) -> str:
    """'2025-12-01T18:00:00Z' -> 'Mon 1 Dec 2025 18:00 UTC' in English, in the language being read (CLDR's
    formats, pbem.text.language.when): 'lundi 1 décembre 2025 à 18:00 UTC', '2025年12月1日 18:00 UTC'."""
    return language.when(at(text))


def lazily(text: str) -> language.When:
    """A time written by `iso` as a message's parameter, said in its reader's language when rendered."""
    return language.When(at(text))


def until(text: str, now: datetime.datetime) -> str:
    """How far a due time is from now, in the largest sensible unit: 'in 2 days', 'in 5 hours', '3 hours ago'."""
    seconds = int((at(text) - now).total_seconds())
    span = abs(seconds)
    ahead = seconds >= 0
    if span >= DAY:
        n = span // DAY
        return ngettext("in {count} day", "in {count} days", n, count=n) if ahead else \
            ngettext("{count} day ago", "{count} days ago", n, count=n)
    if span >= 3600:
        n = span // 3600
        return ngettext("in {count} hour", "in {count} hours", n, count=n) if ahead else \
            ngettext("{count} hour ago", "{count} hours ago", n, count=n)
    n = span // 60
    return ngettext("in {count} minute", "in {count} minutes", n, count=n) if ahead else \
        ngettext("{count} minute ago", "{count} minutes ago", n, count=n)


def due_phrase(player: str, due: str, now: datetime.datetime | None = None) -> str:
    """'ann must move by Mon 1 Dec 2025 18:00 UTC (in 2 days)'."""
    if now is None:
        return _("{player} must move by {date}", player=player, date=readable(due))
    # TRANSLATORS: {until}: how far the date is from now ("in 2 days", "3 hours ago").
    return _("{player} must move by {date} ({until})", player=player, date=readable(due), until=until(due, now))


def policy_text(policy: str, player: str | None = None) -> str:
    """What the referee does with a late move (the clock's on_timeout), said to the late player (`player` None)
    or of `player`, in the language being read."""
    if player is None:
        return _(POLICY_TEXT.get(policy, POLICY_TEXT["wait"]))
    return _(POLICY_TEXT_OF.get(policy, POLICY_TEXT_OF["wait"]), player=player)


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
    """The lines a report prints about the clock (from `public`'s data), in the language being read."""
    lines = []
    if shown["paused"]:
        lines.append(_("The clock is paused (since {date}).", date=readable(shown["paused"])))
    elif shown["due"] and to_act:
        # TRANSLATORS: {due}: "ann must move by <date> (in 2 days)"; {then}: what the referee does then ("the
        # referee plays ann's first legal move"); {duration}: the time each decision is given ("3 days").
        lines.append(_("{due}; if no move has arrived by then, {then} ({duration} a decision).",
                       due=due_phrase(to_act, shown["due"], now), then=policy_text(shown["on_timeout"], to_act),
                       duration=plain_duration(parse_duration(shown["deadline"]))))
    for vacation in shown["vacations"]:
        if now is not None and at(vacation["to"]) <= now:
            continue  # over (the record forgets it at its next change)
        if now is not None and at(vacation["from"]) <= now:
            lines.append(_("{player} is on vacation until {date}.", player=vacation["player"],
                           date=readable(vacation["to"])))
        else:
            lines.append(_("{player} will be on vacation from {start} to {end}.", player=vacation["player"],
                           start=readable(vacation["from"]), end=readable(vacation["to"])))
    for player, count in shown["strikes"].items():
        if shown["timeouts"]:
            # TRANSLATORS: {limit}: the number of missed deadlines in a row after which a player is resigned.
            lines.append(ngettext("{player} has missed {count} deadline in a row (resigned after {limit}).",
                                  "{player} has missed {count} deadlines in a row (resigned after {limit}).",
                                  count, player=player, count=count, limit=shown["timeouts"]))
        else:
            lines.append(ngettext("{player} has missed {count} deadline in a row.",
                                  "{player} has missed {count} deadlines in a row.", count, player=player,
                                  count=count))
    return lines
