"""The posting rate limit, checked by the very statement that stores a message.

`INSERT … SELECT … WHERE (the seat's posts in the window) < RATE_COUNT RETURNING id`: one round
trip instead of a count then an insert, on SQLite and PostgreSQL alike. Within one process the
game's writer lock serializes posts, so the count a post sees includes every post before it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import Integer, String, Text, bindparam, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.base import UTCDateTime
from deaddrop.server.db.driver import send_in
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.station.chat.models import StationMessage

RATE_COUNT = 5
RATE_WINDOW = timedelta(seconds=15)
"""At most RATE_COUNT messages per player per game in any RATE_WINDOW: talk, not a flood."""


class RateLimited(Refused):
    """A post refused only for coming too fast (a bot's is retried later, not dropped)."""


def rate_limited() -> RateLimited:
    """The refusal of a post beyond the rate, saying how long to wait."""
    seconds = int(RATE_WINDOW.total_seconds())
    return RateLimited(
        f"You are posting quickly: at most {RATE_COUNT} messages every {seconds} seconds. "
        "Wait a few seconds, then send it again."
    )


_GAME = bindparam("game", type_=Integer)
_SEAT = bindparam("seat", type_=Integer)
_RECENT = (
    select(func.count(StationMessage.id))
    .where(
        StationMessage.game_id == _GAME,
        StationMessage.seat == _SEAT,
        StationMessage.created_at > bindparam("since", type_=UTCDateTime()),
    )
    .scalar_subquery()
)
_ROW = select(
    _GAME,
    bindparam("channel", type_=String),
    bindparam("day", type_=Integer),
    _SEAT,
    bindparam("text", type_=Text),
    bindparam("created_at", type_=UTCDateTime()),
).where(_RECENT < RATE_COUNT)
_INSERT_WITHIN_RATE = (
    insert(StationMessage.metadata.tables[StationMessage.__tablename__])
    .from_select(["game_id", "channel", "day", "seat", "text", "created_at"], _ROW)
    .returning(StationMessage.id)
)
"""The message's row when the seat has posted fewer than RATE_COUNT in the window: built once."""


async def insert_within_rate(
    db: AsyncSession, game_id: int, seat: int, channel: str, day: int, text: str, now: datetime
) -> int:
    """Store a message unless its seat is over the rate (`RateLimited`); its row id."""
    values = {
        "game": game_id,
        "seat": seat,
        "since": now - RATE_WINDOW,
        "channel": channel,
        "day": day,
        "text": text,
        "created_at": now,
    }
    # Straight through the driver on SQLite (db/driver.py): every post sends it.
    inserted = (await send_in(db, _INSERT_WITHIN_RATE, values)).rows
    if not inserted:
        raise rate_limited()
    return int(inserted[0][0])
