"""A prepared statement run straight through the database's driver, SQLAlchemy's execution
skipped.

On SQLite a statement runs on the event loop (db/sqlite_connection.py) in tens of
microseconds, while SQLAlchemy's execution around it (the session, the greenlet, the result)
costs more than the statement itself (the page facts: 0.30 ms through SQLAlchemy, 0.13 ms
here), and the statements every page and every save send pay it thousands of times a second.
Here a statement is compiled once, its values bound as SQLAlchemy binds them (each type's bind
processor: a moment as its stored text, JSON as text), its rows read as SQLAlchemy reads them
and its errors raised as SQLAlchemy raises them; it is sent on the connection the session
already holds, inside its transaction. On PostgreSQL the same goes through asyncpg
(db/asyncpg_driver.py: inside the session's transaction, or alone). For a statement that
leaves a value to a column default or binds a list, or on another driver, SQLAlchemy executes
it as usual. The engine's `before_cursor_execute` listeners hear of every statement either way.
"""

from __future__ import annotations

import functools
import operator
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Executable, Table, bindparam, insert
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from deaddrop.server.db.asyncpg_driver import may_send, send_on_asyncpg
from deaddrop.server.db.inline_reads import InlineReader, inline_reader
from deaddrop.server.db.lone_statements import LoneStatements, lone_statements
from deaddrop.server.db.prefetch import take
from deaddrop.server.db.sqlite_connection import GatedConnection

Slot = tuple[str, Any, Callable[[Any], Any] | None]
"""One parameter of a statement: its name, its own value (`_GIVEN`: the caller's), and the
processor of the caller's value."""
_GIVEN = object()


@dataclass(frozen=True)
class Prepared:
    """A statement compiled for one database: its SQL, its parameters in order, its result
    columns' readers."""

    sql: str
    slots: tuple[Slot, ...]
    readers: tuple[tuple[int, Callable[[Any], Any]], ...]
    """The result columns SQLAlchemy reads through a processor (a moment from its text, JSON
    from its text), by position."""
    returns_rows: bool
    """A query, or a write with its own RETURNING (asyncpg fetches the one, executes the other)."""

    def read(self, row: Sequence[Any]) -> tuple[Any, ...]:
        """A driver's row as SQLAlchemy's result would give it."""
        if not self.readers:
            return tuple(row)
        values = list(row)
        for index, read in self.readers:
            if values[index] is not None:
                values[index] = read(values[index])
        return tuple(values)

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The driver's parameters for `values`, bound as SQLAlchemy binds them, the statement's
        own values among them; None when one has no value (a column default left out:
        SQLAlchemy fills it in, not this)."""
        plan = self._plan
        try:
            given = plan.take(values)
        except KeyError:
            return None
        if plan.simple:
            return given
        bound = list(given)
        for index, own in plan.owns:  # in order: each lands at its own position
            bound.insert(index, own)
        for index, process in plan.processes:
            bound[index] = process(bound[index])
        return tuple(bound)

    @functools.cached_property
    def _plan(self) -> _Plan:
        return _Plan.of(self.slots)


@dataclass(frozen=True, slots=True)
class _Plan:
    """How a statement's parameters are taken from the caller's values: in one call of C code
    (`operator.itemgetter`) rather than a Python loop over the slots, as a save binds some
    thirty values and every request binds some."""

    take: Callable[[Mapping[str, Any]], tuple[Any, ...]]
    """The caller's values of the slots it gives, in order (KeyError: one is missing)."""
    owns: tuple[tuple[int, Any], ...]
    """The statement's own values (bound already), by position."""
    processes: tuple[tuple[int, Callable[[Any], Any]], ...]
    """The processors of the caller's values, by position."""
    simple: bool
    """Neither of those: `take`'s tuple is the answer as it is."""

    @classmethod
    def of(cls, slots: tuple[Slot, ...]) -> _Plan:
        """The plan of these slots."""
        names = tuple(name for name, own, _process in slots if own is _GIVEN)
        owns = tuple((index, own) for index, (_, own, _) in enumerate(slots) if own is not _GIVEN)
        processes = tuple((index, slot[2]) for index, slot in enumerate(slots) if slot[2])
        return cls(_getter(names), owns, processes, not owns and not processes)


def _getter(names: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """A function of a mapping giving its values of `names` as a tuple (KeyError: missing)."""
    if len(names) >= 2:
        return operator.itemgetter(*names)
    if names:
        (name,) = names
        return lambda values: (values[name],)
    return lambda _values: ()


_PREPARED: dict[tuple[str, Any], Prepared | None] = {}
"""Statements by database and identity: each is built once (module constants, cached
builders); None for one this module cannot bind (an expanding IN, a value computed at
execution)."""


def prepared(statement: Any, dialect: Dialect) -> Prepared | None:
    """`statement` compiled for `dialect` once (None: leave it to SQLAlchemy)."""
    key = (dialect.name, statement)
    if key in _PREPARED:
        return _PREPARED[key]
    compiled = statement.compile(dialect=dialect)
    slots: list[Slot] = []
    ready: Prepared | None = None
    for name in compiled.positiontup or ():
        bind = compiled.binds[name]
        if bind.expanding or bind.callable is not None or bind.literal_execute:
            break
        process = bind.type.dialect_impl(dialect).bind_processor(dialect)
        if bind.value is None:
            slots.append((name, _GIVEN, process))
        else:  # the statement's own value (a namespace, a tab's name), bound once
            slots.append((name, bind.value if process is None else process(bind.value), None))
    else:
        readers = [
            (index, column.type.dialect_impl(dialect).result_processor(dialect, None))
            for index, column in enumerate(getattr(statement, "exported_columns", ()))
        ]
        reading = tuple((index, read) for index, read in readers if read is not None)
        # Not an implicit RETURNING (SQLAlchemy adds one to fetch a new row's key): only the
        # statement's own.
        returns_rows = bool(statement.is_select or getattr(statement, "_returning", ()))
        ready = Prepared(compiled.string, tuple(slots), reading, returns_rows)
    _PREPARED[key] = ready
    return ready


@functools.cache
def inserting(table: Table, names: tuple[str, ...]) -> Any:
    """`INSERT INTO table (names) VALUES (:names)`: built once per table and columns (a few,
    fixed by the code that inserts), so that it is compiled for the driver once too; never
    evicted, or `_PREPARED` would keep the compiled copies of statements built again."""
    return insert(table).values({name: bindparam(name) for name in names})


@dataclass(frozen=True)
class Sent:
    """What a statement sent through the driver gave: its rows and the rows it changed."""

    rows: list[tuple[Any, ...]]
    rowcount: int


async def send(
    connection: AsyncConnection,
    statement: Executable,
    values: Mapping[str, Any],
    *,
    alone: bool = False,
) -> Sent:
    """Run `statement` with `values` on `connection` (in its transaction): straight through the
    driver when it can, else through SQLAlchemy. `alone`: a read that stands by itself, needing
    no transaction (on PostgreSQL, outside an open one, none is begun for it)."""
    sync = connection.sync_connection
    assert sync is not None  # a connection in use
    sent = await _on_driver(sync, statement, values, alone)
    if sent is not None:
        return sent
    result = await connection.execute(statement, dict(values))
    rows = [tuple(row) for row in result] if result.returns_rows else []
    return Sent(rows, int(getattr(result, "rowcount", -1)))


async def send_in(
    db: AsyncSession, statement: Executable, values: Mapping[str, Any], *, alone: bool = False
) -> Sent:
    """`send` on the connection of `db`'s transaction (begun if it was not), its pending ORM
    changes left for the ORM's next flush (reaching the connection flushes nothing). `alone`:
    a statement that stands by itself (`send`'s), inside the transaction if one is open. A
    query the request read ahead with its session's row is answered from that, once
    (db/prefetch.py)."""
    kept = take(db, statement, values)
    if kept is not None:  # read ahead with the session's own row (db/prefetch.py)
        return Sent(kept, len(kept))
    session = db.sync_session
    # Reached without the greenlet only when the transaction already holds a connection: a
    # transaction begun by the ORM before any statement holds none, and checking one out may
    # open a new one (I/O: MissingGreenlet, as a bot seat's first save once met).
    if holds_connection(db):
        sent = await _on_driver(session.connection(), statement, values, alone)
        if sent is not None:
            return sent
    else:  # no connection held: a read on a SQLite file needs none (db/inline_reads.py)
        bind = session.bind
        engine = bind if isinstance(bind, Engine) else None
        reader = inline_reader(engine)
        sent = None if reader is None else read_inline(reader, statement, values)
        if sent is not None:
            return sent
        # Nor does a statement standing alone on PostgreSQL (db/lone_statements.py).
        lone = lone_statements(engine) if alone else None
        sent = None if lone is None else await send_lone(lone, statement, values)
        if sent is not None:
            return sent
    return await send(await db.connection(), statement, values, alone=alone)


def holds_connection(db: AsyncSession) -> bool:
    """Whether `db`'s transaction holds a connection of the pool (a statement sent, or begun
    on one); a transaction the ORM began before any statement holds none."""
    transaction = db.sync_session.get_transaction()
    return transaction is not None and bool(transaction._connections)


def read_inline(
    reader: InlineReader, statement: Executable, values: Mapping[str, Any]
) -> Sent | None:
    """A query's rows read on a SQLite file's inline reader; None for a statement that is not
    a query or that this module cannot bind."""
    if not getattr(statement, "is_select", False):
        return None
    ready = prepared(statement, reader.engine.dialect)
    parameters = None if ready is None else ready.parameters(values)
    if ready is None or parameters is None:
        return None
    rows = [ready.read(row) for row in reader.run(ready.sql, parameters)]
    return Sent(rows, len(rows))


async def send_lone(
    lone: LoneStatements, statement: Executable, values: Mapping[str, Any]
) -> Sent | None:
    """A statement standing alone sent on one of PostgreSQL's lone connections; None for one
    this module cannot bind."""
    ready = prepared(statement, lone.engine.dialect)
    parameters = None if ready is None else ready.parameters(values)
    if ready is None or parameters is None:
        return None
    found, rowcount = await lone.run(ready.sql, parameters, ready.returns_rows)
    return Sent([ready.read(record) for record in found], rowcount)


def tell_listeners(connection: Connection, sql: str, parameters: Sequence[Any]) -> None:
    """Let the engine's listeners hear of a statement sent past SQLAlchemy's execution, as of
    any other (counts of statements in tests and tools); there is no cursor or execution
    context to give them."""
    if connection._has_events or connection.engine._has_events:
        for listener in connection.dispatch.before_cursor_execute:
            listener(connection, None, sql, parameters, None, False)


async def _on_driver(
    connection: Connection, statement: Executable, values: Mapping[str, Any], alone: bool = False
) -> Sent | None:
    """The statement run straight through the driver; None for one SQLAlchemy must run."""
    name = connection.dialect.name
    if name not in ("sqlite", "postgresql"):
        return None
    if name == "postgresql" and not await may_send(connection, alone):
        return None  # SQLAlchemy sends it (and finds the connection lost)
    driver = connection.connection.driver_connection
    ready = prepared(statement, connection.dialect)
    parameters = None if ready is None else ready.parameters(values)
    if ready is None or parameters is None:
        return None
    tell_listeners(connection, ready.sql, parameters)
    if name == "postgresql":
        try:
            found, rowcount = await send_on_asyncpg(
                driver, ready.sql, parameters, ready.returns_rows
            )
        except DBAPIError as error:
            if driver is not None and driver.is_closed():  # SQLAlchemy's test of a disconnect
                # As its execution does then: the connection leaves the pool, and the
                # transaction's rollback finds nothing to roll back.
                error.connection_invalidated = True
                connection.invalidate(error.orig)
            raise
        return Sent([ready.read(record) for record in found], rowcount)
    assert driver is not None  # a checked-out connection
    try:
        if isinstance(driver, GatedConnection):  # one call: no aiosqlite cursor around it
            found, rowcount = await driver.run(ready.sql, parameters)
            return Sent([ready.read(row) for row in found], rowcount)
        async with await driver.cursor() as cursor:
            await cursor.execute(ready.sql, parameters)
            rows = [ready.read(row) for row in await cursor.fetchall()]
            return Sent(rows, cursor.rowcount)
    except sqlite3.Error as error:
        # As SQLAlchemy raises it (a broken unique key: its IntegrityError, which a write's
        # commit turns into a `Conflict`).
        raise DBAPIError.instance(ready.sql, parameters, error, sqlite3.Error) from error
