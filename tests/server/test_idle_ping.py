"""PostgreSQL's pool pings a connection only after it lay idle, and replaces a dead one before
a request sees it (server/db/idle_ping.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from deaddrop.server.db import idle_ping
from deaddrop.server.db.engine import create_engine
from deaddrop.server.settings import Settings
from tests.server.conftest import postgres_url_or_skip

SECRET = "idle-ping-test-secret-key-that-is-long-enough"

pytestmark = pytest.mark.services


@pytest.fixture
def pg_url() -> str:
    """TEST_DATABASE_URL, checked before the test's event loop starts."""
    return postgres_url_or_skip()


def _engine(url: str) -> AsyncEngine:
    return create_engine(Settings(database_url=url, secret_key=SECRET))


def _count_pings(engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    pings = [0]
    dialect = engine.sync_engine.dialect
    ping = dialect.do_ping

    def counted(dbapi_connection: Any) -> bool:
        pings[0] += 1
        return bool(ping(dbapi_connection))

    monkeypatch.setattr(dialect, "do_ping", counted)
    return pings


async def _backend_pid(engine: AsyncEngine) -> int:
    async with engine.connect() as connection:
        return int(await connection.scalar(text("SELECT pg_backend_pid()")))


async def test_a_connection_back_moments_ago_is_used_without_a_ping(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = _engine(pg_url)
    pings = _count_pings(engine, monkeypatch)
    try:
        first = await _backend_pid(engine)
        for _ in range(5):
            assert await _backend_pid(engine) == first  # the same pooled connection
        assert pings[0] == 0
    finally:
        await engine.dispose()


async def test_an_idle_connection_is_pinged_and_a_dead_one_replaced_unseen(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = _engine(pg_url)
    killer = _engine(pg_url)
    pings = _count_pings(engine, monkeypatch)
    try:
        first = await _backend_pid(engine)
        monkeypatch.setattr(idle_ping, "IDLE_BEFORE_PING_SECONDS", 0.05)
        await asyncio.sleep(0.1)
        assert await _backend_pid(engine) == first  # pinged, alive, kept
        assert pings[0] == 1
        async with killer.connect() as connection:  # as a server restart would
            await connection.execute(text(f"SELECT pg_terminate_backend({first})"))
        await asyncio.sleep(0.1)
        second = await _backend_pid(engine)  # no error: the dead one was thrown away
        assert second != first
    finally:
        await engine.dispose()
        await killer.dispose()
