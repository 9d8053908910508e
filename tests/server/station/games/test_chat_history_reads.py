"""A channel's newest messages read over a range of days (through the driver on SQLite) are
the very rows the list of those days gives (station/chat/channels.py `_newest`), on every
backend; days that do not follow one another are read by their list."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.channels import Channel
from deaddrop.server.station.chat.channels import _NEWEST, _NEWEST_BEFORE, MessageRow, _newest
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.testing.clocks import ManualClock
from tests.server.station.games.helpers import RunDB, game_row
from tests.server.station.games.test_runner import quick_games

MOMENT = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


async def _with_messages(db: AsyncSession, game_id: str) -> int:
    """Messages on the Floor and the Ring Channel, days 1 to 4; the game's row id."""
    game = await game_row(db, game_id)
    rows = [
        {
            "game_id": game.id,
            "channel": channel.value,
            "day": 1 + number % 4,
            "seat": number % 6,
            "text": f"{channel.value} message {number}",
            "created_at": MOMENT + timedelta(minutes=number),
        }
        for number in range(40)
        for channel in (Channel.FLOOR, Channel.RING)
    ]
    await db.execute(insert(StationMessage), rows)
    await db.commit()
    return game.id


def _columns(row: MessageRow) -> tuple[object, ...]:
    return (row.id, row.day, row.seat, row.channel, row.text, row.created_at)


def test_a_range_of_days_reads_the_rows_their_list_reads(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar]
) -> None:
    [game_id] = run_db(lambda db: quick_games(db, 1, clock, "history"))
    game = run_db(lambda db: _with_messages(db, game_id))

    async def compare(db: AsyncSession) -> None:
        compared = 0
        for channel in (Channel.FLOOR, Channel.RING):
            for days in ([1, 2, 3, 4], [2, 3], [4], [1, 3], [1, 2, 4]):
                for before in (None, 1_000_000, 30):
                    values = {"game": game, "channel": channel.value, "days": days, "limit": 7}
                    listing = _NEWEST if before is None else _NEWEST_BEFORE
                    by_list = (await db.execute(listing, {**values, "before": before})).all()
                    read = await _newest(db, game, channel, days, before, 7)
                    assert [_columns(row) for row in read] == [_columns(row) for row in by_list]
                    assert all(row.created_at.tzinfo is not None for row in read)
                    compared += len(read)
        assert compared > 100

    run_db(compare)
