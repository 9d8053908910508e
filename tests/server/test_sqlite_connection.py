"""The SQLite connection: reads on the event loop's thread, one writer at a time through the
process's write gate (server/db/sqlite_connection.py); `GatedConnection.run`, a statement and
its rows in one call (what the driver's statements go through, server/db/driver.py)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from deaddrop.server.db.engine import create_engine
from deaddrop.server.db.sqlite_connection import (
    SQLITE_BUSY_TIMEOUT_MS,
    GatedConnection,
    gated_connect,
    is_read,
    write_gate,
)
from deaddrop.server.settings import Settings

SECRET = "sqlite-connection-test-secret-key-long-enough"


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """An engine on a new SQLite file with one table and a `thread()` SQL function."""
    database = tmp_path / "gate.sqlite3"
    engine = create_engine(Settings(database_url=f"sqlite:///{database}", secret_key=SECRET))
    async with engine.begin() as connection:
        raw = await connection.get_raw_connection()
        assert isinstance(raw.driver_connection, GatedConnection)
        await connection.execute(text("CREATE TABLE notes (id INTEGER PRIMARY KEY, who INT)"))
    yield engine
    await engine.dispose()


async def _register_thread_function(engine: AsyncEngine) -> None:
    """Give every pooled connection `thread()`: the id of the thread running the statement."""
    async with engine.connect() as connection:
        raw = await connection.get_raw_connection()
        driver = raw.driver_connection
        assert isinstance(driver, GatedConnection)
        await driver.create_function("thread", 0, threading.get_ident)


def test_reads_are_told_from_writes() -> None:
    assert is_read("SELECT 1") and is_read("\n  select x from y") and is_read("PRAGMA user_version")
    assert not is_read("INSERT INTO t VALUES (1)") and not is_read("UPDATE t SET a = 1")
    assert not is_read("WITH x AS (SELECT 1) DELETE FROM t") and not is_read("BEGIN")


async def test_a_select_and_a_write_through_the_gate_run_on_the_event_loop_thread(
    engine: AsyncEngine,
) -> None:
    await _register_thread_function(engine)
    async with engine.begin() as connection:
        read = await connection.scalar(text("SELECT thread()"))
        await connection.execute(text("INSERT INTO notes (who) VALUES (thread())"))
        written = await connection.scalar(text("SELECT who FROM notes"))
    assert read == threading.get_ident()  # inline: no trip to aiosqlite's thread
    assert written == threading.get_ident()  # the gate held: no writer of ours to wait for


async def test_a_write_waiting_for_another_processs_lock_waits_on_the_thread(
    engine: AsyncEngine,
) -> None:
    """Another process (here a plain connection) holds SQLite's write lock: the write fails
    inline at once, having written nothing, and waits on the connection's thread, the event
    loop free meanwhile; the connection's busy timeout is its own again after."""
    await _register_thread_function(engine)
    other = sqlite3.connect(str(engine.url.database))
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO notes (who) VALUES (0)")
    asyncio.get_running_loop().call_later(0.3, other.commit)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.ensure_future(tick())
    try:
        async with engine.begin() as connection:
            await connection.execute(text("INSERT INTO notes (who) VALUES (thread())"))
            waits = await connection.scalar(text("PRAGMA busy_timeout"))
    finally:
        ticker.cancel()
        other.close()
    assert ticks >= 10  # the loop ran while the write waited
    assert waits == SQLITE_BUSY_TIMEOUT_MS
    async with engine.connect() as connection:
        rows = (await connection.execute(text("SELECT who FROM notes ORDER BY id"))).all()
    assert len(rows) == 2 and rows[0][0] == 0  # the other process's row first
    assert rows[1][0] != threading.get_ident()  # written on the thread, once the lock was free


class _CountingQueue:
    """aiosqlite's queue to its thread, counting what is put on it."""

    def __init__(self, queue: Any) -> None:
        self.queue, self.trips = queue, 0

    def put_nowait(self, item: Any) -> None:
        self.trips += 1
        self.queue.put_nowait(item)


@asynccontextmanager
async def _counting_trips(connection: AsyncConnection) -> AsyncIterator[_CountingQueue]:
    """The trips `connection` makes to its thread while inside."""
    raw = (await connection.get_raw_connection()).driver_connection
    assert isinstance(raw, GatedConnection)
    queue = raw._tx
    counting = _CountingQueue(queue)
    raw._tx = counting  # type: ignore[assignment]
    try:
        yield counting
    finally:
        raw._tx = queue


async def test_a_read_only_connection_uses_the_thread_for_nothing(engine: AsyncEngine) -> None:
    async with engine.connect() as connection, _counting_trips(connection) as counting:
        for _ in range(3):
            await connection.execute(text("SELECT count(*) FROM notes"))
        await connection.rollback()
    assert counting.trips == 0


async def test_a_write_transaction_goes_to_the_thread_once_for_its_commit(
    engine: AsyncEngine,
) -> None:
    async with engine.connect() as connection, _counting_trips(connection) as counting:
        for who in range(3):
            await connection.execute(text("INSERT INTO notes (who) VALUES (:who)"), {"who": who})
        await connection.execute(text("UPDATE notes SET who = who + 1"))
        await connection.commit()
    assert counting.trips == 1
    async with engine.connect() as connection:
        assert await connection.scalar(text("SELECT sum(who) FROM notes")) == 6


async def test_two_writers_take_turns_through_the_gate(engine: AsyncEngine) -> None:
    order: list[str] = []
    first_wrote = asyncio.Event()

    async def first() -> None:
        async with engine.begin() as connection:
            await connection.execute(text("INSERT INTO notes (who) VALUES (1)"))
            order.append("first wrote")
            first_wrote.set()
            await asyncio.sleep(0.2)  # holds SQLite's write lock meanwhile
            order.append("first commits")

    async def second() -> None:
        await first_wrote.wait()
        async with engine.begin() as connection:
            await connection.execute(text("INSERT INTO notes (who) VALUES (2)"))
            order.append("second wrote")

    await asyncio.gather(first(), second())
    assert order == ["first wrote", "first commits", "second wrote"]
    gate = write_gate(str(engine.url.database))
    assert not gate.locked()  # both gave it back


async def test_a_rollback_and_a_failed_write_give_the_gate_back(engine: AsyncEngine) -> None:
    gate = write_gate(str(engine.url.database))
    async with engine.connect() as connection:
        await connection.execute(text("INSERT INTO notes (who) VALUES (1)"))
        assert gate.locked()
        await connection.rollback()
        assert not gate.locked()
        with pytest.raises(Exception, match="no such table"):
            await connection.execute(text("INSERT INTO missing VALUES (1)"))
        await connection.rollback()
    assert not gate.locked()
    async with engine.connect() as connection:  # DDL runs outside a transaction
        await connection.execute(text("CREATE TABLE more (id INTEGER)"))
        assert not gate.locked()
        await connection.commit()


async def test_a_connection_handed_back_mid_write_gives_the_gate_back(engine: AsyncEngine) -> None:
    gate = write_gate(str(engine.url.database))
    async with engine.connect() as connection:
        await connection.execute(text("INSERT INTO notes (who) VALUES (1)"))
        assert gate.locked()
    assert not gate.locked()  # the pool's reset rolled it back
    async with engine.connect() as connection:
        assert await connection.scalar(text("SELECT count(*) FROM notes")) == 0


async def test_a_gate_not_had_within_the_busy_timeout_is_gone_around(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A caller holding one write open while it writes on another connection is no worse off
    than without the gate: SQLite's busy handler answers, not a hang; the log says the gate
    was held that long (a slow save's cause, found in the server's log)."""
    monkeypatch.setattr("deaddrop.server.db.engine.SQLITE_BUSY_TIMEOUT_MS", 200)
    async with engine.connect() as holder:
        await holder.execute(text("INSERT INTO notes (who) VALUES (1)"))
        other_engine = create_engine(
            Settings(database_url=f"sqlite:///{engine.url.database}", secret_key=SECRET)
        )
        try:
            async with other_engine.connect() as other:
                await other.execute(text("PRAGMA busy_timeout=100"))
                with pytest.raises(Exception, match="database is locked"):
                    await other.execute(text("INSERT INTO notes (who) VALUES (2)"))
        finally:
            await other_engine.dispose()
        await holder.rollback()
    assert "write gate was held 0.2 s" in caplog.text


async def test_a_call_left_running_on_the_thread_keeps_the_next_ones_off_the_loop(
    tmp_path: Path,
) -> None:
    """A waiter cancelled mid-call leaves the call running on the connection's thread: what
    comes next waits for it there, never running on the loop's thread beside it."""
    async with _slow_write_cancelled(tmp_path) as (connection, done):
        cursor = await connection.cursor()  # would run inline at once without the guard
        assert done == ["slow"]
        await cursor.execute("SELECT count(*) FROM notes")
        assert await cursor.fetchone() == (1,)


@asynccontextmanager
async def _slow_write_cancelled(tmp_path: Path) -> AsyncIterator[tuple[GatedConnection, list[str]]]:
    """A connection whose write (0.3 s on its thread) lost its waiter to a cancel a moment
    ago, and the list the write appends "slow" to once it is done; closed after."""
    connection = gated_connect(5.0)(tmp_path / "cancelled.sqlite3")
    await connection
    done: list[str] = []

    def slow() -> int:
        time.sleep(0.3)
        done.append("slow")
        return 1

    try:
        await connection.execute("CREATE TABLE notes (who INT)")
        await connection.create_function("slow", 0, slow)
        writing = asyncio.ensure_future(connection.execute("INSERT INTO notes VALUES (slow())"))
        await asyncio.sleep(0.05)
        writing.cancel()
        yield connection, done
    finally:
        await connection.close()


async def _driver(connection: AsyncConnection) -> GatedConnection:
    raw = (await connection.get_raw_connection()).driver_connection
    assert isinstance(raw, GatedConnection)
    return raw


async def test_a_read_runs_on_the_event_loop_thread_in_one_call(engine: AsyncEngine) -> None:
    await _register_thread_function(engine)
    async with engine.connect() as connection, _counting_trips(connection) as counting:
        rows, _ = await (await _driver(connection)).run("SELECT thread(), ?", (7,))
    assert rows == [(threading.get_ident(), 7)]
    assert counting.trips == 0


async def test_a_write_runs_through_the_gate_and_commits_on_the_thread(
    engine: AsyncEngine,
) -> None:
    gate = write_gate(str(engine.url.database))
    async with engine.connect() as connection, _counting_trips(connection) as counting:
        await connection.begin()  # as a session's transaction has (db/driver.py `send_in`)
        driver = await _driver(connection)
        _, inserted = await driver.run("INSERT INTO notes (who) VALUES (?), (?)", (1, 2))
        assert inserted == 2 and gate.locked()  # held until the transaction is over
        _, updated = await driver.run("UPDATE notes SET who = who + 10", ())
        assert updated == 2 and counting.trips == 0
        await connection.commit()
    assert counting.trips == 1 and not gate.locked()
    async with engine.connect() as connection:
        assert await connection.scalar(text("SELECT sum(who) FROM notes")) == 23


async def test_a_run_waiting_for_another_processs_lock_waits_on_the_thread(
    engine: AsyncEngine,
) -> None:
    other = sqlite3.connect(str(engine.url.database))
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO notes (who) VALUES (0)")
    asyncio.get_running_loop().call_later(0.3, other.commit)
    try:
        async with engine.connect() as connection:
            await connection.begin()
            driver = await _driver(connection)
            started = time.monotonic()
            _, inserted = await driver.run("INSERT INTO notes (who) VALUES (?)", (5,))
            waited = time.monotonic() - started
            await connection.commit()
            waits = await connection.scalar(text("PRAGMA busy_timeout"))
    finally:
        other.close()
    assert inserted == 1 and waited >= 0.2  # written once the other process committed
    assert waits == SQLITE_BUSY_TIMEOUT_MS  # the connection's own busy timeout again
    async with engine.connect() as connection:
        rows = (await connection.execute(text("SELECT who FROM notes ORDER BY id"))).all()
    assert [row[0] for row in rows] == [0, 5]


async def test_a_run_after_a_cancelled_call_waits_for_it_on_the_thread(tmp_path: Path) -> None:
    async with _slow_write_cancelled(tmp_path) as (connection, done):
        rows, _ = await connection.run("SELECT count(*) FROM notes", ())
        assert done == ["slow"] and rows == [(1,)]


async def test_inline_writes_set_the_busy_timeout_aside_once_and_give_it_back(
    engine: AsyncEngine,
) -> None:
    """A transaction's inline writes run with the busy timeout at 0, set once before the first
    of them, not around each; a read in between, and the commit, have the connection's own."""
    async with engine.connect() as connection:
        await connection.begin()
        driver = await _driver(connection)
        assert driver._connection is not None
        sent: list[str] = []
        driver._connection.set_trace_callback(sent.append)
        for who in (1, 2):
            await driver.run("INSERT INTO notes (who) VALUES (?)", (who,))
        [(waits,)], _ = await driver.run("PRAGMA busy_timeout", ())
        await driver.run("UPDATE notes SET who = who + 10", ())
        await connection.commit()
        driver._connection.set_trace_callback(None)
        [(after,)], _ = await driver.run("PRAGMA busy_timeout", ())
    assert waits == after == SQLITE_BUSY_TIMEOUT_MS
    # (The connection reads its own timeout again after a PRAGMA has passed: left out here.)
    settings = [statement for statement in sent if statement.startswith("PRAGMA busy_timeout=")]
    restore = f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}"
    assert settings == [
        "PRAGMA busy_timeout=0",  # before the first insert, not again before the second
        restore,  # before the read
        "PRAGMA busy_timeout=0",  # before the update
        restore,  # before the commit goes to the thread
    ]
