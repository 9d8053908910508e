"""One database session a request: the session cookie's row and the handler's reads go
through one connection, which is back in the pool when the answer is out. SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from litestar.types import Scope
from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import AsyncEngine

from deaddrop.server.accounts.models import User
from deaddrop.server.db.driver import holds_connection
from deaddrop.server.db.engine import create_sessionmaker
from deaddrop.server.db.request_session import (
    KEPT_SESSIONS,
    close_request_session,
    close_session,
    request_session,
)
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    Table,
    six_players,
    started_table,
)
from tests.server.visitor import Visitor


def _in_a_request() -> bool:
    """Whether the running task serves a test client's request (not a background job)."""
    task = asyncio.current_task()
    return task is not None and task.get_name().startswith("anyio.")


@contextmanager
def counted(engine: AsyncEngine) -> Iterator[Counter[str]]:
    """Connection checkouts and checkins by requests, and SQL statements, on `engine`."""
    counts: Counter[str] = Counter()

    def checkout(*_args: Any) -> None:
        counts["checkouts"] += _in_a_request()

    def checkin(*_args: Any) -> None:
        counts["checkins"] += _in_a_request()

    def detach(*_args: Any) -> None:
        # A connection taken out of the pool for good (PostgreSQL's lone statements make theirs
        # so, db/lone_statements.py): not a pooled connection the request holds.
        counts["checkouts"] -= _in_a_request()

    def statement(_conn: Any, cursor: Any, *_args: Any) -> None:
        counts["statements"] += _in_a_request()
        # Straight to the driver (db/driver.py): its listeners hear of it without a cursor.
        counts["direct"] += _in_a_request() and cursor is None

    pool = engine.sync_engine.pool
    event.listen(pool, "checkout", checkout)
    event.listen(pool, "checkin", checkin)
    event.listen(pool, "detach", detach)
    event.listen(engine.sync_engine, "before_cursor_execute", statement)
    try:
        yield counts
    finally:
        event.remove(pool, "checkout", checkout)
        event.remove(pool, "checkin", checkin)
        event.remove(pool, "detach", detach)
        event.remove(engine.sync_engine, "before_cursor_execute", statement)


def test_a_floor_page_takes_no_pooled_connection(
    server: TestClient[Litestar], table: Table
) -> None:
    alice = table.players[0]
    floor = f"/games/{table.game_id}/floor"
    assert alice.get(floor).status_code == 200  # the first look writes; the second only reads
    with counted(server.app.state.engine) as counts:
        page = alice.get(floor)
    assert page.status_code == 200
    assert "Alice" in page.text
    # The page's facts (tabs/known_pages.py), the session row with its account, the game with
    # the seat, the journal after the known position with the player's last looks
    # (tabs/positions.py), and the facts once more to keep the page: five statements, all of
    # them reads, with no pooled connection: on SQLite sent inline (db/inline_reads.py), on
    # PostgreSQL alone on a connection off the pool (db/lone_statements.py).
    assert counts["checkouts"] == counts["checkins"] == 0
    assert counts["statements"] <= 5
    with counted(server.app.state.engine) as counts:
        again = alice.get(floor)
    assert again.text == page.text
    # Kept: the facts alone.
    assert counts["checkouts"] == counts["checkins"] == 0
    assert counts["statements"] <= 1


def test_a_request_refused_before_its_handler_gives_its_connection_back(
    server: TestClient[Litestar], alice: Visitor
) -> None:
    # No CSRF token: refused before the handler (and its `db`) ever runs.
    with counted(server.app.state.engine) as counts:
        assert alice.http.post("/logout", data={}).status_code == 403
    assert counts["checkouts"] == counts["checkins"] <= 1
    assert alice.is_logged_in()


def test_a_session_ended_elsewhere_ends_at_once(
    alice: Visitor, new_visitor: Callable[[], Visitor]
) -> None:
    # The same session cookie in a second browser: a log-out in one ends it in both.
    twin = new_visitor()
    twin.http.cookies.update(alice.http.cookies)
    assert twin.is_logged_in()
    alice.log_out()
    assert not twin.is_logged_in()


def test_a_password_changed_elsewhere_ends_a_known_session_at_once(
    alice: Visitor, new_visitor: Callable[[], Visitor]
) -> None:
    # The process knows which account this session names (its row comes with the session's);
    # a password change made in another browser still ends it at the next request.
    twin = new_visitor()
    assert twin.log_in("alice", alice.password).status_code == 200
    assert twin.is_logged_in() and twin.is_logged_in()
    fields = {"old_password": alice.password, "new_password": "a brand new passphrase"}
    fields["new_password_again"] = fields["new_password"]
    assert "Password changed." in alice.submit("/account/password", fields).text
    assert alice.is_logged_in()  # the changing browser's session moved on with it
    assert not twin.is_logged_in()


def test_a_closed_session_gives_back_its_connection_or_lets_go_without_one(
    server: TestClient[Litestar], alice: Visitor
) -> None:
    sessionmaker = server.app.state.sessionmaker
    pool = server.app.state.engine.sync_engine.pool

    async def close_both() -> None:
        holding = sessionmaker()
        account = await holding.scalar(select(User).where(User.username == "alice"))
        assert account is not None and holds_connection(holding)
        await close_session(holding)  # through the greenlet: the connection goes back
        assert not holds_connection(holding) and account not in holding
        lone = sessionmaker()
        lone.add(User(username="never_stored", display_name="x", password_hash="x"))
        checked_out = pool.checkedout()
        await close_session(lone)  # no connection held: nothing to give back, no statement
        assert pool.checkedout() == checked_out and not lone.new

    server.blocking_portal.call(close_both)
    assert pool.checkedout() == 0


def _scope(app: Litestar) -> Scope:
    """A request's scope, as far as its database session needs one."""
    return cast(Scope, {"type": "http", "litestar_app": app})


def test_a_closed_request_session_serves_the_next_request_afresh(
    server: TestClient[Litestar], alice: Visitor
) -> None:
    sessionmaker = server.app.state.sessionmaker

    async def two_requests() -> None:
        first = _scope(server.app)
        db = request_session(first, sessionmaker)
        account = await db.scalar(select(User).where(User.username == "alice"))
        assert account is not None
        db.info["left by the first request"] = True
        db.add(User(username="never_stored", display_name="x", password_hash="x"))
        await close_request_session(first)
        second = _scope(server.app)
        again = request_session(second, sessionmaker)
        assert again is db  # kept, not made anew
        # Nothing of the first request is left in it: no object, no change, no info of its own.
        assert account not in again and not again.new and not holds_connection(again)
        assert "left by the first request" not in again.info
        assert again.info == sessionmaker.kw["info"]
        found = await again.scalar(select(User.username).where(User.id == account.id))
        assert found == "alice"
        await close_request_session(second)

    server.blocking_portal.call(two_requests)


def test_a_session_that_failed_to_close_is_not_kept(
    server: TestClient[Litestar], alice: Visitor, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessionmaker = server.app.state.sessionmaker

    async def failing_close() -> None:
        scope = _scope(server.app)
        db = request_session(scope, sessionmaker)

        def broken() -> None:
            raise RuntimeError("the close failed")

        monkeypatch.setattr(db.sync_session, "close", broken)
        with pytest.raises(RuntimeError):
            await close_request_session(scope)
        monkeypatch.undo()
        later = _scope(server.app)
        assert request_session(later, sessionmaker) is not db
        await close_request_session(later)

    server.blocking_portal.call(failing_close)


def test_sessions_are_kept_per_sessionmaker_and_only_so_many(
    server: TestClient[Litestar], alice: Visitor
) -> None:
    sessionmaker = server.app.state.sessionmaker
    other = create_sessionmaker(server.app.state.engine, {"other": True})

    async def many() -> None:
        scopes = [_scope(server.app) for _ in range(KEPT_SESSIONS + 5)]
        opened = [request_session(scope, sessionmaker) for scope in scopes]
        assert len({id(db) for db in opened}) == len(opened)  # none shared at once
        for scope in scopes:
            await close_request_session(scope)
        elsewhere = _scope(server.app)
        theirs = request_session(elsewhere, other)
        assert theirs not in opened and theirs.info == {"other": True}
        await close_request_session(elsewhere)
        again = [_scope(server.app) for _ in range(KEPT_SESSIONS + 5)]
        reused = {id(request_session(scope, sessionmaker)) for scope in again}
        assert len(reused & {id(db) for db in opened}) == KEPT_SESSIONS
        for scope in again:
            await close_request_session(scope)

    server.blocking_portal.call(many)
