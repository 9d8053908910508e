"""Statements sent straight through the database's driver (db/driver.py: SQLite's, asyncpg)
bind and read exactly as SQLAlchemy's own execution does, on every backend."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Integer, Text, bindparam, cast, insert, select
from sqlalchemy.dialects import sqlite
from sqlalchemy.dialects.postgresql import asyncpg
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db import driver
from deaddrop.server.db.engine import create_engine
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.settings import Settings
from deaddrop.server.station.chat.channels import _NEWEST_SPANNING, _NEWEST_SPANNING_BEFORE
from deaddrop.server.station.chat.rate import INSERT_WITHIN_RATE
from deaddrop.server.station.tabs.badges import KINDS_SHOWN_ON
from deaddrop.server.station.tabs.info_builder import _SPAN
from deaddrop.server.station.tabs.positions import _AFTER_ROWS, _BETWEEN_ROWS, _WITH_LOOKS
from deaddrop.server.station.tabs.seen import _news_query

RunDb = Callable[[Callable[[AsyncSession], Awaitable[Any]]], Any]
EVENTS = LiveEvent.metadata.tables[LiveEvent.__tablename__]
MOMENT = datetime(2026, 12, 4, 17, 30, 5, 123456, tzinfo=UTC)
_INSERT = insert(EVENTS).values(
    {name: bindparam(name) for name in ("stream", "seq", "kind", "public", "seats", "payload")}
    | {"created_at": bindparam("created_at")}
)
_NEWER = select(EVENTS.c.seq, EVENTS.c.payload).where(
    EVENTS.c.stream == bindparam("stream"), EVENTS.c.created_at > bindparam("after")
)


def _event(seq: int, **extra: Any) -> dict[str, Any]:
    return {
        "stream": "test:driver",
        "seq": seq,
        "kind": "post",
        "public": True,
        "seats": [2, 0],
        "payload": {"text": "سلام – hello", "n": seq},
        **extra,
    }


def test_values_are_bound_and_read_as_sqlalchemy_binds_them(run_db: RunDb) -> None:
    async def write_and_read(db: AsyncSession) -> list[Any]:
        sent = await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        assert sent.rowcount == 1
        await db.execute(_INSERT, _event(2, created_at=MOMENT + timedelta(seconds=1)))
        await db.execute(_INSERT, _event(3, created_at=MOMENT))  # SQLAlchemy's, to compare
        await db.commit()
        stored = await db.execute(select(LiveEvent).order_by(LiveEvent.seq))
        rows = [(e.seq, e.seats, e.payload, e.created_at) for e in stored.scalars()]
        as_text = select(cast(EVENTS.c.created_at, Text), cast(EVENTS.c.seats, Text))
        texts = list(await db.execute(as_text.where(EVENTS.c.seq.in_([1, 3]))))
        # A moment compared in SQL as SQLAlchemy stores it: only the later event is newer.
        newer = await driver.send_in(db, _NEWER, {"stream": "test:driver", "after": MOMENT})
        return [rows, texts, [seq for seq, _payload in newer.rows]]

    rows, texts, newer = run_db(write_and_read)
    assert rows[:2] == [
        (1, [2, 0], _event(1)["payload"], MOMENT),
        (2, [2, 0], _event(2)["payload"], MOMENT + timedelta(seconds=1)),
    ]
    assert texts[0] == texts[1]  # stored exactly as SQLAlchemy stores the same values
    assert newer == [2]


def test_a_value_left_to_a_column_default_goes_through_sqlalchemy(run_db: RunDb) -> None:
    names = ("stream", "seq", "kind", "public", "seats", "payload")
    statement = insert(EVENTS).values({name: bindparam(name) for name in names})

    async def write(db: AsyncSession) -> datetime | None:
        await driver.send_in(db, statement, _event(1))
        await db.commit()
        return await db.scalar(select(LiveEvent.created_at))

    before = datetime.now(UTC)
    stored = run_db(write)
    assert stored is not None and before <= stored <= datetime.now(UTC)


def test_a_statement_is_compiled_once(run_db: RunDb) -> None:
    async def twice(db: AsyncSession) -> None:
        for seq in (1, 2):
            await driver.send_in(db, _INSERT, _event(seq, created_at=MOMENT))
        await db.rollback()

    run_db(twice)
    dialect = run_db(_dialect_name)
    assert driver._PREPARED[(dialect, _INSERT)] is not None


async def _dialect_name(db: AsyncSession) -> str:
    return str(db.bind.dialect.name)  # type: ignore[union-attr]


def test_a_broken_unique_key_is_sqlalchemys_integrity_error(run_db: RunDb) -> None:
    async def twice(db: AsyncSession) -> None:
        await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        with pytest.raises(IntegrityError):  # what a write's commit turns into a Conflict
            await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        await db.rollback()

    run_db(twice)


def test_the_statements_every_post_and_page_send_go_straight_to_the_driver() -> None:
    """A post's rate-limited insert and a page's journal reads bind every value themselves:
    none is left to SQLAlchemy, so none of them falls back to its execution."""
    page_reads = [_NEWEST_SPANNING, _NEWEST_SPANNING_BEFORE, _SPAN]
    for tabs in (("floor",), tuple(KINDS_SHOWN_ON)):
        page_reads += [_news_query(tabs, None), _news_query(tabs, 9)]
    for statement in (INSERT_WITHIN_RATE, _AFTER_ROWS, _BETWEEN_ROWS, _WITH_LOOKS, *page_reads):
        for dialect in (sqlite.dialect(), asyncpg.dialect()):  # type: ignore[no-untyped-call]
            assert driver.prepared(statement, dialect) is not None


async def test_a_transaction_holding_no_connection_yet_gets_one_through_the_greenlet(
    tmp_path: Path,
) -> None:
    """A session's transaction begun before any statement holds no connection, and the pool
    may have none to give without opening one: `send_in` reaches it as SQLAlchemy does."""
    engine = create_engine(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'new.sqlite3'}",
            secret_key="driver-test-secret-key-long-enough-for-hmac",
        )
    )
    try:
        async with AsyncSession(engine) as db:
            await db.begin()  # no connection yet, and the pool is empty
            sent = await driver.send_in(db, select(bindparam("x", type_=Integer)), {"x": 7})
            assert sent.rows == [(7,)]
    finally:
        await engine.dispose()
