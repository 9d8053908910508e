"""A write's statements sent together: on PostgreSQL as one statement (hosting/one_statement.py),
on a SQLite file as one unit of a shared commit (hosting/shared_write.py, db/shared_commits.py).

Each function answers None when its write cannot go that way (another database, a statement
that cannot be bound straight to the driver, too many journal rows, a SQLite connection with a
write of its own under way); the caller then sends the statements one by one in a transaction.
A lost race surfaces as it would one by one: `StaleDataError` for the game row, SQLAlchemy's
`IntegrityError` for a key taken.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.engine.core.events import Event
from deaddrop.server.db.base import Base
from deaddrop.server.db.driver import holds_connection, prepared, send_in, tell_listeners
from deaddrop.server.db.inline_reads import sqlite_file, tell_engine
from deaddrop.server.db.shared_commits import SharedCommits, shared_commits, sharing
from deaddrop.server.db.versioned import mark_written
from deaddrop.server.hosting.one_statement import one_insert, one_insert_values, one_write_values
from deaddrop.server.hosting.shared_write import (
    RowThenJournal,
    Step,
    shared_insert,
    shared_write,
)
from deaddrop.server.live import journal


async def write_row(
    db: AsyncSession,
    row: Base,
    inserts: Sequence[tuple[Table, dict[str, Any]]],
    stream: str,
    events: Sequence[Event],
) -> int | None:
    """The game's versioned row, the log's inserts and the journal rows of `events` written
    together, the row then kept as written; the journal's new last seq (0: none), or None."""
    lone = _lone_sharing(db)
    if lone is not None:
        unit = shared_write(lone.engine.dialect, row, inserts, stream, events)
        if unit is not None:
            seq: int = await lone.run(unit, unit.steps)
            mark_written(db, row, unit.version)
            return seq
    connection = await db.connection()
    dialect = connection.dialect
    if dialect.name == "postgresql":
        found = one_write_values(row, inserts, stream, events)
        if found is None or prepared(found[0], dialect) is None:
            return None
        statement, values = found
        written, seq = (await send_in(db, statement, values, alone=True)).rows[0]
        if written != 1:
            raise StaleDataError("the game row was changed meanwhile")
        mark_written(db, row, values["_new"])
        return int(seq)
    sync = connection.sync_connection
    if dialect.name != "sqlite" or sync is None:
        return None
    unit = shared_write(dialect, row, inserts, stream, events)
    if unit is None:
        return None
    seq_or_none: int | None = await _run_shared(sync, unit, unit.steps)
    if seq_or_none is not None:
        mark_written(db, row, unit.version)
    return seq_or_none


async def insert_with_journal(
    db: AsyncSession,
    statement: Any,
    values: dict[str, Any],
    stream: str,
    after: int,
    events: Sequence[Event],
    keyed: str,
    missing: Callable[[], Exception],
) -> tuple[Any, int] | None:
    """The row `statement` inserts and the journal rows of `events` (each payload's `keyed`
    set to the row's key) numbered after `after`, stored together; (the key, the journal's new
    last seq), the key None when no row was inserted (SQLite raises `missing()` itself), or
    None."""
    lone = _lone_sharing(db)
    if lone is not None:
        unit = shared_insert(
            lone.engine.dialect, statement, values, stream, after, events, keyed, missing
        )
        if unit is not None:
            return await lone.run(unit, _heard(unit))  # type: ignore[no-any-return]
    connection = await db.connection()
    dialect = connection.dialect
    if dialect.name == "postgresql":
        if not events or len(events) > journal.NUMBERED_AT_ONCE:
            return None
        both = one_insert(statement, len(events), keyed)
        if prepared(both, dialect) is None:
            return None
        values = {**values, **one_insert_values(stream, after, events)}
        key, seq = (await send_in(db, both, values, alone=True)).rows[0]
        return key, after if seq is None else int(seq)
    sync = connection.sync_connection
    if dialect.name != "sqlite" or sync is None:
        return None
    unit = shared_insert(dialect, statement, values, stream, after, events, keyed, missing)
    if unit is None:
        return None
    found: tuple[Any, int] | None = await _run_shared(sync, unit, _heard(unit))
    return found


def _heard(unit: RowThenJournal) -> tuple[Step, ...]:
    """What the listeners hear of a row and its journal: the journal rows' values are made on
    the shared connection, once the key is known."""
    return (unit.insert, Step(unit.journal_row, ()))


@dataclass(frozen=True)
class _LoneSharing:
    """A SQLite file's shared commits, joined by a save whose session holds no connection."""

    engine: Engine
    shared: SharedCommits

    async def run(self, unit: Any, heard: Sequence[Step]) -> Any:
        """`unit` in the next shared commit, its statements told to the engine's listeners."""
        for step in heard:
            tell_engine(self.engine, step.ready.sql, step.parameters)
        return await self.shared.run(unit)


def _lone_sharing(db: AsyncSession) -> _LoneSharing | None:
    """The shared commits a save may join without a pooled connection: a SQLite file's (shared
    commits on) while `db` holds none, which it read through the inline reader
    (db/inline_reads.py); with none held, it has no write of its own under way either. A
    session holding a connection goes by it (`sharing`), and any other database its way."""
    bind = db.sync_session.bind
    file = sqlite_file(bind) if isinstance(bind, Engine) else None
    if file is None or not file.shares_commits or holds_connection(db):
        return None
    assert isinstance(bind, Engine)
    return _LoneSharing(bind, shared_commits(file.database, file.wait_seconds))


async def _run_shared(connection: Connection, unit: Any, heard: Sequence[Step]) -> Any:
    """`unit` in the next shared commit of `connection`'s database file, its statements told
    to the engine's listeners; None when the connection cannot share (db/shared_commits.py)."""
    shared = sharing(connection)
    if shared is None:
        return None
    for step in heard:
        tell_listeners(connection, step.ready.sql, step.parameters)
    return await shared.run(unit)
