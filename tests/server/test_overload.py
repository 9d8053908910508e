"""Shedding load (issue 15): a busy server answers 503 with Retry-After, never a 500, and keeps
nothing of a request it turned away."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from litestar.testing import TestClient
from sqlalchemy import exc as sql_errors
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from deaddrop.server.app import create_app
from deaddrop.server.overload import (
    BUSY_MESSAGE,
    STREAMS_MESSAGE,
    Gate,
    Limits,
    Overloaded,
    is_saturated,
    shed_load,
)
from deaddrop.server.settings import Settings
from tests.server.conftest import Database
from tests.server.visitor import Visitor, csrf_token_in

POOL_SIZE, POOL_OVERFLOW = 5, 10
POOL_CONNECTIONS = POOL_SIZE + POOL_OVERFLOW


@pytest.fixture
def settings(database: Database) -> Settings:
    """A small pool that gives up quickly, so a saturated database shows within the test."""
    return database.settings(
        pool_timeout_seconds=0.2, pool_size=POOL_SIZE, pool_overflow=POOL_OVERFLOW
    )


def _hold_every_connection(server: TestClient[Any]) -> list[AsyncConnection]:
    """Take every connection of the app's pool, as a crowd of slow requests would."""
    engine: AsyncEngine = server.app.state.engine

    async def take() -> list[AsyncConnection]:
        return [await engine.connect() for _ in range(POOL_CONNECTIONS)]

    return server.blocking_portal.call(take)


def _release(server: TestClient[Any], held: list[AsyncConnection]) -> None:
    async def close() -> None:
        for connection in held:
            await connection.close()

    server.blocking_portal.call(close)


def test_a_saturated_database_answers_503_with_retry_after(
    server: TestClient[Any], alice: Visitor
) -> None:
    held = _hold_every_connection(server)
    try:
        page = alice.get("/")  # the home page's queries go through the pool
        api = alice.get("/api/watch/nothing-here")
        # A page made of reads alone needs no pooled connection on a SQLite file (its reads
        # inline, db/inline_reads.py): answered all the same; on PostgreSQL turned away.
        account = alice.get("/account").status_code
    finally:
        _release(server, held)
    sqlite = server.app.state.engine.dialect.name == "sqlite"
    assert account == (200 if sqlite else 503)
    assert page.status_code == 503
    assert page.headers["Retry-After"] == "1"
    assert BUSY_MESSAGE in page.text
    assert api.status_code == 503
    assert api.json() == {"status_code": 503, "detail": BUSY_MESSAGE}
    assert alice.get("/account").status_code == 200  # the pool is back: so is the page


def test_a_post_turned_away_keeps_nothing_and_goes_through_when_sent_again(
    server: TestClient[Any], alice: Visitor
) -> None:
    form = {"display_name": "Alice Again", "email": "", "time_zone": "UTC"}
    token_page = alice.get("/account")
    held = _hold_every_connection(server)
    try:
        turned_away = alice.http.post(
            "/account", data={**form, "_csrf_token": csrf_token_in(token_page.text)}
        )
    finally:
        _release(server, held)
    assert turned_away.status_code == 503
    assert "Alice Again" not in alice.get("/account").text
    assert alice.submit("/account", form).status_code == 200
    assert "Alice Again" in alice.get("/account").text


def test_requests_past_the_limit_are_turned_away_before_any_work(database: Database) -> None:
    app = create_app(database.settings(max_requests_in_flight=0), pouch_runner=False)
    with TestClient(app) as client:
        page = client.get("/")
        api = client.get("/api/health")
    assert page.status_code == 503
    assert page.headers["Retry-After"] == "1"
    assert BUSY_MESSAGE in page.text
    assert api.json() == {"status_code": 503, "detail": BUSY_MESSAGE}


def _gate(limits: Limits) -> tuple[Any, Any, asyncio.Event, list[str]]:
    """One gate around two routes' apps (as Litestar wraps each route) that wait for
    `release` before they answer."""
    release = asyncio.Event()
    served: list[str] = []

    async def slow_app(scope: Any, receive: Any, send: Any) -> None:
        await release.wait()
        served.append(scope["path"])

    gate = Gate(limits)
    return shed_load(slow_app, gate), shed_load(slow_app, gate), release, served


def _scope(path: str) -> dict[str, Any]:
    return {"type": "http", "method": "GET", "path": path}


async def _nothing() -> None:
    return None


def test_the_gates_count_requests_and_streams_apart_and_free_a_place_when_done() -> None:
    async def scenario() -> None:
        gate, other_route, release, served = _gate(Limits(requests=1, streams=1))
        first = asyncio.create_task(gate(_scope("/account"), _nothing, _nothing))
        stream = asyncio.create_task(gate(_scope("/games/abc/events"), _nothing, _nothing))
        await asyncio.sleep(0)
        with pytest.raises(Overloaded) as busy:  # the limit is the process's, not the route's
            await other_route(_scope("/"), _nothing, _nothing)
        assert busy.value.headers == {"Retry-After": "1"}
        with pytest.raises(Overloaded) as streams:
            await gate(_scope("/t/xyz/events"), _nothing, _nothing)
        assert streams.value.detail == STREAMS_MESSAGE
        assert streams.value.headers == {"Retry-After": "5"}
        release.set()
        await asyncio.gather(first, stream)
        await gate(_scope("/account"), _nothing, _nothing)  # a place is free again
        assert served == ["/account", "/games/abc/events", "/account"]

    asyncio.run(scenario())


def test_a_failing_request_frees_its_place() -> None:
    async def failing(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("boom")

    async def scenario() -> None:
        gate: Any = shed_load(failing, Gate(Limits(requests=1)))
        for _ in range(3):
            with pytest.raises(RuntimeError):
                await gate(_scope("/"), _nothing, _nothing)

    asyncio.run(scenario())


def test_what_counts_as_a_saturated_database() -> None:
    pool = sql_errors.TimeoutError("QueuePool limit of size 5 overflow 10 reached")
    locked = sql_errors.OperationalError("UPDATE x", {}, Exception("database is locked"))
    other = sql_errors.OperationalError("SELECT", {}, Exception("no such table: x"))
    wrapped = RuntimeError("while rendering")
    wrapped.__cause__ = pool
    assert is_saturated(pool)
    assert is_saturated(locked)
    assert is_saturated(wrapped)
    assert not is_saturated(other)
    assert not is_saturated(ValueError("nothing to do with the database"))
