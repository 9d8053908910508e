"""PostgreSQL's statements that stand alone, on connections of their own off the pool
(server/db/lone_statements.py): no pooled connection taken, the listeners told, a few
connections shared by many statements at once, a broken, cancelled or long-idle connection
replaced, closed with the engine, the engine's search path; none on SQLite or when turned off."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Integer, String, bindparam, cast, event, func, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import QueuePool

from deaddrop.server.db import lone_statements as lone_module
from deaddrop.server.db.driver import send_lone
from deaddrop.server.db.engine import create_engine
from deaddrop.server.db.lone_statements import LONE_CONNECTIONS, LoneStatements, lone_statements
from deaddrop.server.settings import Settings
from tests.server.conftest import postgres_url_or_skip

SECRET = "lone-statements-test-secret-key-long-enough"
PLUS_ONE = select(bindparam("n", type_=Integer) + 1)
BACKEND = select(func.pg_backend_pid(), bindparam("n", type_=Integer))
"""Which server process answers (one per connection), and a value to tell answers apart."""


def on_postgresql(
    check: Callable[[AsyncEngine, LoneStatements], Awaitable[None]], **settings: Any
) -> None:
    """Run `check` with a new PostgreSQL engine and its lone statements (skip without one)."""
    url = postgres_url_or_skip()  # outside a running loop: it checks the server with its own

    async def run() -> None:
        engine = create_engine(Settings(database_url=url, secret_key=SECRET, **settings))
        try:
            lone = lone_statements(engine)
            assert lone is not None
            await check(engine, lone)
        finally:
            await engine.dispose()

    asyncio.run(run())


async def rows(lone: LoneStatements, statement: Any, **values: Any) -> list[Any]:
    """The rows of `statement` sent alone."""
    sent = await send_lone(lone, statement, values)
    assert sent is not None
    return sent.rows


async def backend(lone: LoneStatements) -> int:
    """The server process of the connection that answers a statement."""
    [(pid, _n)] = await rows(lone, BACKEND, n=0)
    return int(pid)


def test_a_lone_statement_takes_no_pooled_connection_and_tells_the_listeners() -> None:
    async def check(engine: AsyncEngine, lone: LoneStatements) -> None:
        assert lone_statements(engine) is lone  # one per loop and engine
        assert await rows(lone, PLUS_ONE, n=1) == [(2,)]  # its connection made (by the pool)
        heard: list[str] = []
        checkouts: list[Any] = []

        def statement(_conn: Any, _cursor: Any, sql: str, *_rest: Any) -> None:
            heard.append(sql)

        def checked_out(*args: Any) -> None:
            checkouts.append(args)

        event.listen(engine.sync_engine, "before_cursor_execute", statement)
        event.listen(engine.sync_engine.pool, "checkout", checked_out)
        try:
            assert await rows(lone, PLUS_ONE, n=41) == [(42,)]
        finally:
            event.remove(engine.sync_engine, "before_cursor_execute", statement)
            event.remove(engine.sync_engine.pool, "checkout", checked_out)
        assert heard == [str(PLUS_ONE.compile(dialect=engine.dialect))]
        assert checkouts == []
        pool = engine.sync_engine.pool
        assert isinstance(pool, QueuePool) and pool.checkedout() == 0  # detached: not the pool's

    on_postgresql(check)


def test_many_statements_at_once_share_a_few_connections() -> None:
    async def check(_engine: AsyncEngine, lone: LoneStatements) -> None:
        answers = await asyncio.gather(*(rows(lone, BACKEND, n=n) for n in range(40)))
        assert [found[0][1] for found in answers] == list(range(40))  # each its own answer
        assert 1 <= len({found[0][0] for found in answers}) <= LONE_CONNECTIONS

    on_postgresql(check)


def test_an_error_is_raised_as_sqlalchemy_raises_it_and_the_next_statement_answers() -> None:
    async def check(_engine: AsyncEngine, lone: LoneStatements) -> None:
        number = select(cast(bindparam("text", type_=String), Integer))
        with pytest.raises(DBAPIError, match="invalid input syntax for type integer"):
            await rows(lone, number, text="seven")
        assert await rows(lone, PLUS_ONE, n=1) == [(2,)]

    on_postgresql(check)


def test_a_statement_cancelled_midway_leaves_no_broken_connection() -> None:
    async def check(_engine: AsyncEngine, lone: LoneStatements) -> None:
        before = await backend(lone)
        slow = select(func.pg_sleep(bindparam("seconds", type_=Integer)))
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(rows(lone, slow, seconds=5), 0.2)
        # Its connection's state unknown, it is closed: the next statement gets another.
        assert await backend(lone) != before
        assert await rows(lone, PLUS_ONE, n=2) == [(3,)]

    on_postgresql(check)


def test_a_connection_lost_while_idle_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lone_module, "IDLE_BEFORE_PING_SECONDS", 0.0)  # every idle one pinged

    async def check(engine: AsyncEngine, lone: LoneStatements) -> None:
        lost = await backend(lone)
        async with engine.connect() as connection:  # a server restart, as one connection sees it
            await connection.execute(select(func.pg_terminate_backend(lost)))
        await asyncio.sleep(0.2)
        assert await backend(lone) != lost  # the statement still answered, on a new one

    on_postgresql(check)


def test_a_disposed_engine_closes_them_and_the_next_statement_opens_another() -> None:
    async def check(engine: AsyncEngine, lone: LoneStatements) -> None:
        before = await backend(lone)
        idle = [each.driver for each in lone._idle]
        assert idle and not any(driver.is_closed() for driver in idle)
        await engine.dispose()
        assert all(driver.is_closed() for driver in idle)
        again = lone_statements(engine)
        assert again is not None and again is not lone
        assert await backend(again) != before

    on_postgresql(check)


def test_the_connections_use_the_engines_search_path() -> None:
    async def check(_engine: AsyncEngine, lone: LoneStatements) -> None:
        path = select(func.current_setting(bindparam("name", "search_path")))
        assert await rows(lone, path) == [("lone_test_schema",)]

    on_postgresql(check, database_schema="lone_test_schema")


def test_sqlite_and_a_server_with_them_turned_off_have_none(tmp_path: Path) -> None:
    url = postgres_url_or_skip()

    async def check() -> None:
        for settings in (
            Settings(database_url=f"sqlite:///{tmp_path / 'lone.sqlite3'}", secret_key=SECRET),
            Settings(database_url=url, secret_key=SECRET, lone_statements=False),
        ):
            engine = create_engine(settings)
            try:
                assert lone_statements(engine) is None
            finally:
                await engine.dispose()

    asyncio.run(check())


def test_the_setting_reads_lone_statements_from_the_environment(tmp_path: Path) -> None:
    assert Settings.from_env({"LONE_STATEMENTS": "0"}, var_dir=tmp_path).lone_statements is False
    assert Settings.from_env({}, var_dir=tmp_path).lone_statements is True
