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
from functools import partial
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.engine.core.events import Event
from deaddrop.server.db.base import Base
from deaddrop.server.db.driver import holds_connection, prepared, send_in, tell_listeners
from deaddrop.server.db.inline_reads import sqlite_file, tell_engine
from deaddrop.server.db.shared_commits import SharedCommits, shared_commits, sharing
from deaddrop.server.hosting.one_statement import one_insert, one_insert_values, one_write_values
from deaddrop.server.hosting.shared_write import Step, shared_insert, shared_write
from deaddrop.server.live import journal


async def write_row(
    db: AsyncSession,
    model: type[Base],
    params: dict[str, Any],
    inserts: Sequence[tuple[Table, dict[str, Any]]],
    stream: str,
    events: Sequence[Event],
) -> int | None:
    """A game's versioned row (`params`: its UPDATE's values, db/versioned.py), the log's
    inserts and the journal rows of `events` written together; the journal's new last seq (0:
    none), or None (nothing written). The caller keeps the row as written."""
    postgresql = _postgresql(db)
    if postgresql is not None:  # sent alone: off the pool when `db` holds no connection
        return await _row_in_one(db, postgresql, model, params, inserts, stream, events)
    joining = _lone_sharing(db)
    if joining is None:
        connection = await db.connection()
        joining = _held_sharing(connection)
        if joining is None:
            return None
    unit = shared_write(joining.dialect, model, params, inserts, stream, events)
    if unit is None:
        return None
    seq: int = await joining.run(unit, unit.steps)
    return seq


async def _row_in_one(
    db: AsyncSession,
    dialect: Dialect,
    model: type[Base],
    params: dict[str, Any],
    inserts: Sequence[tuple[Table, dict[str, Any]]],
    stream: str,
    events: Sequence[Event],
) -> int | None:
    """`write_row` on PostgreSQL: one statement."""
    found = one_write_values(model, params, inserts, stream, events)
    if found is None or prepared(found[0], dialect) is None:
        return None
    statement, values = found
    written, seq = (await send_in(db, statement, values, alone=True)).rows[0]
    if written != 1:
        raise StaleDataError("the game row was changed meanwhile")
    return int(seq)


async def insert_with_journal(
    db: AsyncSession,
    statement: Any,
    values: dict[str, Any],
    stream: str,
    events: Sequence[Event],
    keyed: str,
    missing: Callable[[], Exception],
) -> tuple[Any, int] | None:
    """The row `statement` inserts and the journal rows of `events` (each payload's `keyed`
    set to the row's key) numbered after the stream's last seq, stored together; (the key, the
    journal's new last seq), the key None when no row was inserted (SQLite raises `missing()`
    itself), or None."""
    dialect = _postgresql(db)
    if dialect is not None:  # sent alone: off the pool when `db` holds no connection
        if not events or len(events) > journal.NUMBERED_AT_ONCE:
            return None
        both = one_insert(statement, len(events), keyed)
        if prepared(both, dialect) is None:
            return None
        values = {**values, **one_insert_values(stream, events)}
        key, seq = (await send_in(db, both, values, alone=True)).rows[0]
        return key, 0 if seq is None else int(seq)  # no row: no seq, `missing()` raised
    joining = _lone_sharing(db)
    if joining is None:
        connection = await db.connection()
        joining = _held_sharing(connection)
        if joining is None:
            return None
    unit = shared_insert(joining.dialect, statement, values, stream, events, keyed, missing)
    if unit is None:
        return None
    # The journal rows' values are made on the shared connection, once the key is known.
    heard = (unit.insert, Step(unit.journal_rows, ()))
    found: tuple[Any, int] = await joining.run(unit, heard)
    return found


@dataclass(frozen=True)
class _Joining:
    """A SQLite file's shared commits as a save joins them: the dialect its statements are
    compiled for, and how the engine's listeners hear of them."""

    dialect: Dialect
    shared: SharedCommits
    tell: Callable[[str, Sequence[Any]], None]

    async def run(self, unit: Any, heard: Sequence[Step]) -> Any:
        """`unit` in the next shared commit, its statements told to the engine's listeners."""
        for step in heard:
            self.tell(step.ready.sql, step.parameters)
        return await self.shared.run(unit)


def writes_alone(db: AsyncSession) -> bool:
    """Whether `write_row` writes without a pooled connection of `db`'s own: on PostgreSQL (one
    statement sent alone) or on a SQLite file whose saves share commits, `db` holding none."""
    bind = db.sync_session.bind
    if not isinstance(bind, Engine) or holds_connection(db):
        return False
    if bind.dialect.name == "postgresql":
        return True
    file = sqlite_file(bind)
    return file is not None and file.shares_commits


def _postgresql(db: AsyncSession) -> Dialect | None:
    """The dialect of `db`'s database when it is PostgreSQL (a write there is one statement:
    hosting/one_statement.py), else None."""
    bind = db.sync_session.bind
    dialect = bind.dialect if isinstance(bind, Engine) else None
    return dialect if dialect is not None and dialect.name == "postgresql" else None


def _lone_sharing(db: AsyncSession) -> _Joining | None:
    """The shared commits a save may join without a pooled connection: a SQLite file's (shared
    commits on) while `db` holds none, which it read through the inline reader
    (db/inline_reads.py); with none held, it has no write of its own under way either. A
    session holding a connection goes by it (`_held_sharing`), any other database its way."""
    bind = db.sync_session.bind
    if not isinstance(bind, Engine) or holds_connection(db):
        return None
    file = sqlite_file(bind)
    if file is None or not file.shares_commits:
        return None
    shared = shared_commits(file.database, file.wait_seconds)
    return _Joining(bind.dialect, shared, partial(tell_engine, bind))


def _held_sharing(connection: AsyncConnection) -> _Joining | None:
    """The shared commits a save on `connection` may join (db/shared_commits.py `sharing`);
    None on another database, or while the connection has a write of its own under way."""
    sync = connection.sync_connection
    if connection.dialect.name != "sqlite" or sync is None:
        return None
    shared = sharing(sync)
    if shared is None:
        return None
    return _Joining(connection.dialect, shared, partial(tell_listeners, sync))
