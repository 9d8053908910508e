"""A SQLite file's lone reads on the event loop (server/db/inline_reads.py): the last commit
seen, nothing written, no pooled connection, the listeners told; none for other databases."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, bindparam, event, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from deaddrop.server.db.driver import read_inline
from deaddrop.server.db.engine import create_engine
from deaddrop.server.db.inline_reads import InlineReader, inline_reader
from deaddrop.server.settings import Settings
from tests.server.conftest import postgres_url_or_skip

SECRET = "inline-reads-test-secret-key-long-enough"
NOTES = Table("notes", MetaData(), Column("id", Integer, primary_key=True), Column("who", Integer))
WHO = select(NOTES.c.who).where(NOTES.c.id == bindparam("id"))


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """An engine on a new SQLite file with the `notes` table."""
    database = tmp_path / "inline.sqlite3"
    engine = create_engine(Settings(database_url=f"sqlite:///{database}", secret_key=SECRET))
    async with engine.begin() as connection:
        await connection.execute(text("CREATE TABLE notes (id INTEGER PRIMARY KEY, who INT)"))
    yield engine
    await engine.dispose()


def rows_of(reader: InlineReader, statement: Any, values: dict[str, Any]) -> list[Any]:
    """The rows of a query read inline (through the driver's binding, as the product reads)."""
    sent = read_inline(reader, statement, values)
    assert sent is not None
    return sent.rows


async def _write(engine: AsyncEngine, who: int) -> None:
    async with engine.begin() as connection:
        await connection.execute(
            text("INSERT OR REPLACE INTO notes VALUES (1, :who)"), {"who": who}
        )


async def test_a_read_sees_the_last_commit_on_the_loops_thread(engine: AsyncEngine) -> None:
    reader = inline_reader(engine)
    assert reader is not None and inline_reader(engine) is reader  # one per loop and file
    assert rows_of(reader, WHO, {"id": 1}) == []
    await _write(engine, 7)
    assert rows_of(reader, WHO, {"id": 1}) == [(7,)]
    await _write(engine, 8)  # a later commit, read at once
    assert rows_of(reader, WHO, {"id": 1}) == [(8,)]


async def test_a_read_takes_no_pooled_connection_and_tells_the_listeners(
    engine: AsyncEngine,
) -> None:
    reader = inline_reader(engine)
    assert reader is not None
    heard: list[str] = []
    checkouts: list[Any] = []

    def statement(_conn: Any, _cursor: Any, sql: str, *_rest: Any) -> None:
        heard.append(sql)

    def checked_out(*args: Any) -> None:
        checkouts.append(args)

    event.listen(engine.sync_engine, "before_cursor_execute", statement)
    event.listen(engine.sync_engine.pool, "checkout", checked_out)
    try:
        thread = threading.get_ident()
        assert rows_of(reader, WHO, {"id": 1}) == []
        assert threading.get_ident() == thread
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", statement)
        event.remove(engine.sync_engine.pool, "checkout", checked_out)
    assert heard == [str(WHO.compile(dialect=engine.dialect))]
    assert checkouts == []


async def test_it_writes_nothing(engine: AsyncEngine) -> None:
    """Read only: a write sent to it by mistake fails, as SQLAlchemy raises it."""
    reader = inline_reader(engine)
    assert reader is not None
    insert = NOTES.insert().values(id=bindparam("id"), who=bindparam("who"))
    assert read_inline(reader, insert, {"id": 2, "who": 3}) is None  # a query, or not inline
    with pytest.raises(DBAPIError, match="readonly database"):
        reader.run("INSERT INTO notes VALUES (2, 3)", ())
    async with engine.connect() as connection:
        assert await connection.scalar(text("SELECT count(*) FROM notes")) == 0


async def test_a_disposed_engine_closes_it_and_the_next_read_opens_another(
    engine: AsyncEngine,
) -> None:
    first = inline_reader(engine)
    assert first is not None
    await engine.dispose()
    with pytest.raises(DBAPIError, match="closed database"):
        rows_of(first, WHO, {"id": 1})
    second = inline_reader(engine)
    assert second is not None and second is not first
    assert rows_of(second, WHO, {"id": 1}) == []


async def test_an_in_memory_database_has_none() -> None:
    """Its rows live in its one connection: another would see an empty database."""
    engine = create_engine(Settings(database_url="sqlite://", secret_key=SECRET))
    try:
        assert inline_reader(engine) is None
    finally:
        await engine.dispose()


def test_postgresql_has_none() -> None:
    url = postgres_url_or_skip()  # outside a running loop: it checks the server with its own

    async def check() -> None:
        engine = create_engine(Settings(database_url=url, secret_key=SECRET))
        try:
            assert inline_reader(engine) is None
        finally:
            await engine.dispose()

    asyncio.run(check())
