"""A save's writes as one unit of a shared commit on SQLite (db/shared_commits.py): the game
row's versioned UPDATE, the log's inserts and the journal's numbered rows, in that order, on
the shared connection; or a row inserted (a chat message) and the journal rows made from its
key; the journal's rows numbered after the stream's last seq by their own insert.

The same statements as the save sends one by one (db/versioned.py, db/driver.py `inserting`,
live/journal.py), compiled and bound the same way: when another writer moved the game's
version on, the UPDATE changes no row and the unit stops there (`StaleDataError`); a key
already taken raises SQLAlchemy's `IntegrityError`. Either way the committer rolls the unit
back to its savepoint and the caller sees a lost race, as before.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.engine.core.events import Event
from deaddrop.server.db.base import Base
from deaddrop.server.db.driver import Prepared, inserting, prepared
from deaddrop.server.db.versioned import changed_names, versioned_update
from deaddrop.server.live import journal


@dataclass(frozen=True)
class Step:
    """One statement of a unit, compiled, with its driver's parameters."""

    ready: Prepared
    parameters: tuple[Any, ...]

    def run(self, connection: sqlite3.Connection) -> sqlite3.Cursor:
        """Run it on `connection`; SQLite's error raised as SQLAlchemy raises it."""
        try:
            return connection.execute(self.ready.sql, self.parameters)
        except sqlite3.Error as error:
            raise DBAPIError.instance(
                self.ready.sql, self.parameters, error, sqlite3.Error
            ) from error


@dataclass(frozen=True)
class SharedWrite:
    """A save's unit: its steps, the game row's new version, whether its last step journals."""

    steps: tuple[Step, ...]
    version: int
    journaled: bool

    def __call__(self, connection: sqlite3.Connection) -> int:
        """On the shared connection: the writes; the journal's new last seq (0: none)."""
        row, *rest = self.steps
        if row.run(connection).rowcount != 1:
            raise StaleDataError("the game row was changed meanwhile")
        inserts = rest[:-1] if self.journaled else rest
        for step in inserts:
            step.run(connection)
        if not self.journaled:
            return 0
        numbered = rest[-1]
        return max(int(seq) for (seq,) in numbered.run(connection).fetchall())


def shared_write(
    dialect: Dialect,
    model: type[Base],
    params: dict[str, Any],
    inserts: Sequence[tuple[Table, dict[str, Any]]],
    stream: str,
    events: Sequence[Any],
) -> SharedWrite | None:
    """The unit of these writes (`params`: the versioned UPDATE's values of a `model` row, as
    db/versioned.py gives them); None when the journal rows are too many for one insert or a
    statement cannot be bound here."""
    if len(events) > journal.NUMBERED_AT_ONCE:
        return None
    statements = [(versioned_update(model, changed_names(params)), params)]
    statements += [(inserting(table, tuple(values)), values) for table, values in inserts]
    if events:
        numbered = journal.numbered_values(stream, events)
        statements.append((journal.numbered_statement(len(events)), numbered))
    steps = [step_of(statement, values, dialect) for statement, values in statements]
    if any(step is None for step in steps):
        return None
    return SharedWrite(tuple(step for step in steps if step), params["_new"], bool(events))


def step_of(statement: Any, values: dict[str, Any], dialect: Dialect) -> Step | None:
    """`statement` with `values` as a step; None when it cannot be bound here."""
    ready = prepared(statement, dialect)
    parameters = None if ready is None else ready.parameters(values)
    if ready is None or parameters is None:
        return None
    return Step(ready, parameters)


@dataclass(frozen=True)
class RowThenJournal:
    """A unit: a row inserted (its `INSERT … RETURNING` key; no row: `missing()` raised), then
    the journal rows of `events`, each payload with `keyed` set to that key, numbered after the
    stream's last seq by their own insert (in the shared commit, which holds the file's write
    lock: no other writer comes in between)."""

    insert: Step
    journal_rows: Prepared
    stream: str
    events: Sequence[Event]
    keyed: str
    missing: Callable[[], Exception]

    def __call__(self, connection: sqlite3.Connection) -> tuple[Any, int]:
        """On the shared connection: the row, then its journal rows; (the row's key, the
        journal's new last seq)."""
        found = self.insert.run(connection).fetchall()
        if not found:
            raise self.missing()
        key = self.insert.ready.read(found[0])[0]
        events = [keyed(event, self.keyed, key) for event in self.events]
        parameters = self.journal_rows.parameters(journal.numbered_values(self.stream, events))
        assert parameters is not None  # every value given
        numbered = Step(self.journal_rows, parameters).run(connection).fetchall()
        return key, max(int(seq) for (seq,) in numbered)


def keyed(event: Event, name: str, key: Any) -> Event:
    """`event` with `name` set to `key` in its payload (the row it tells of, stored with it)."""
    return Event(event.kind, {**event.payload, name: key}, event.audience)


def shared_insert(
    dialect: Dialect,
    statement: Any,
    values: dict[str, Any],
    stream: str,
    events: Sequence[Event],
    keyed: str,
    missing: Callable[[], Exception],
) -> RowThenJournal | None:
    """The unit of a row and its journal rows; None when a statement cannot be bound here or
    the rows are too many for one insert."""
    if not events or len(events) > journal.NUMBERED_AT_ONCE:
        return None
    insert = step_of(statement, values, dialect)
    journal_rows = prepared(journal.numbered_statement(len(events)), dialect)
    if insert is None or journal_rows is None:
        return None
    return RowThenJournal(insert, journal_rows, stream, events, keyed, missing)
