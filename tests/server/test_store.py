"""The database-backed store behind sessions and throttles, and what sessions write to it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.kv import KeyValue
from deaddrop.server.db.store import DatabaseStore
from tests.server.visitor import Visitor

RunDb = Callable[[Callable[[AsyncSession], Awaitable[Any]]], Any]


def _in_app_loop(
    server: TestClient[Litestar], fn: Callable[[DatabaseStore], Awaitable[Any]]
) -> Any:
    store = DatabaseStore(server.app.state.sessionmaker, "test")

    async def call() -> Any:
        return await fn(store)

    return server.blocking_portal.call(call)


def _session_rows(run_db: RunDb) -> int:
    return int(
        run_db(
            lambda db: db.scalar(
                select(func.count()).select_from(KeyValue).where(KeyValue.namespace == "sessions")
            )
        )
    )


def test_set_get_replace_delete(server: TestClient[Litestar]) -> None:
    async def scenario(store: DatabaseStore) -> None:
        assert await store.get("k") is None
        await store.set("k", "one")
        await store.set("k", b"two", expires_in=60)
        assert await store.get("k") == b"two"
        assert await store.exists("k")
        remaining = await store.expires_in("k")
        assert remaining is not None and 55 <= remaining <= 60
        await store.delete("k")
        assert not await store.exists("k")
        await store.delete("k")  # deleting what is gone is fine

    _in_app_loop(server, scenario)


def test_expired_entries_are_invisible_then_purged(server: TestClient[Litestar]) -> None:
    async def scenario(store: DatabaseStore) -> None:
        await store.set("old", "x", expires_in=timedelta(seconds=-1))
        await store.set("new", "y", expires_in=60)
        assert await store.get("old") is None
        assert await store.expires_in("old") is None
        # The app's own hourly purge starts with the app and may have taken it already.
        await store.delete_expired()
        async with store.sessionmaker() as db:
            left = await db.scalar(
                select(func.count()).select_from(KeyValue).where(KeyValue.key == "old")
            )
        assert left == 0
        assert await store.get("new") == b"y"

    _in_app_loop(server, scenario)


def test_renew_pushes_the_expiry(server: TestClient[Litestar]) -> None:
    async def scenario(store: DatabaseStore) -> None:
        await store.set("k", "v", expires_in=10)
        await store.get("k", renew_for=1000)
        remaining = await store.expires_in("k")
        assert remaining is not None and remaining > 900

    _in_app_loop(server, scenario)


def test_simultaneous_increments_all_count(server: TestClient[Litestar]) -> None:
    async def scenario(store: DatabaseStore) -> None:
        counts = await asyncio.gather(*(store.increment("n", expires_in=60) for _ in range(12)))
        assert sorted(counts) == list(range(1, 13))  # none read the same count
        assert await store.get("n") == b"12"
        assert await store.increment("n", -20, expires_in=60) == 0  # never below zero
        remaining = await store.expires_in("n")
        assert remaining is not None and 55 <= remaining <= 60  # the first window's end

    _in_app_loop(server, scenario)


def test_an_expired_counter_starts_again_with_a_new_window(server: TestClient[Litestar]) -> None:
    async def scenario(store: DatabaseStore) -> None:
        await store.set("n", "7", expires_in=timedelta(seconds=-1))
        assert await store.increment("n", expires_in=30) == 1
        remaining = await store.expires_in("n")
        assert remaining is not None and 25 <= remaining <= 30

    _in_app_loop(server, scenario)


def test_namespaces_are_separate_and_delete_all_covers_nested_ones(
    server: TestClient[Litestar],
) -> None:
    async def scenario(store: DatabaseStore) -> None:
        nested = store.with_namespace("inner")
        other = DatabaseStore(store.sessionmaker, "test_other")
        await store.set("k", "outer")
        await nested.set("k", "inner")
        await other.set("k", "other")
        assert await nested.get("k") == b"inner"
        await store.delete_all()
        assert await store.get("k") is None
        assert await nested.get("k") is None
        assert await other.get("k") == b"other"

    _in_app_loop(server, scenario)


def test_sessions_write_rows_only_for_people_who_log_in(
    client: Visitor, alice: Visitor, run_db: RunDb
) -> None:
    client.get("/")
    client.get("/how-to-play")
    assert _session_rows(run_db) == 1  # alice's
    alice.log_out()
    alice.get("/")  # the "Logged out." notice is shown, and with it the session goes
    assert _session_rows(run_db) == 0
