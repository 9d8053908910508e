"""A prepared statement run straight through SQLite's driver, SQLAlchemy's execution skipped.

On SQLite a statement runs on the event loop (db/sqlite_connection.py) in a few tens of
microseconds, while SQLAlchemy's execution around it (the session, the greenlet, the result)
costs four to six times that; the statements every page and every save send pay it thousands
of times a second. Here a statement is compiled once, its values bound as SQLAlchemy would bind
them (each type's bind processor: a moment as its stored text, JSON as text) and its rows read
as SQLAlchemy reads them, sent on the connection the session already holds, inside its
transaction. On another database, or for a
statement that leaves a value to a column default, SQLAlchemy executes it as usual. The
engine's `before_cursor_execute` listeners hear of every statement either way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Executable
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession


@dataclass(frozen=True)
class Prepared:
    """A statement compiled for SQLite: its SQL, its parameters in order, their processors."""

    sql: str
    order: tuple[str, ...]
    needed: frozenset[str]
    """The parameters without a value of their own in the statement: the caller gives them (a
    column default left out is among them: SQLAlchemy fills it in, not this)."""
    processors: dict[str, Callable[[Any], Any]]
    readers: tuple[Callable[[Any], Any] | None, ...]
    """Each result column's result processor, as SQLAlchemy reads it (None: as it comes)."""
    compiled: Any

    def read(self, row: Sequence[Any]) -> tuple[Any, ...]:
        """A driver's row as SQLAlchemy's result would give it."""
        if not any(self.readers):
            return tuple(row)
        return tuple(
            value if read is None or value is None else read(value)
            for read, value in zip(self.readers, row, strict=True)
        )

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The driver's parameters for `values` (the statement's fixed ones added); None when
        one has no value."""
        if not self.needed <= values.keys():
            return None
        bound = self.compiled.construct_params(dict(values))
        for name, process in self.processors.items():
            bound[name] = process(bound[name])
        return tuple(bound[name] for name in self.order)


_PREPARED: dict[Any, Prepared] = {}
"""Statements by identity: each is built once (module constants, cached builders)."""


def prepared(statement: Any, dialect: Dialect) -> Prepared:
    """`statement` compiled for SQLite once."""
    found = _PREPARED.get(statement)
    if found is None:
        compiled = statement.compile(dialect=dialect)
        processors = {}
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processors[name] = process
        order = tuple(compiled.positiontup or ())
        needed = frozenset(name for name in order if compiled.binds[name].value is None)
        readers = tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None)
            for column in getattr(statement, "exported_columns", ())
        )
        found = Prepared(compiled.string, order, needed, processors, readers, compiled)
        _PREPARED[statement] = found
    return found


@dataclass(frozen=True)
class Sent:
    """What a statement sent through the driver gave: its rows and the rows it changed."""

    rows: list[tuple[Any, ...]]
    rowcount: int


async def send(
    connection: AsyncConnection, statement: Executable, values: Mapping[str, Any]
) -> Sent:
    """Run `statement` with `values` on `connection` (in its transaction): straight through the
    driver on SQLite, else through SQLAlchemy."""
    if connection.dialect.name == "sqlite":
        ready = prepared(statement, connection.dialect)
        parameters = ready.parameters(values)
        if parameters is not None:
            _tell_observers(connection, ready.sql, parameters)
            driver = (await connection.get_raw_connection()).driver_connection
            assert driver is not None  # a checked-out connection
            async with await driver.cursor() as cursor:
                await cursor.execute(ready.sql, parameters)
                rows = [ready.read(row) for row in await cursor.fetchall()]
                return Sent(rows, cursor.rowcount)
    result = await connection.execute(statement, dict(values))
    rows = [tuple(row) for row in result] if result.returns_rows else []
    return Sent(rows, int(getattr(result, "rowcount", -1)))


def _tell_observers(connection: AsyncConnection, sql: str, parameters: tuple[Any, ...]) -> None:
    """The engine's `before_cursor_execute` listeners hear of the statement as of any other
    (counts of statements in tests and tools; no cursor or execution context to give them)."""
    sync = connection.sync_connection
    assert sync is not None  # a connection in use
    for listener in sync.dispatch.before_cursor_execute:
        listener(sync, None, sql, parameters, None, False)


async def send_in(db: AsyncSession, statement: Executable, values: Mapping[str, Any]) -> Sent:
    """`send` on the connection of `db`'s transaction (begun if it was not), its pending ORM
    changes left for the ORM's next flush."""
    with db.no_autoflush:
        return await send(await db.connection(), statement, values)
