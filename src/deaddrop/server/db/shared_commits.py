"""SQLite saves that share one commit: those that arrive while a commit runs go in the next one
together (a group commit), each in a savepoint of its own.

Every save on SQLite committed in a transaction of its own: its writes ran under this
process's write gate, then its COMMIT (the WAL's write and the disk's sync) went to the
connection's thread and back, and only once the event loop came round to it again did the gate
pass to the next writer. Under load each save paid a thread's round trip, two statements to
switch SQLite's busy timeout and a turn of a busy loop while holding the gate, and the disk
synced once per save. Here a save hands its writes over as a unit, a function of a `sqlite3`
connection: one connection of its own, on a thread of its own, takes every unit waiting, runs
each between `SAVEPOINT` and `RELEASE` inside one `BEGIN IMMEDIATE … COMMIT`, and answers each
once the commit is durable. A unit that fails (a lost race, a broken key) is rolled back to its
savepoint alone and its caller gets the error, as if it had committed by itself; a commit that
fails fails every unit in it, none of which was answered before, so nothing is half-stored.

The connection's thread is its own, fed through a queue: a commit handed to it and answered
back costs the event loop one queue put and one wake-up, where an executor's round trip (its
future, the asyncio future wrapping it, their callbacks and locks) cost three times as much of
a save's CPU (measured in isolation: 27 against 70 µs of the process's CPU a round trip).

The units take the same write gate as the pool's connections (db/sqlite_connection.py), so
within this process they never wait in SQLite's busy handler for one another; another process
holding SQLite's write lock is waited for on the thread, as SQLite's busy timeout says.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from deaddrop.server.db.sqlite_connection import (
    GatedConnection,
    acquire_gate,
    configure_sqlite,
    write_gate,
)

T = TypeVar("T")

Unit = Callable[[sqlite3.Connection], Any]
"""One save's writes: run on the shared connection inside the shared transaction."""

UNITS_PER_COMMIT = 64
"""At most this many saves share one commit, so that none waits long for a crowd's writes."""

Outcome = tuple[bool, Any]
"""A unit's outcome: (True, its result) or (False, its error)."""
_Batch = tuple[list[Unit], asyncio.Future[list[Outcome]]]
_CLOSE = None
"""Put on the queue: the thread closes the connection and ends."""
CLOSE_WAIT_SECONDS = 5.0
"""How long `close` waits for the thread to finish the commits it was given."""
IDLE_SECONDS = 60.0
"""The thread ends (its connection closed) after this long with nothing to commit; the next
commit starts another."""


class SharedCommits:
    """One database file's shared commits in one event loop: a connection, its thread and the
    units waiting for the next commit."""

    def __init__(self, database: str, wait_seconds: float) -> None:
        self._database = database
        self._wait_seconds = wait_seconds
        self._batches: queue.SimpleQueue[_Batch | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None  # started at the first commit
        self._starting = threading.Lock()
        """Held to start the thread or to let it end, never both at once."""
        self._connection: sqlite3.Connection | None = None  # opened and used on the thread
        self._waiting: list[tuple[Unit, asyncio.Future[Any]]] = []
        self._committing: asyncio.Task[None] | None = None
        self._closed = False

    async def run(self, unit: Callable[[sqlite3.Connection], T]) -> T:
        """Run `unit` in the next shared transaction; its result once the commit is durable
        (its own error, or the commit's, raised here: then nothing of it was stored)."""
        if self._closed:
            raise RuntimeError("shared commits closed")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._waiting.append((unit, done))
        if self._committing is None or self._committing.done():
            self._committing = loop.create_task(self._commit_waiting())
        return await done

    async def _commit_waiting(self) -> None:
        """While units wait: take them (a commit's worth), commit them together, answer each."""
        loop = asyncio.get_running_loop()
        while self._waiting:
            async with _Gate(write_gate(self._database), self._wait_seconds):
                batch = self._waiting[:UNITS_PER_COMMIT]
                del self._waiting[:UNITS_PER_COMMIT]
                outcomes = await self._on_thread(loop, [unit for unit, _ in batch])
            for (_, done), (ok, value) in zip(batch, outcomes, strict=True):
                if done.done():  # its waiter was cancelled: stored all the same
                    continue
                if ok:
                    done.set_result(value)
                else:
                    done.set_exception(value)

    async def _on_thread(self, loop: asyncio.AbstractEventLoop, units: list[Unit]) -> list[Outcome]:
        """The units committed together on the connection's thread; each one's outcome."""
        if self._closed:  # closed while they waited for the gate: the thread takes no more
            return [(False, RuntimeError("shared commits closed"))] * len(units)
        answered: asyncio.Future[list[Outcome]] = loop.create_future()
        self._batches.put((units, answered))
        with self._starting:  # put first: a thread deciding to end sees the batch, or has ended
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._serve, args=(loop,), name="sqlite-shared-commits", daemon=True
                )
                self._thread.start()
        return await answered

    def _serve(self, loop: asyncio.AbstractEventLoop) -> None:
        """The thread: commit each batch handed over and answer it on the loop, until closed or
        idle for `IDLE_SECONDS` (a loop gone without closing them leaves no thread behind)."""
        while True:
            try:
                batch = self._batches.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._starting:
                    if self._batches.empty():
                        self._thread = None
                        break
                continue
            if batch is _CLOSE:
                break
            units, answered = batch
            try:
                outcomes: list[Outcome] = self._commit(units)
            except BaseException as error:  # answered as every unit's error, never lost
                outcomes = [(False, error)] * len(units)
            with contextlib.suppress(RuntimeError):  # a closed loop: no one is left to answer
                loop.call_soon_threadsafe(_answer, answered, outcomes)
        self._disconnect()  # opened on this thread, closed on it

    def _commit(self, units: list[Unit]) -> list[Outcome]:
        """On the thread: the units in one transaction, each in a savepoint when they are
        several; (True, result) or (False, error) for each."""
        connection = self._connected()
        alone = len(units) == 1
        outcomes: list[Outcome] = []
        statement = "BEGIN IMMEDIATE"
        try:
            connection.execute(statement)
            for unit in units:
                outcomes.append(_run(connection, unit, alone))
            if alone and not outcomes[0][0]:
                connection.execute("ROLLBACK")
                return outcomes
            statement = "COMMIT"
            connection.execute(statement)
        except sqlite3.Error as error:  # BEGIN (another process's lock) or COMMIT (the disk)
            _roll_back(connection)
            # As SQLAlchemy raises it, one for each unit ("database is locked": a 503).
            return [
                (False, DBAPIError.instance(statement, (), error, sqlite3.Error)) for _ in units
            ]
        except BaseException:
            # Never left in the transaction: it would hold SQLite's write lock from everyone.
            _roll_back(connection)
            raise
        return outcomes

    def _connected(self) -> sqlite3.Connection:
        """The shared connection, opened on first use (transactions begun explicitly)."""
        if self._connection is None:
            connection = sqlite3.connect(self._database, isolation_level=None)
            configure_sqlite(connection)
            self._connection = connection
        return self._connection

    def close(self) -> None:
        """Close the connection once the thread is done with what it was given, waiting for
        that a while (its thread is a daemon: one still committing at the interpreter's exit
        would be cut short, its commit answered to no one and rolled back by SQLite)."""
        self._closed = True
        self._batches.put(_CLOSE)  # a thread ended or never started has no connection open
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(CLOSE_WAIT_SECONDS)

    def _disconnect(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _answer(answered: asyncio.Future[list[Outcome]], outcomes: list[Outcome]) -> None:
    """On the loop: a batch's outcomes to the task waiting for them."""
    if not answered.done():
        answered.set_result(outcomes)


def _roll_back(connection: sqlite3.Connection) -> None:
    """End the transaction under way, if one is."""
    if connection.in_transaction:
        connection.execute("ROLLBACK")


def _run(connection: sqlite3.Connection, unit: Unit, alone: bool) -> Outcome:
    """One unit inside the open transaction, in a savepoint unless it is alone there."""
    if alone:
        try:
            return True, unit(connection)
        except Exception as error:
            return False, error
    connection.execute("SAVEPOINT unit")
    try:
        result = unit(connection)
    except Exception as error:
        connection.execute("ROLLBACK TO unit")
        connection.execute("RELEASE unit")
        return False, error
    connection.execute("RELEASE unit")
    return True, result


class _Gate:
    """This process's write gate, waited for at most the busy timeout (then gone around, as a
    pool connection does: SQLite's busy handler decides)."""

    def __init__(self, gate: asyncio.Lock, wait_seconds: float) -> None:
        self._gate = gate
        self._wait_seconds = wait_seconds
        self._held = False

    async def __aenter__(self) -> None:
        self._held = await acquire_gate(self._gate, self._wait_seconds)

    async def __aexit__(self, *_: object) -> None:
        if self._held:
            self._gate.release()


_shared: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, SharedCommits]] = (
    weakref.WeakKeyDictionary()
)


def shared_commits(database: str, wait_seconds: float) -> SharedCommits:
    """This event loop's shared commits for one database file."""
    by_file = _shared.setdefault(asyncio.get_running_loop(), {})
    found = by_file.get(database)
    if found is None:
        found = by_file[database] = SharedCommits(database, wait_seconds)
    return found


def sharing(connection: Connection) -> SharedCommits | None:
    """The shared commits a save on `connection` may join; None unless it is a SQLite file's
    connection (shared commits on) with no write of its own under way, which the shared
    transaction would wait for while its caller waits for the shared transaction."""
    driver = connection.connection.driver_connection
    if not isinstance(driver, GatedConnection) or not driver.shares_commits or driver.writing():
        return None
    return shared_commits(driver.database, driver.wait_seconds)


def close_shared_commits(database: str) -> None:
    """Close every loop's shared commits of `database` (its engine is disposed of)."""
    for by_file in list(_shared.values()):
        found = by_file.pop(database, None)
        if found is not None:
            found.close()
