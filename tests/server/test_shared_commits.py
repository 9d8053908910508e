"""SQLite saves sharing one commit (server/db/shared_commits.py): the units waiting together go
in one transaction, each in a savepoint; one that fails is rolled back alone; a commit that
fails fails them all and stores nothing; another process's write lock is waited for on the
thread; a connection with a write of its own under way does not join; an idle thread ends;
closing waits for what the thread was given."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from deaddrop.server.db import shared_commits as shared_commits_module
from deaddrop.server.db.engine import create_engine
from deaddrop.server.db.shared_commits import SharedCommits, shared_commits, sharing
from deaddrop.server.overload import is_saturated
from deaddrop.server.settings import Settings

SECRET = "shared-commits-test-secret-key-long-enough"


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """An engine on a new SQLite file with a table of notes and one of their references."""
    engine = create_engine(
        Settings(database_url=f"sqlite:///{tmp_path / 'shared.sqlite3'}", secret_key=SECRET)
    )
    async with engine.begin() as connection:
        await connection.execute(text("CREATE TABLE notes (id INTEGER PRIMARY KEY, who INT)"))
        await connection.execute(
            text("CREATE TABLE refs (note INT REFERENCES notes (id) DEFERRABLE INITIALLY DEFERRED)")
        )
    yield engine
    await engine.dispose()


def _database(engine: AsyncEngine) -> str:
    return str(engine.url.database)


def _note(who: int) -> Callable[[sqlite3.Connection], int]:
    """A unit storing one note; its id."""

    def unit(connection: sqlite3.Connection) -> int:
        cursor = connection.execute("INSERT INTO notes (who) VALUES (?)", (who,))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    return unit


async def _notes(engine: AsyncEngine) -> list[int]:
    async with engine.connect() as connection:
        return list((await connection.execute(text("SELECT who FROM notes ORDER BY id"))).scalars())


async def _counting_commits(shared: SharedCommits) -> list[str]:
    """The transaction statements the shared connection runs from now on."""
    heard: list[str] = []

    def opened(connection: sqlite3.Connection) -> None:
        connection.set_trace_callback(
            lambda sql: heard.append(sql) if sql.split()[0] in ("BEGIN", "COMMIT") else None
        )

    await shared.run(opened)  # on the thread: the connection opened, its statements traced
    heard.clear()
    return heard


async def test_units_waiting_together_share_one_commit(engine: AsyncEngine) -> None:
    shared = shared_commits(_database(engine), 5.0)
    heard = await _counting_commits(shared)
    ids = await asyncio.gather(*(shared.run(_note(who)) for who in range(10)))
    assert sorted(ids) == ids and len(set(ids)) == 10  # each unit's own result
    assert await _notes(engine) == list(range(10))
    assert heard == ["BEGIN IMMEDIATE", "COMMIT"]  # one transaction, one sync of the disk


async def test_a_failing_unit_is_rolled_back_alone(engine: AsyncEngine) -> None:
    shared = shared_commits(_database(engine), 5.0)

    def half_then_fails(connection: sqlite3.Connection) -> None:
        connection.execute("INSERT INTO notes (who) VALUES (99)")
        raise LookupError("refused")

    first = shared.run(_note(1))
    failing = shared.run(half_then_fails)
    last = shared.run(_note(2))
    outcomes = await asyncio.gather(first, failing, last, return_exceptions=True)
    assert isinstance(outcomes[1], LookupError)
    assert await _notes(engine) == [1, 2]  # not the failed unit's 99


async def test_a_unit_alone_that_fails_stores_nothing(engine: AsyncEngine) -> None:
    shared = shared_commits(_database(engine), 5.0)

    def fails(connection: sqlite3.Connection) -> None:
        connection.execute("INSERT INTO notes (who) VALUES (99)")
        raise LookupError("refused")

    with pytest.raises(LookupError):
        await shared.run(fails)
    assert await _notes(engine) == []
    assert await shared.run(_note(3)) == 1


async def test_a_commit_that_fails_fails_every_unit_and_stores_nothing(
    engine: AsyncEngine,
) -> None:
    shared = shared_commits(_database(engine), 5.0)

    def broken_reference(connection: sqlite3.Connection) -> None:
        # A deferred foreign key is checked at the COMMIT: the whole transaction fails there.
        connection.execute("INSERT INTO refs (note) VALUES (12345)")

    outcomes = await asyncio.gather(
        shared.run(_note(1)),
        shared.run(broken_reference),
        shared.run(_note(2)),
        return_exceptions=True,
    )
    assert all(isinstance(outcome, IntegrityError) for outcome in outcomes)  # SQLAlchemy's
    assert await _notes(engine) == []
    assert await shared.run(_note(4)) == 1  # and it goes on


class _Abort(BaseException):
    """Not an `Exception`: what no unit catches (an interrupt, a thread's exit)."""


async def test_a_unit_interrupted_leaves_no_transaction_open(engine: AsyncEngine) -> None:
    shared = shared_commits(_database(engine), 5.0)

    def interrupted(connection: sqlite3.Connection) -> None:
        connection.execute("INSERT INTO notes (who) VALUES (99)")
        raise _Abort()

    outcomes = await asyncio.gather(
        shared.run(_note(1)), shared.run(interrupted), return_exceptions=True
    )
    assert all(isinstance(outcome, _Abort) for outcome in outcomes)
    other = sqlite3.connect(_database(engine), timeout=0)  # SQLite's write lock is free
    try:
        other.execute("INSERT INTO notes (who) VALUES (0)")
        other.commit()
    finally:
        other.close()
    assert await shared.run(_note(2)) == 2
    assert await _notes(engine) == [0, 2]


async def test_another_processs_write_lock_is_waited_for_on_the_thread(
    engine: AsyncEngine,
) -> None:
    shared = shared_commits(_database(engine), 5.0)
    other = sqlite3.connect(_database(engine))
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
        await shared.run(_note(1))
    finally:
        ticker.cancel()
        other.close()
    assert ticks >= 10  # the loop ran while the unit waited
    assert await _notes(engine) == [0, 1]


async def test_another_processs_lock_held_past_the_busy_timeout_is_saturation(
    engine: AsyncEngine,
) -> None:
    shared = shared_commits(_database(engine), 5.0)
    await shared.run(lambda connection: connection.execute("PRAGMA busy_timeout=50"))
    other = sqlite3.connect(_database(engine))
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(OperationalError) as refused:
            await shared.run(_note(1))
    finally:
        other.close()
    assert is_saturated(refused.value)  # answered 503 with Retry-After, not 500
    assert await shared.run(_note(2)) == 1  # and it goes on once the lock is free
    assert await _notes(engine) == [2]


async def test_a_connection_writing_itself_does_not_join(engine: AsyncEngine) -> None:
    async with engine.connect() as connection:
        sync = connection.sync_connection
        assert sync is not None
        assert sharing(sync) is not None  # nothing of its own under way
        await connection.execute(text("INSERT INTO notes (who) VALUES (1)"))
        # Its transaction holds the write gate: the shared commit would wait for it.
        assert sharing(sync) is None
        await connection.commit()
        assert sharing(sync) is not None


async def test_an_in_memory_database_or_the_setting_off_shares_nothing(tmp_path: Path) -> None:
    for url, shared in (
        (f"sqlite:///{tmp_path / 'on.sqlite3'}", True),
        ("sqlite:///:memory:", False),
    ):
        engine = create_engine(Settings(database_url=url, secret_key=SECRET))
        async with engine.connect() as connection:
            assert connection.sync_connection is not None
            assert (sharing(connection.sync_connection) is not None) is shared
        await engine.dispose()
    off = Settings.from_env({"SHARED_COMMITS": "0", "DATABASE_URL": f"sqlite:///{tmp_path}/x"})
    engine = create_engine(off)
    async with engine.connect() as connection:
        assert connection.sync_connection is not None
        assert sharing(connection.sync_connection) is None
    await engine.dispose()


async def test_an_engine_disposed_of_closes_its_shared_commits(engine: AsyncEngine) -> None:
    shared = shared_commits(_database(engine), 5.0)
    await shared.run(_note(1))
    await engine.dispose()
    with pytest.raises(RuntimeError):
        await shared.run(_note(2))
    assert shared_commits(_database(engine), 5.0) is not shared  # a new one, when used again


async def test_an_idle_thread_ends_and_the_next_commit_starts_another(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared_commits_module, "IDLE_SECONDS", 0.05)
    shared = shared_commits(_database(engine), 5.0)
    assert await shared.run(_note(1)) == 1
    first = shared._thread
    assert first is not None
    await asyncio.to_thread(first.join, 5.0)
    assert not first.is_alive() and shared._thread is None  # ended, its connection closed
    assert await shared.run(_note(2)) == 2  # a new thread, a new connection
    assert shared._thread is not None and shared._thread is not first
    assert await _notes(engine) == [1, 2]


async def test_closing_waits_for_the_commit_the_thread_was_given(engine: AsyncEngine) -> None:
    shared = shared_commits(_database(engine), 5.0)
    started = threading.Event()

    def slow_note(connection: sqlite3.Connection) -> int:
        started.set()
        time.sleep(0.2)  # still committing when the close comes
        return _note(7)(connection)

    saving = asyncio.ensure_future(shared.run(slow_note))
    await asyncio.to_thread(started.wait, 5.0)
    thread = shared._thread
    shared.close()
    assert thread is not None and not thread.is_alive()  # done with it, its connection closed
    assert await saving == 1  # answered, and stored
    assert await _notes(engine) == [7]
