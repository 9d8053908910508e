"""The pace of a practice game's bots: done for the day as soon as they have decided.

A practice game runs on S41's early Pouch: it leaves once every living player is done. The
random level marks itself done only now and then, which would leave the person waiting on a
bot for the whole day; in a practice game every bot that has decided is done, so the Pouch
waits on the person alone (and, once the person is burned, on nobody).
"""

from __future__ import annotations

from datetime import datetime

from deaddrop.bots.station.base import DayPlan
from deaddrop.engine.station.actions import MarkDone
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.game.schedule import DAILY_MINUTES


def done_when_decided(plan: DayPlan, seat: int) -> DayPlan:
    """The plan with a done mark last (S41), unless it already marks the seat done."""
    if any(isinstance(action, MarkDone) and action.done for action in plan.actions):
        return plan
    return DayPlan((*plan.actions, MarkDone(seat)), plan.posts)


def shown_deadline(game: StationGame) -> datetime | None:
    """The deadline a game's pages count down to: none for a practice game without a day
    length, whose day ends at the person's done mark (S41); its deadline a day away is only
    a backstop, and a countdown of 23 hours would tell the person to wait."""
    if game.practice and game.day_minutes == DAILY_MINUTES:
        return None
    return game.deadline
