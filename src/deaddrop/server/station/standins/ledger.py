"""What the stand-in records say: the open stand-in of a seat, the days a bot stood in (which
count as the person's absence), and the notices' kinds."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.station.standins.models import StationStandIn

STARTED = "stand_in"
"""The announcement kind of a bot starting to stand in (S42: whether a bot plays is public)."""
BACK = "stand_in_back"
"""The announcement kind of a person taking their seat back."""
KINDS = frozenset({STARTED, BACK})
"""The notices the Floor shows."""


async def open_stand_in(db: AsyncSession, game_id: int, seat: int) -> StationStandIn | None:
    """The stand-in now playing this seat, if any."""
    found: StationStandIn | None = await db.scalar(
        select(StationStandIn).where(
            StationStandIn.game_id == game_id,
            StationStandIn.seat == seat,
            StationStandIn.back_day.is_(None),
        )
    )
    return found


async def started_on(db: AsyncSession, game_id: int, seat: int, day: int) -> bool:
    """Whether a stand-in began for this seat on `day` (at most one a day)."""
    found = await db.scalar(
        select(StationStandIn.id).where(
            StationStandIn.game_id == game_id,
            StationStandIn.seat == seat,
            StationStandIn.from_day == day,
        )
    )
    return found is not None


async def stood_in_days(db: AsyncSession, game_id: int, today: int) -> dict[int, frozenset[int]]:
    """Per seat, the days a bot still played it at the Pouch: the person's absence there.

    A person who came back on a day owns that day (coming back is being there)."""
    rows = await db.scalars(select(StationStandIn).where(StationStandIn.game_id == game_id))
    days: dict[int, set[int]] = {}
    for row in rows:
        until = row.back_day if row.back_day is not None else today + 1
        days.setdefault(row.seat, set()).update(range(row.from_day, until))
    return {seat: frozenset(found) for seat, found in days.items()}
