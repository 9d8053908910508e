"""Aware UTC times on SQLite (db/base.py `UTCDateTime`): written as the same text SQLAlchemy
wrote, in one formatting; read in one parse into the same aware UTC time SQLAlchemy's reading
and `replace(tzinfo=UTC)` gave; any value or text the quick way does not take goes
SQLAlchemy's way, as before (a naive time is still refused)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.types import TypeDecorator

from deaddrop.server.db.base import UTCDateTime

_SQLITE = sqlite.dialect()


Reader = Callable[[Any], Any]


def _readers(dialect: Any = _SQLITE) -> tuple[Reader, Reader]:
    """The reader `dialect` gets now, and SQLAlchemy's generic one."""
    typed = cast(UTCDateTime, UTCDateTime().dialect_impl(dialect))
    fast = typed.result_processor(dialect, None)
    generic = TypeDecorator.result_processor(typed, dialect, None)
    assert fast is not None and generic is not None
    return fast, generic


def _writers() -> tuple[Reader, Reader]:
    """The writer SQLite gets now, and SQLAlchemy's generic one."""
    typed = cast(UTCDateTime, UTCDateTime().dialect_impl(_SQLITE))
    fast = typed.bind_processor(_SQLITE)
    generic = TypeDecorator.bind_processor(typed, _SQLITE)
    assert fast is not None and generic is not None
    return fast, generic


@pytest.mark.parametrize(
    "moment",
    [
        datetime(2026, 12, 7, 2, 50, 41, 300453, tzinfo=UTC),
        datetime(2026, 12, 7, 2, 50, 41, tzinfo=UTC),  # no microseconds
        datetime(2026, 12, 7, 4, 50, 41, 7, tzinfo=timezone(timedelta(hours=2))),
        datetime(2026, 1, 1, 0, 30, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
        datetime(1, 1, 1, 12, tzinfo=UTC),  # a year of one digit
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    ],
)
def test_an_aware_time_is_written_as_the_generic_way_writes_it(moment: datetime) -> None:
    fast, generic = _writers()
    assert fast(moment) == generic(moment)


def test_times_of_one_second_and_of_the_next_are_each_written_whole() -> None:
    fast, generic = _writers()
    base = datetime(2026, 12, 7, 2, 50, 41, tzinfo=UTC)
    moments = [
        base,
        base + timedelta(microseconds=1),  # the same second: its kept text, new microseconds
        base + timedelta(microseconds=999_999),
        base + timedelta(seconds=1),  # the next second
        base.astimezone(timezone(timedelta(hours=3))) + timedelta(microseconds=5),  # back again
        base + timedelta(days=1),  # the same time of day, another day
    ]
    assert [fast(moment) for moment in moments] == [generic(moment) for moment in moments]


def test_a_naive_time_is_still_refused_and_none_stays_none() -> None:
    fast, _ = _writers()
    with pytest.raises(ValueError, match="naive datetime"):
        fast(datetime(2026, 12, 7, 2, 50))
    assert fast(None) is None


@pytest.mark.parametrize(
    "text",
    [
        "2026-12-07 02:50:41.300453",  # as SQLAlchemy stores it
        "2026-12-07 02:50:41.000000",
        "2026-12-07 02:50:41",
        "2026-12-07 02:50:41.3",
        "2026-12-07T02:50:41.300453",
        "2026-12-07",  # a date alone: midnight
        "0001-01-01 00:00:00.000000",
        "9999-12-31 23:59:59.999999",
    ],
)
def test_a_stored_text_reads_as_the_generic_way_reads_it(text: str) -> None:
    fast, generic = _readers()
    read = fast(text)
    assert read == generic(text)
    assert read is not None and read.tzinfo is UTC


def test_a_text_with_an_offset_or_a_value_not_text_goes_the_generic_way() -> None:
    fast, generic = _readers()
    shifted = "2026-12-07 02:50:41+02:00"
    assert fast(shifted) == generic(shifted)
    assert fast(None) is None
    with pytest.raises(Exception) as fast_error:
        fast("not a time")
    with pytest.raises(Exception) as generic_error:
        generic("not a time")
    assert type(fast_error.value) is type(generic_error.value)


def test_postgresql_reads_its_times_as_before() -> None:
    dialect = postgresql.asyncpg.dialect()  # type: ignore[no-untyped-call]
    reader, generic = _readers(dialect)
    assert reader.__qualname__ == generic.__qualname__  # SQLAlchemy's own
    assert reader(datetime(2026, 12, 7, 4, 50, tzinfo=timezone(timedelta(hours=2)))) == datetime(
        2026, 12, 7, 2, 50, tzinfo=UTC
    )


async def test_a_time_stored_in_sqlite_comes_back_aware_and_equal(tmp_path: Path) -> None:
    table = Table(
        "moments", MetaData(), Column("id", Integer, primary_key=True), Column("at", UTCDateTime())
    )
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'moments.sqlite3'}")
    stored = [
        datetime(2026, 12, 7, 2, 50, 41, 300453, tzinfo=UTC),
        datetime(2026, 12, 7, 2, 50, 41, tzinfo=UTC),  # no microseconds
        datetime(2026, 12, 7, 4, 50, tzinfo=timezone(timedelta(hours=2))),  # stored in UTC
    ]
    try:
        async with engine.begin() as connection:
            await connection.run_sync(table.metadata.create_all)
            for number, moment in enumerate(stored):
                await connection.execute(insert(table).values(id=number, at=moment))
            read = (await connection.execute(select(table.c.at).order_by(table.c.id))).scalars()
            found = list(read)
    finally:
        await engine.dispose()
    assert found == stored
    assert all(moment.tzinfo is UTC for moment in found)
