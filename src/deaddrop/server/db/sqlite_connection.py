"""An aiosqlite connection that reads on the event loop and lets one writer at a time in.

aiosqlite runs every call on the connection's own thread: a page's three SELECTs cost a dozen
trips there and back (a queue put, a thread wake-up, the GIL handed over, a self-pipe write and
an event-loop turn each), more CPU than the statements themselves, and under load each trip
waits for the busy loop to let go of the GIL. A read never waits for a lock in WAL mode (a
reader sees the last commit, whoever is writing), so a SELECT, a fetch, a cursor's close and
the no-op rollback of a read-only connection run here, inline. Everything that may wait — a
write taking SQLite's one write lock, a commit's fsync — still goes to the thread, and while
the thread has a call of this connection (one whose waiter was cancelled runs on), the next
calls follow it there: the connection is never used by two threads at once.

SQLite has one writer at a time. Two of this process's connections writing at once make the
second sleep in SQLite's busy handler (1, 2, 5, 10 … 100 ms between tries) long after the
first has committed: the p99 of a busy minute's votes. So a connection takes this process's
write gate, an asyncio lock, before the first write of a transaction and gives it back once
the transaction is over; writers queue on it in order instead. A gate not had within the busy
timeout is gone around (SQLite's own busy handling decides then), so a caller that holds one
transaction open while another writes is no worse off than it was without the gate.

Once a connection holds the gate, no other writer of this process can hold SQLite's write
lock, so its write statements run inline too, with SQLite told not to wait (a busy timeout of
0 for that statement): a transaction then makes one trip to the thread, its commit (the fsync),
instead of one a statement. Under load each trip waits for a busy loop's turn, and the gate is
held all the while, so every writer queued behind waited for those turns too: the tail of the
votes and posts. Only another process (a worker, a second server) can hold the lock then; the
statement fails at once with SQLITE_BUSY, having changed nothing, and goes to the thread to wait
there as before. The busy timeout is set to 0 at a transaction's first inline write and given
back before anything else runs (a read, a trip to the thread, the gate's release): three
statements of their own around every write cost a vote about 4% of its CPU.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite

logger = logging.getLogger("deaddrop.sqlite")

SQLITE_BUSY_TIMEOUT_MS = 5000
"""How long SQLite waits on a lock held by another writer before giving up."""


def configure_sqlite(connection: Any) -> None:
    """Set a new connection up: WAL lets readers go on while one writer commits; foreign keys
    are off by default in SQLite; another writer is waited for."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.close()


# Statements that read and never wait on a lock in WAL mode; anything else may write.
READS = ("SELECT", "PRAGMA")
# Calls that only touch a cursor's results or its statement: nothing for SQLite to wait on.
CURSOR_CALLS = frozenset({"fetchone", "fetchmany", "fetchall", "close"})
# Calls that run SQL of their own (on a cursor or, aiosqlite's shortcuts, on the connection).
STATEMENT_CALLS = frozenset({"execute", "executemany", "executescript"})
# Writes that may run inline under the gate (`executescript` commits first: the thread's).
INLINE_WRITES = frozenset({"execute", "executemany"})

_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


async def acquire_gate(gate: asyncio.Lock, wait_seconds: float) -> bool:
    """Take a write gate within `wait_seconds`; False when gone around instead (SQLite's busy
    handler takes it from there, as without a gate), which is logged: a writer held it open
    that long."""
    if not gate.locked():  # had at once: no timeout scope to set up
        await gate.acquire()
        return True
    try:
        # A timeout scope, not `wait_for`: no task of its own for a gate had at once.
        async with asyncio.timeout(wait_seconds):
            await gate.acquire()
    except TimeoutError:
        logger.warning(
            "the SQLite write gate was held %.1f s: a writer goes around it", wait_seconds
        )
        return False
    return True


def write_gate(database: str) -> asyncio.Lock:
    """This event loop's write gate for one database file (tests run several loops)."""
    gates = _gates.setdefault(asyncio.get_running_loop(), {})
    return gates.setdefault(database, asyncio.Lock())


def is_read(sql: str) -> bool:
    """Whether a statement only reads (its first word; the ORM never leads with a comment)."""
    return sql.lstrip()[:6].upper().startswith(READS)


class GatedConnection(aiosqlite.Connection):
    """aiosqlite's connection, with reads run inline and writes let in one at a time."""

    def __init__(
        self,
        connector: Callable[[], sqlite3.Connection],
        database: str,
        wait_seconds: float,
        shares_commits: bool = False,
    ) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self._database = database
        self._wait_seconds = wait_seconds
        self.shares_commits = shares_commits and _is_file(database)
        """Whether a save may commit with others (db/shared_commits.py): a file's database,
        which another connection can open (an in-memory one is this connection's alone)."""
        self._gate: asyncio.Lock | None = None  # held while this connection's write is open
        # Calls handed to the thread, and calls it finished: each counted by one thread only.
        # A call whose waiter was cancelled still runs there; nothing runs inline meanwhile,
        # so the connection is never used by two threads at once.
        self._sent = 0
        self._finished = 0
        # The busy timeout, once read (None: not yet, or a PRAGMA may have changed it), and
        # whether it is set to 0 now, for the inline writes of the transaction under way.
        self._waits: int | None = None
        self._not_waiting = False
        # This loop's write gate, looked up once per loop (a weak dictionary's lookup cost a
        # save 1% of its CPU).
        self._gate_of: tuple[weakref.ref[asyncio.AbstractEventLoop], asyncio.Lock] | None = None

    def _inline(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> bool:
        """Whether a call cannot wait on SQLite's lock or the disk, so may run here."""
        owner, name = getattr(fn, "__self__", None), getattr(fn, "__name__", "")
        if isinstance(owner, sqlite3.Cursor):
            if name in CURSOR_CALLS:
                return True
            return name == "execute" and bool(args) and is_read(args[0])
        if isinstance(owner, sqlite3.Connection):
            # A new cursor, or ending a transaction that never began (a read-only session
            # handed back to the pool): nothing to do that could wait.
            return name == "cursor" or (name in ("rollback", "commit") and not owner.in_transaction)
        return False

    @staticmethod
    def _may_write(fn: Callable[..., Any], args: tuple[Any, ...]) -> bool:
        """Whether a call runs a statement that may write (it needs SQLite's write lock)."""
        name = getattr(fn, "__name__", "")
        return name in STATEMENT_CALLS and bool(args) and not is_read(str(args[0]))

    @property
    def database(self) -> str:
        """The database file this connection opened."""
        return self._database

    @property
    def wait_seconds(self) -> float:
        """How long a writer waits for the write gate before going around it."""
        return self._wait_seconds

    def writing(self) -> bool:
        """Whether this connection has a write under way (a transaction open, the gate held,
        or a call still on its thread): a write of its own caller must then not wait for
        another connection's."""
        return self._gate is not None or self._sent != self._finished or self._in_transaction()

    def _in_transaction(self) -> bool:
        """Whether the connection has a transaction open (a closed one has none)."""
        try:
            return self._connection is not None and self._connection.in_transaction
        except sqlite3.ProgrammingError:
            return False  # closed

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a call inline when it only reads, or writes through the gate without waiting;
        else on the thread, through the write gate."""
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        self._noticed(args)
        if self._sent == self._finished and self._inline(fn, args):
            if getattr(fn, "__name__", "") in STATEMENT_CALLS:
                self._wait_again()  # a read, which must wait as the connection says
            return fn(*args, **kwargs)
        writes = self._may_write(fn, args)
        if self._gate is None and writes and not self._in_transaction():
            await self._enter_gate()
        try:
            if writes and self._gate is not None and self._sent == self._finished:
                done, result = self._write_inline(fn, args, kwargs)
                if done:
                    return result
            self._wait_again()
            self._sent += 1
            return await super()._execute(self._counted, fn, *args, **kwargs)  # type: ignore[no-untyped-call]
        finally:
            # Over: committed, rolled back, or a statement that ran outside any transaction.
            if self._gate is not None and not self._in_transaction():
                self._leave_gate()

    def _noticed(self, args: tuple[Any, ...]) -> None:
        """Forget the busy timeout read when a PRAGMA (which may set it) comes by, once the
        connection has it back."""
        if args and isinstance(args[0], str) and args[0].lstrip()[:6].upper() == "PRAGMA":
            if self._sent == self._finished:
                self._wait_again()
            self._waits = None

    async def run(self, sql: str, parameters: Any) -> tuple[list[Any], int]:
        """A statement's rows and row count, in one call: a read here, at once; a write as
        `_execute` runs it (here under the gate, or on the thread), its rows fetched here."""
        connection = self._connection
        if not self._running or connection is None:
            raise ValueError("Connection closed")
        if self._sent == self._finished and is_read(sql):
            self._noticed((sql,))
            self._wait_again()
            cursor = connection.execute(sql, parameters)
        else:
            cursor = await self._execute(connection.execute, sql, parameters)
        try:
            if self._sent != self._finished:  # a call of a cancelled waiter still runs there
                return await self._execute(cursor.fetchall), cursor.rowcount
            return cursor.fetchall(), cursor.rowcount
        finally:
            if self._sent == self._finished:
                cursor.close()
            else:
                await self._execute(cursor.close)

    def _write_inline(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[bool, Any]:
        """(True, the result) of a write statement run here, SQLite told not to wait for its
        lock; (False, None) when another process holds it (nothing was written)."""
        if getattr(fn, "__name__", "") not in INLINE_WRITES:
            return False, None
        connection = self._connection
        assert connection is not None
        if not self._not_waiting:
            if self._waits is None:
                self._waits = int(connection.execute("PRAGMA busy_timeout").fetchone()[0])
            connection.execute("PRAGMA busy_timeout=0")
            self._not_waiting = True
        try:
            return True, fn(*args, **kwargs)
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                raise
            self._wait_again()
            return False, None  # another process writes: wait for it on the thread

    def _wait_again(self) -> None:
        """Give the connection its busy timeout back, if an inline write set it to 0."""
        if self._not_waiting and self._connection is not None:
            self._connection.execute(f"PRAGMA busy_timeout={self._waits}")
            self._not_waiting = False

    def _counted(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """On the thread: run the call, then count it finished."""
        try:
            return fn(*args, **kwargs)
        finally:
            self._finished += 1

    async def _enter_gate(self) -> None:
        """Wait for this process's other writers to finish (or the busy timeout to pass)."""
        gate = self._write_gate()
        if await acquire_gate(gate, self._wait_seconds):
            self._gate = gate

    def _write_gate(self) -> asyncio.Lock:
        """`write_gate` of this database and the running loop."""
        loop = asyncio.get_running_loop()
        if self._gate_of is None or self._gate_of[0]() is not loop:
            self._gate_of = (weakref.ref(loop), write_gate(self._database))
        return self._gate_of[1]

    def _leave_gate(self) -> None:
        self._wait_again()
        gate, self._gate = self._gate, None
        if gate is not None:
            gate.release()

    async def close(self) -> None:
        """Close the connection; a write still open gives the gate back."""
        try:
            await super().close()
        finally:
            self._leave_gate()


def _is_file(database: str) -> bool:
    """Whether `database` names a file that several connections open as one database."""
    return database not in ("", ":memory:") and not database.startswith("file:")


def gated_connect(
    wait_seconds: float, shares_commits: bool = False
) -> Callable[..., GatedConnection]:
    """aiosqlite.connect's twin making `GatedConnection`s (SQLAlchemy's `async_creator_fn`);
    `shares_commits`: their saves may commit together (db/shared_commits.py)."""

    def connect(database: str | Path, **kwargs: Any) -> GatedConnection:
        location = str(database)
        # Reads run on the event loop's thread, writes on the connection's own.
        kwargs["check_same_thread"] = False

        def connector() -> sqlite3.Connection:
            opened: sqlite3.Connection = sqlite3.connect(location, **kwargs)
            return opened

        connection = GatedConnection(connector, location, wait_seconds, shares_commits)
        connection._thread.daemon = True  # as SQLAlchemy does for aiosqlite's own
        return connection

    return connect
