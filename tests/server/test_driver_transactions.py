"""A statement sent straight through the driver keeps SQLAlchemy's transactions and errors: it
joins the session's transaction (the first one begins it, as SQLAlchemy would); a read alone
begins none; a lost connection is SQLAlchemy's error and leaves the pool."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from deaddrop.server.db import driver
from deaddrop.server.db.asyncpg_driver import _as_sqlalchemy_raises
from deaddrop.server.live.models import LiveEvent
from tests.server.test_driver import _INSERT, _NEWER, MOMENT, _event

RunDb = Callable[[Callable[[AsyncSession], Awaitable[Any]]], Any]


@pytest.fixture
def direct(run_db: RunDb) -> Iterator[list[bool]]:
    """Each statement on the journal's table the engine sends, in order (the app's background
    jobs send others meanwhile): True when it went straight to the driver (its listeners hear
    of it without a cursor)."""
    engine: AsyncEngine = run_db(_engine)
    sent: list[bool] = []

    def heard(_conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
        if "live_events" in statement:
            sent.append(cursor is None)

    event.listen(engine.sync_engine, "before_cursor_execute", heard)
    yield sent
    event.remove(engine.sync_engine, "before_cursor_execute", heard)


async def _engine(db: AsyncSession) -> AsyncEngine:
    bind = db.bind
    assert isinstance(bind, AsyncEngine)
    return bind


async def _count(db: AsyncSession) -> int:
    return int(await db.scalar(select(func.count()).select_from(LiveEvent)) or 0)


def test_a_statement_in_an_open_transaction_joins_it(run_db: RunDb, direct: list[bool]) -> None:
    async def begun_then_rolled_back(db: AsyncSession) -> None:
        await db.execute(select(1))  # the transaction is open
        direct.clear()
        await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        assert direct == [True]  # straight to the driver, inside it
        await db.rollback()

    run_db(begun_then_rolled_back)
    assert run_db(_count) == 0  # undone with the transaction it joined


def test_the_first_statement_begins_the_transaction_as_sqlalchemy_would(
    run_db: RunDb, direct: list[bool]
) -> None:
    async def first_then_rolled_back(db: AsyncSession) -> None:
        direct.clear()
        await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        await driver.send_in(db, _INSERT, _event(2, created_at=MOMENT))
        await db.rollback()

    async def first_then_committed(db: AsyncSession) -> None:
        await driver.send_in(db, _INSERT, _event(3, created_at=MOMENT))
        await db.commit()

    run_db(first_then_rolled_back)
    assert direct == [True, True]  # straight to the driver, the first one too
    assert run_db(_count) == 0  # both inside the transaction, undone with it
    run_db(first_then_committed)
    assert run_db(_count) == 1  # and committed with it


def test_a_read_alone_begins_no_transaction(run_db: RunDb, direct: list[bool]) -> None:
    async def written(db: AsyncSession) -> None:
        await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        await db.commit()

    async def read_alone(db: AsyncSession) -> tuple[list[Any], bool]:
        connection = await db.connection()
        direct.clear()
        values = {"stream": "test:driver", "after": MOMENT.replace(year=2025)}
        sent = await driver.send(connection, _NEWER, values, alone=True)
        raw = (await connection.get_raw_connection()).driver_connection
        open_after = isinstance(raw, asyncpg.Connection) and raw.is_in_transaction()
        return sent.rows, open_after

    run_db(written)
    rows, open_after = run_db(read_alone)
    assert [seq for seq, _payload in rows] == [1]
    assert direct == [True] and not open_after  # one round trip: no BEGIN, no ROLLBACK


POSTGRESQL_ONLY = pytest.mark.parametrize("empty_database", ["postgresql"], indirect=True)
"""asyncpg's connection: these run on PostgreSQL alone."""


@POSTGRESQL_ONLY
def test_a_lost_connection_is_sqlalchemys_error_and_leaves_the_pool(run_db: RunDb) -> None:

    async def lost(db: AsyncSession) -> None:
        pid = await db.scalar(text("SELECT pg_backend_pid()"))  # the transaction is open
        async with AsyncSession(db.bind) as other:
            await other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        with pytest.raises(DBAPIError):  # SQLAlchemy's, as its own execution would raise
            await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        await db.rollback()

    run_db(lost)
    assert run_db(_count) == 0  # the pool gave a working connection next


@POSTGRESQL_ONLY
def test_a_connection_lost_before_the_first_statement_is_sqlalchemys_error(
    run_db: RunDb,
) -> None:
    """The BEGIN fails (or the loss is known already): SQLAlchemy sends the statement, raises
    its error and takes the connection out of the pool."""

    async def lost(db: AsyncSession) -> None:
        raw = await _asyncpg_connection(db)  # begun, but nothing sent on it yet
        async with AsyncSession(db.bind) as other:
            pid = raw.get_server_pid()
            await other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        with pytest.raises(DBAPIError):
            await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        await db.rollback()

    run_db(lost)
    assert run_db(_count) == 0


async def _asyncpg_connection(db: AsyncSession) -> asyncpg.Connection:
    """The asyncpg connection under `db`'s transaction (begun if it was not)."""
    raw = (await (await db.connection()).get_raw_connection()).driver_connection
    assert isinstance(raw, asyncpg.Connection)
    return raw


async def _begun_then_closed(db: AsyncSession) -> None:
    """A transaction begun by a statement, then its connection closed under it."""
    await db.execute(select(1))
    await (await _asyncpg_connection(db)).close()


async def _yes(*_args: Any) -> bool:
    return True


@POSTGRESQL_ONLY
def test_a_connection_lost_under_a_direct_send_leaves_the_pool(
    run_db: RunDb, direct: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """asyncpg may learn of the loss only as the statement goes out: the same as above."""

    async def lost(db: AsyncSession) -> None:
        await _begun_then_closed(db)
        monkeypatch.setattr(driver, "may_send", _yes)
        direct.clear()
        with pytest.raises(DBAPIError) as raised:
            await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        assert direct == [True] and raised.value.connection_invalidated
        await db.rollback()  # nothing to roll back on a connection out of the pool

    run_db(lost)
    monkeypatch.undo()
    assert run_db(_count) == 0  # the pool gave a working connection next


@POSTGRESQL_ONLY
def test_a_closed_connection_is_left_to_sqlalchemy(run_db: RunDb, direct: list[bool]) -> None:

    async def closed(db: AsyncSession) -> None:
        await _begun_then_closed(db)
        direct.clear()
        with pytest.raises(DBAPIError):
            await driver.send_in(db, _INSERT, _event(1, created_at=MOMENT))
        assert direct == [False]  # SQLAlchemy tried it, found it closed
        await db.rollback()

    run_db(closed)
    assert run_db(_count) == 0


def test_asyncpg_errors_are_raised_as_sqlalchemy_raises_them() -> None:
    cases = [
        (asyncpg.UniqueViolationError("duplicate key"), IntegrityError),
        (asyncpg.ForeignKeyViolationError("no such game"), IntegrityError),
        (asyncpg.InterfaceError("connection is closed"), InterfaceError),
        (asyncpg.exceptions.DivisionByZeroError("division by zero"), DBAPIError),
    ]
    for error, kind in cases:
        raised = _as_sqlalchemy_raises("SELECT $1", (1,), error)
        assert type(raised) is kind and raised.orig is error
        assert raised.statement == "SELECT $1" and raised.params == (1,)
