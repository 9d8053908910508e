"""The database pool keeps what it opened: a busy moment's connections stay open for the next
one (a connection opened per request was a PostgreSQL server process started and ended, and
halved the Floor page's rate), and its sizes are the host's settings. SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from deaddrop.server.db.engine import create_engine
from deaddrop.server.settings import Settings
from tests.server.conftest import Database


async def _busy_moment(engine: AsyncEngine, at_once: int) -> None:
    """`at_once` connections in use together, each running a statement, then all given back."""

    async def use(connection: AsyncConnection) -> None:
        await connection.execute(text("SELECT 1"))

    held = [await engine.connect() for _ in range(at_once)]
    try:
        await asyncio.gather(*(use(connection) for connection in held))
    finally:
        for connection in held:
            await connection.close()


async def _opened_in(engine: AsyncEngine, moments: list[int]) -> list[int]:
    """How many connections each busy moment of `moments` (so many at once) opened."""
    opened = [0]

    def connected(*_args: Any) -> None:
        opened[0] += 1

    event.listen(engine.sync_engine, "connect", connected)
    counts = []
    try:
        for at_once in moments:
            before = opened[0]
            await _busy_moment(engine, at_once)
            counts.append(opened[0] - before)
    finally:
        event.remove(engine.sync_engine, "connect", connected)
        await engine.dispose()
    return counts


def test_a_busy_moments_connections_stay_open_for_the_next(database: Database) -> None:
    engine = create_engine(database.settings(pool_size=12, pool_overflow=3))
    # Ten at once, three times: ten opened, then none (SQLAlchemy's default pool kept five
    # and opened five anew each time). Past the pool, the overflow is opened each time.
    assert asyncio.run(_opened_in(engine, [10, 10, 10, 15, 15])) == [10, 0, 0, 5, 3]


def test_the_pool_is_sized_by_the_settings(database: Database) -> None:
    engine = create_engine(database.settings())
    try:
        pool: Any = engine.sync_engine.pool
        assert (pool.size(), pool._max_overflow) == (20, 10)
    finally:
        asyncio.run(engine.dispose())


def test_the_pool_sizes_are_read_from_the_environment(tmp_path: Path) -> None:
    default = Settings.from_env({"SECRET_KEY": "k"}, var_dir=tmp_path)
    assert (default.pool_size, default.pool_overflow) == (20, 10)
    env = {"SECRET_KEY": "k", "DATABASE_POOL_SIZE": "40", "DATABASE_POOL_OVERFLOW": "0"}
    chosen = Settings.from_env(env, var_dir=tmp_path)
    assert (chosen.pool_size, chosen.pool_overflow) == (40, 0)
    with pytest.raises(ValueError):
        Settings.from_env({**env, "DATABASE_POOL_SIZE": "plenty"}, var_dir=tmp_path)
