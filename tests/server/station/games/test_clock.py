"""Deadlines on the wall clock of the game's zone (S40), across summer time both ways."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from deaddrop.server.station.game.schedule import Schedule, next_deadline
from deaddrop.server.station.host.table_limits import MAX_EXTENSION_PER_DAY, allowed_extension
from deaddrop.server.testing.clocks import ManualClock

BERLIN_21 = Schedule(21 * 60, "Europe/Berlin")


def _days(schedule: Schedule, start: datetime, count: int) -> list[datetime]:
    out, moment = [], start
    for _ in range(count):
        moment = next_deadline(schedule, moment)
        out.append(moment)
    return out


def test_march_the_day_of_the_switch_is_23_hours_at_21_00_on_the_wall() -> None:
    days = _days(BERLIN_21, datetime(2026, 3, 27, 20, 0, tzinfo=UTC), 3)
    assert days == [
        datetime(2026, 3, 28, 20, 0, tzinfo=UTC),  # CET, UTC+1
        datetime(2026, 3, 29, 19, 0, tzinfo=UTC),  # CEST, UTC+2: 23 hours later
        datetime(2026, 3, 30, 19, 0, tzinfo=UTC),
    ]


def test_october_the_day_of_the_switch_is_25_hours() -> None:
    days = _days(BERLIN_21, datetime(2026, 10, 23, 19, 0, tzinfo=UTC), 3)
    assert days == [
        datetime(2026, 10, 24, 19, 0, tzinfo=UTC),
        datetime(2026, 10, 25, 20, 0, tzinfo=UTC),  # 25 hours later
        datetime(2026, 10, 26, 20, 0, tzinfo=UTC),
    ]


def test_a_pouch_time_inside_the_spring_gap_lands_an_hour_later_on_the_wall() -> None:
    schedule = Schedule(2 * 60 + 30, "Europe/Berlin")  # 02:30 does not exist on 29 March
    day = next_deadline(schedule, datetime(2026, 3, 28, 1, 30, tzinfo=UTC))
    assert day == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 03:30 CEST
    assert next_deadline(schedule, day) == datetime(2026, 3, 30, 0, 30, tzinfo=UTC)


def test_a_pouch_time_that_happens_twice_means_the_first() -> None:
    schedule = Schedule(2 * 60 + 30, "Europe/Berlin")
    day = next_deadline(schedule, datetime(2026, 10, 24, 0, 30, tzinfo=UTC))
    assert day == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 CEST, before the repeat


def test_the_first_day_lasts_at_least_twelve_hours() -> None:
    assert next_deadline(BERLIN_21, datetime(2026, 3, 27, 19, 55, tzinfo=UTC)) == datetime(
        2026, 3, 28, 20, 0, tzinfo=UTC
    )
    assert next_deadline(BERLIN_21, datetime(2026, 3, 27, 7, 0, tzinfo=UTC)) == datetime(
        2026, 3, 27, 20, 0, tzinfo=UTC
    )


@pytest.mark.parametrize("minutes", [5, 30, 12 * 60])
def test_quick_games_run_days_back_to_back(minutes: int) -> None:
    schedule = Schedule(21 * 60, "Europe/Berlin", minutes)
    start = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)  # across the switch: no effect
    assert _days(schedule, start, 3) == [start + timedelta(minutes=minutes * n) for n in (1, 2, 3)]


def test_other_zones_follow_their_own_rules() -> None:
    new_york = Schedule(20 * 60, "America/New_York")  # switches on 8 March 2026
    assert _days(new_york, datetime(2026, 3, 7, 1, 0, tzinfo=UTC), 2) == [
        datetime(2026, 3, 8, 1, 0, tzinfo=UTC),  # Saturday 20:00 EST, UTC-5
        datetime(2026, 3, 9, 0, 0, tzinfo=UTC),  # Sunday 20:00 EDT, UTC-4: 23 hours later
    ]


def test_the_manual_clock_only_moves_when_told() -> None:
    clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC))
    assert clock.now() == clock.now()
    assert clock.advance(timedelta(minutes=5)) == datetime(2026, 1, 1, 0, 5, tzinfo=UTC)
    with pytest.raises(ValueError):
        ManualClock(datetime(2026, 1, 1))


def test_extension_allowance() -> None:
    hour = timedelta(hours=1)
    assert allowed_extension(timedelta(0), 6 * hour) == 6 * hour
    assert allowed_extension(20 * hour, 6 * hour) == 4 * hour
    assert allowed_extension(MAX_EXTENSION_PER_DAY, hour) == timedelta(0)
