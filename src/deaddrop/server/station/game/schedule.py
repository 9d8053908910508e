"""DST-aware Pouch deadlines for Station games (S40).

A daily game's Pouch is a local time of day in the game's IANA zone, so it stays at 21:00 in
Berlin across the switch to and from summer time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

DAILY_MINUTES = 24 * 60
"""A day length of exactly this many minutes follows the local time of day."""
MIN_GAP = timedelta(hours=12)
"""A daily game's day lasts at least this long: the first day, and the day after a Pouch
that left early (S41), a pause or an extension, run to the next Pouch time at least this far
away instead of one a few minutes off."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """When a game's Pouches leave (S40)."""

    pouch_minute: int
    """The local time of day of a daily game's Pouch, in minutes after midnight."""
    time_zone: str
    """The IANA zone that time is read in."""
    day_minutes: int = DAILY_MINUTES
    """Day length: 1440 follows the local time; shorter days (quick games) run back to back."""

    @property
    def daily(self) -> bool:
        """Whether deadlines follow the local time of day."""
        return self.day_minutes == DAILY_MINUTES


def local_pouch(schedule: Schedule, local_date: date) -> datetime:
    """The Pouch on a local calendar date, as aware UTC.

    A time inside the spring-forward gap (02:30 in Berlin on the last Sunday of March) does
    not exist; zoneinfo reads it with the offset before the change, i.e. one hour later on the
    wall clock (03:30). A time that occurs twice in autumn means its first occurrence.
    """
    zone = ZoneInfo(schedule.time_zone)
    wall = time(schedule.pouch_minute // 60, schedule.pouch_minute % 60)
    return datetime.combine(local_date, wall, tzinfo=zone).astimezone(UTC)


def next_deadline(schedule: Schedule, after: datetime) -> datetime:
    """The Pouch that ends the day beginning at `after` (a start, or the previous Pouch).

    Daily games: the first local Pouch time at least `MIN_GAP` after `after`, so a regular
    day is 23, 24 or 25 hours long across DST changes. Quick games: `after` plus the length.
    """
    if not schedule.daily:
        return after + timedelta(minutes=schedule.day_minutes)
    earliest = after + MIN_GAP
    # Step over local calendar dates, not 24-hour spans, so the wall time stays put across DST.
    local_date = earliest.astimezone(ZoneInfo(schedule.time_zone)).date()
    candidate = local_pouch(schedule, local_date)
    while candidate < earliest:
        local_date += timedelta(days=1)
        candidate = local_pouch(schedule, local_date)
    return candidate
