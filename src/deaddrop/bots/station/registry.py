"""The Station bot levels by name: a small table, so a new level is one more row."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from deaddrop.bots.station import random_bot
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A

DecideDay = Callable[[Mapping[str, Any], Rng], tuple[list[A.Action], Rng]]
"""A level: from one seat's view (a JSON round-trip copy, S42) and its own generator, the day's
saves for that seat (Operation or order, vote, whispers, done mark) and the generator after."""

LEVELS: dict[str, DecideDay] = {
    "random": random_bot.decide_day,
}


class UnknownLevel(ValueError):
    """A bot level that does not exist."""


def level(name: str) -> DecideDay:
    """The bot level of this name; UnknownLevel (one line naming the known ones) otherwise."""
    try:
        return LEVELS[name]
    except KeyError:
        known = ", ".join(sorted(LEVELS))
        raise UnknownLevel(f"unknown bot level {name!r} (known: {known})") from None
