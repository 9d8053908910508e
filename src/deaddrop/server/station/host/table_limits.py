"""Table management rules of issue 4 that station.md leaves to the web app.

Everything about the game itself is the engine's; these only bound what a host and the clock
may do to a table, so that the tools of S40 cannot be turned against the players.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from deaddrop.engine.station.state import PouchRecord

MAX_EXTENSION_PER_DAY = timedelta(hours=24)
# Peers' players reported hosts stretching a day indefinitely to help a friend: the
# extensions of one day add up to at most 24 hours, whatever the number of clicks.

MAX_PAUSE = timedelta(hours=72)
# A pause ends by itself after 72 hours, so a host who vanishes cannot freeze a game forever.

MIN_DAY_MINUTES = 5
MAX_DAY_MINUTES = 24 * 60
# Quick games may run days as short as 5 minutes (issue 4); a day is never longer than 24 h
# (longer stretches are what a pause or an extension is for).

INACTIVE_DAYS = 2
# A living player who saved neither an Operation nor a vote, sent no whisper and posted in no
# channel for two days running is marked inactive on the Roster and the host is prompted to
# replace them; nobody is removed for it.


def is_inactive(
    history: Sequence[PouchRecord],
    seat: int,
    first_full_day: int,
    posted_days: frozenset[int] = frozenset(),
    absent_days: frozenset[int] = frozenset(),
) -> bool:
    """Whether the seat, living at both, did nothing on the last two Pouches of its holder.

    `first_full_day` is the first day the current holder had in full (1, or the day after a
    replacement): the newcomer is not blamed for the days of the one they replaced.
    `posted_days` are the days the seat wrote any chat message. `absent_days` are days a
    stand-in bot played the seat: whatever it saved, its holder was away.
    """
    days = [record for record in history if record.day >= first_full_day][-INACTIVE_DAYS:]
    return len(days) == INACTIVE_DAYS and all(
        seat in record.living and (record.day in absent_days or _quiet(record, seat, posted_days))
        for record in days
    )


def _quiet(record: PouchRecord, seat: int, posted_days: frozenset[int]) -> bool:
    """The seat saved, whispered and posted nothing on the record's day."""
    return (
        record.operations[seat] is None
        and record.votes[seat] is None
        and record.day not in posted_days
        and not any(whisper.sender == seat for whisper in record.whispers)
    )


def allowed_extension(already: timedelta, wanted: timedelta) -> timedelta:
    """How much of `wanted` today's remaining extension allowance still permits."""
    return max(timedelta(0), min(wanted, MAX_EXTENSION_PER_DAY - already))
