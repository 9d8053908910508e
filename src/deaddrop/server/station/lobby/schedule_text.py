"""The Pouch schedule in words for the new-game form and the lobby (S40): the first Pouch.

Worked out by `clock.next_deadline`, the function `do_start` sets Day 1's deadline with, so
what the lobby promises is what starting the game then gives (the 12-hour minimum included).
"""

from __future__ import annotations

from datetime import datetime

from deaddrop.server.accounts.checks import InvalidField, check_time_zone
from deaddrop.server.station.game.schedule import MIN_GAP, Schedule, next_deadline
from deaddrop.server.station.lobby.forms import NewGameForm, check_pouch_time
from deaddrop.server.station.tabs.context import _zone, when_text
from deaddrop.server.words import counted


def duration_text(minutes: int) -> str:
    """A day length in words: "1 hour", "12 hours", "30 minutes"."""
    if minutes % 60 == 0:
        return counted(minutes // 60, "hour")
    return counted(minutes, "minute")


def first_pouch(schedule: Schedule, now: datetime) -> dict[str, str]:
    """When the first Pouch would leave if the game started `now`, in words (S40).

    The same `next_deadline` that `do_start` calls decides it, so a daily game started in the
    evening is told here that Day 1 runs to the next day (the 12-hour minimum).
    """
    if not schedule.daily:
        return {"first": f"{duration_text(schedule.day_minutes)} after the start"}
    return {
        "first": when_text(next_deadline(schedule, now), _zone(schedule.time_zone)),
        "daily": f"{schedule.pouch_minute // 60:02d}:{schedule.pouch_minute % 60:02d}",
        "min_hours": str(int(MIN_GAP.total_seconds() // 3600)),
    }


def form_first_pouch(form: NewGameForm, now: datetime) -> dict[str, str] | None:
    """The first Pouch of a daily game with the form's time and zone, or None while invalid."""
    try:
        schedule = Schedule(check_pouch_time(form.pouch_time), check_time_zone(form.time_zone))
    except InvalidField:
        return None
    return first_pouch(schedule, now)
