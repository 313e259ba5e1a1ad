"""The rules of time (pbem.clock.clock), each on the smallest record that shows it: durations, due times, the clock
stopping for a vacation, the yearly allowance, a pause given back, reminders and timeouts, extensions."""
from __future__ import annotations

import pytest

from pbem.clock import clock
from pbem.contract import UsageError
from pbem.text import times

T0 = times.parse_time("2025-12-01T12:00:00Z")


def hours(n: float):
    import datetime
    return datetime.timedelta(hours=n)


def started(length="72h", reminder="24h", **settings) -> dict:
    record = clock.new_clock(times.parse_duration(length), times.parse_duration(reminder) if reminder else None,
                             **settings)
    return clock.begin(record, "ann", T0)


@pytest.mark.parametrize("text,seconds", [("72h", 259200), ("3d", 259200), ("1d12h", 129600), ("90m", 5400),
                                          ("2h30m", 9000)])
def test_durations_read_days_hours_minutes_and_print_back_the_same(text, seconds):
    assert times.parse_duration(text) == seconds
    assert times.parse_duration(times.format_duration(seconds)) == seconds


@pytest.mark.parametrize("text", ["", "72", "h", "3 days", "-1h", "0m", "400d", "1.5h"])
def test_a_duration_that_is_not_days_hours_minutes_is_a_usage_error(text):
    with pytest.raises(UsageError):
        times.parse_duration(text)


def test_now_is_read_as_utc_whatever_the_offset_and_a_bare_date_is_midnight():
    assert times.iso(times.parse_time("2025-12-01T19:00:00+01:00")) == "2025-12-01T18:00:00Z"
    assert times.iso(times.parse_time("2025-12-01T18:00:00")) == "2025-12-01T18:00:00Z"
    assert times.iso(times.parse_time("2025-12-01")) == "2025-12-01T00:00:00Z"
    with pytest.raises(UsageError):
        times.parse_time("yesterday")


def test_a_decision_is_due_its_deadline_after_it_began():
    assert started()["due"] == "2025-12-04T12:00:00Z"


def test_the_reminder_comes_its_length_before_the_due_time_and_the_timeout_at_it():
    record = started()
    assert clock.next_event(record, "ann", T0 + hours(47)) is None
    assert clock.next_event(record, "ann", T0 + hours(48)) == "remind"
    assert clock.next_event({**record, "reminded": True}, "ann", T0 + hours(71)) is None
    assert clock.next_event({**record, "reminded": True}, "ann", T0 + hours(72)) == "timeout"


def test_a_reminder_must_be_shorter_than_the_deadline():
    with pytest.raises(UsageError, match="shorter than the deadline"):
        started("24h", "24h")


def test_the_clock_stops_during_the_vacation_of_the_player_to_act():
    record = clock.take_vacation(started(), "ann", "ann", T0 + hours(24), T0 + hours(48))
    assert record["due"] == "2025-12-05T12:00:00Z"  # a day of vacation inside the decision: a day later


def test_a_deadline_that_falls_inside_a_vacation_falls_after_it():
    record = clock.take_vacation(started(), "ann", "ann", T0 + hours(60), T0 + hours(120))
    assert times.at(record["due"]) > T0 + hours(120)
    assert record["due"] == "2025-12-07T00:00:00Z"  # 60 h of the deadline before it, the other 12 h after it


def test_another_players_vacation_does_not_move_the_deadline():
    record = clock.take_vacation(started(), "bob", "ann", T0 + hours(24), T0 + hours(48))
    assert record["due"] == "2025-12-04T12:00:00Z"


def test_vacations_are_limited_to_the_yearly_allowance_counted_per_calendar_year():
    record = started(vacation_days=3)
    record = clock.take_vacation(record, "ann", "ann", times.parse_time("2025-12-30"), times.parse_time("2026-01-02"))
    assert record["vacation_used"]["ann"] == {"2025": 2 * 86400, "2026": 86400}
    with pytest.raises(UsageError, match="3 days of vacation a year"):
        clock.take_vacation(record, "ann", "ann", times.parse_time("2025-12-10"), times.parse_time("2025-12-12"))
    clock.take_vacation(record, "ann", "ann", times.parse_time("2026-02-01"), times.parse_time("2026-02-03"))


def test_two_vacations_of_one_player_may_not_overlap():
    record = clock.take_vacation(started(), "ann", "ann", T0 + hours(24), T0 + hours(48))
    with pytest.raises(UsageError, match="already has a vacation"):
        clock.take_vacation(record, "ann", "ann", T0 + hours(40), T0 + hours(50))


def test_a_vacation_given_as_dates_includes_its_last_day_and_one_begun_counts_from_now():
    first, last = clock.parse_span("2025-11-30", "2025-12-02", T0)
    assert (times.iso(first), times.iso(last)) == ("2025-12-01T12:00:00Z", "2025-12-03T00:00:00Z")
    with pytest.raises(UsageError, match="already over"):
        clock.parse_span("2025-11-01", "2025-11-02", T0)


def test_cancelling_a_running_vacation_ends_it_now_and_gives_back_the_days_not_taken():
    record = clock.take_vacation(started(), "ann", "ann", T0, T0 + hours(48))
    record, changed = clock.cancel_vacations(record, "ann", "ann", T0 + hours(12))
    assert changed == 1
    assert record["vacations"] == [{"player": "ann", "from": "2025-12-01T12:00:00Z", "to": "2025-12-02T00:00:00Z"}]
    assert record["vacation_used"]["ann"]["2025"] == 12 * 3600
    assert record["due"] == "2025-12-05T00:00:00Z"  # the 12 hours taken still stop the clock


def test_a_pause_stops_the_clock_and_resuming_gives_the_stopped_time_back():
    record = clock.pause(started(), "ann", T0 + hours(10))
    assert record["due"] is None and clock.next_event(record, "ann", T0 + hours(500)) is None
    record = clock.resume(record, "ann", T0 + hours(34))
    assert record["due"] == "2025-12-05T12:00:00Z"


def test_an_extension_moves_the_current_decision_of_the_player_to_act_or_the_next_of_another():
    record = clock.extend(started(), "ann", "ann", 86400)
    assert record["due"] == "2025-12-05T12:00:00Z"
    record = clock.extend(started(), "ann", "bob", 86400)
    assert record["due"] == "2025-12-04T12:00:00Z" and record["credit"] == {"bob": 86400}
    record = clock.begin(record, "bob", T0)
    assert record["due"] == "2025-12-05T12:00:00Z" and record["credit"] == {}


def test_a_new_deadline_counts_from_the_current_decisions_start():
    record = clock.set_deadline(started(), "ann", deadline=times.parse_duration("24h"), reminder=3600)
    assert record["due"] == "2025-12-02T12:00:00Z"


def test_consecutive_timeouts_reach_the_limit_and_a_move_ends_the_run():
    record = started(timeouts=2)
    record, out = clock.strike(record, "ann")
    assert not out
    record, out = clock.strike(clock.answered(record, "ann"), "ann")
    assert not out  # she moved in between: the run started again
    record, out = clock.strike(record, "ann")
    assert out


def test_the_public_clock_shows_the_settings_the_due_time_vacations_and_strikes_in_words():
    record = clock.take_vacation(started(timeouts=3), "bob", "ann", T0 + hours(1), T0 + hours(30))
    record, _ = clock.strike(record, "ann")
    shown = times.public(record)
    assert shown["deadline"] == "3d" and shown["reminder"] == "1d" and shown["due"] == "2025-12-04T12:00:00Z"
    lines = times.summary_lines(shown, "ann", T0 + hours(2))
    assert lines[0].startswith("ann must move by Thu 4 Dec 2025 12:00 UTC (in 2 days)")
    assert "bob is on vacation until Tue 2 Dec 2025 18:00 UTC." in lines
    assert "ann has missed 1 deadline in a row (resigned after 3)." in lines
