"""The posting rate limit, checked by the very statement that stores a message.

`INSERT … SELECT … WHERE (the seat's posts in the window) < most RETURNING id`: one round
trip instead of a count then an insert, on SQLite and PostgreSQL alike. Within one process the
game's writer lock serializes posts, so the count a post sees includes every post before it.
The limit is the app's (`ChatRate` in `db.info`: a host may set it, `settings.py`), RATE_COUNT
in RATE_WINDOW unless set.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Integer, String, Text, bindparam, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.base import UTCDateTime
from deaddrop.server.db.driver import send_in
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.settings import Settings
from deaddrop.server.station.chat.models import StationMessage

RATE_COUNT = 5
RATE_WINDOW = timedelta(seconds=15)
"""At most RATE_COUNT messages per player per game in any RATE_WINDOW: talk, not a flood."""
UNLIMITED = 2**31 - 1
"""The most posts of a window when there is no limit (the largest of an SQL INTEGER): the same
statement runs, and never refuses."""


@dataclass(frozen=True)
class ChatRate:
    """The posting limit of an app: at most `count` messages per player per game in any
    `window` (a count of 0: no limit)."""

    count: int = RATE_COUNT
    window: timedelta = RATE_WINDOW

    @property
    def most(self) -> int:
        """The posts a window holds at most."""
        return self.count if self.count > 0 else UNLIMITED


def chat_rate(settings: Settings) -> ChatRate:
    """The posting limit `settings` set (`CHAT_POSTS_PER_WINDOW`, `CHAT_WINDOW_SECONDS`)."""
    window = timedelta(seconds=settings.chat_window_seconds)
    return ChatRate(settings.chat_posts_per_window, window)


CHAT_RATE_KEY = "chat_rate"
"""Where an app's sessions (`db.info`) hold its `ChatRate` (the default one if none)."""


def chat_rate_of(db: AsyncSession) -> ChatRate:
    """The posting limit of the app whose sessions `db` is one of."""
    found = db.info.get(CHAT_RATE_KEY)
    return found if isinstance(found, ChatRate) else ChatRate()


class RateLimited(Refused):
    """A post refused only for coming too fast (a bot's is retried later, not dropped)."""


def rate_limited(rate: ChatRate) -> RateLimited:
    """The refusal of a post beyond the rate, saying how long to wait."""
    seconds = int(rate.window.total_seconds())
    return RateLimited(
        f"You are posting quickly: at most {rate.count} messages every {seconds} seconds. "
        "Wait a few seconds, then send it again."
    )


_GAME = bindparam("game", type_=Integer)
_SEAT = bindparam("seat", type_=Integer)
_MOST = bindparam("most", type_=Integer)
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
).where(_RECENT < _MOST)
INSERT_WITHIN_RATE = (
    insert(StationMessage.metadata.tables[StationMessage.__tablename__])
    .from_select(["game_id", "channel", "day", "seat", "text", "created_at"], _ROW)
    .returning(StationMessage.id)
)
"""The message's row when the seat has posted fewer than `most` in the window (values:
`within_rate_values`), its id returned: built once."""


def within_rate_values(
    rate: ChatRate, game_id: int, seat: int, channel: str, day: int, text: str, now: datetime
) -> dict[str, Any]:
    """The values of `INSERT_WITHIN_RATE` for one message posted `now` under `rate`."""
    return {
        "game": game_id,
        "seat": seat,
        "most": rate.most,
        "since": now - rate.window,
        "channel": channel,
        "day": day,
        "text": text,
        "created_at": now,
    }


async def insert_within_rate(db: AsyncSession, values: dict[str, Any], rate: ChatRate) -> int:
    """Store a message (`within_rate_values`) unless its seat is over `rate` (`RateLimited`);
    its row id."""
    # Straight through the driver on SQLite (db/driver.py): every post sends it.
    inserted = (await send_in(db, INSERT_WITHIN_RATE, values)).rows
    if not inserted:
        raise rate_limited(rate)
    return int(inserted[0][0])
