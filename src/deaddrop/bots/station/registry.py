"""The Station bot levels by name: a small table, so a new level is one more row."""

from __future__ import annotations

from deaddrop.bots.station import expert, heuristic, random_bot
from deaddrop.bots.station.base import DayBot

LEVELS: dict[str, DayBot] = {
    "expert": expert.plan_day,
    "heuristic": heuristic.plan_day,
    "random": random_bot.plan_day,
}


class UnknownLevel(ValueError):
    """A bot level that does not exist."""


def level(name: str) -> DayBot:
    """The bot level of this name; UnknownLevel (one line naming the known ones) otherwise."""
    try:
        return LEVELS[name]
    except KeyError:
        known = ", ".join(sorted(LEVELS))
        raise UnknownLevel(f"unknown bot level {name!r} (known: {known})") from None
