"""A SQLite file's lone reads on the event loop, on a read-only connection of their own.

A known page (station/tabs/known_pages.py) is one SELECT and a page sent again; a save or a
post on SQLite reads once (the session with its account, the game with the seat) and writes
in a shared commit (db/shared_commits.py) on a connection of its own. Each paid for a pooled
connection all the same: the pool's checkout, the greenlet, the transaction's begin and the
rollback or commit of its return, which cost a known page more than half its CPU (0.385 →
0.152 ms in process). A read in WAL mode never waits for a lock and sees the last commit,
whichever connection sends it, so each event loop keeps one connection per SQLite file for
reads sent while their database session holds no connection, set to read only, used inline by
that loop's thread alone. The engine's `before_cursor_execute` listeners hear of each
statement as of any other.

Only a file's database has one: an in-memory one is private to its connection. On PostgreSQL
every read goes through the pool as before (asyncpg: one round trip, no BEGIN).
"""

from __future__ import annotations

import asyncio
import sqlite3
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from deaddrop.server.db.sqlite_connection import configure_sqlite


@dataclass(frozen=True)
class SqliteFile:
    """What an engine on a SQLite file shares beyond its pool."""

    database: str
    """The file, as its connections name it."""
    wait_seconds: float
    """How long a writer waits for this process's write gate (the busy timeout)."""
    shares_commits: bool
    """Whether its saves commit together (db/shared_commits.py; `SHARED_COMMITS=0`: not)."""


_files: weakref.WeakKeyDictionary[Engine, SqliteFile] = weakref.WeakKeyDictionary()
_readers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, InlineReader]] = (
    weakref.WeakKeyDictionary()
)


def register_file(engine: AsyncEngine, file: SqliteFile) -> None:
    """Let `engine`, on a SQLite file, read inline (db/engine.py calls it as it makes one)."""
    _files[engine.sync_engine] = file


def sqlite_file(engine: AsyncEngine | Engine | None) -> SqliteFile | None:
    """The SQLite file of `engine`; None for any other database (or an in-memory one)."""
    if isinstance(engine, AsyncEngine):
        engine = engine.sync_engine
    return None if engine is None else _files.get(engine)


def tell_engine(engine: Engine, sql: str, parameters: Sequence[Any]) -> None:
    """Let the engine's listeners hear of a statement sent on no connection of its pool."""
    for listener in engine.dispatch.before_cursor_execute:
        listener(None, None, sql, parameters, None, False)


class InlineReader:
    """One event loop's read-only connection to one SQLite file."""

    def __init__(self, engine: Engine, database: str) -> None:
        self.engine = engine
        # Opened on the loop's thread and only used there; closed from wherever the engine is
        # disposed of, hence not tied to one thread.
        self._connection = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
        configure_sqlite(self._connection)
        self._connection.execute("PRAGMA query_only=ON")

    def run(self, sql: str, parameters: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The driver's rows of `sql` (a read) with `parameters`; an error as SQLAlchemy
        raises it."""
        tell_engine(self.engine, sql, parameters)
        try:
            return self._connection.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise DBAPIError.instance(sql, parameters, error, sqlite3.Error) from error

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()


def inline_reader(engine: AsyncEngine | Engine | None) -> InlineReader | None:
    """This event loop's inline reader of `engine`'s SQLite file; None for any other database."""
    file = sqlite_file(engine)
    if file is None:
        return None
    by_file = _readers.setdefault(asyncio.get_running_loop(), {})
    found = by_file.get(file.database)
    if found is None:
        sync = engine.sync_engine if isinstance(engine, AsyncEngine) else engine
        assert sync is not None  # a file is registered for an engine
        found = by_file[file.database] = InlineReader(sync, file.database)
    return found


def close_inline_readers(database: str) -> None:
    """Close every loop's inline reader of `database` (its engine is disposed of)."""
    for by_file in list(_readers.values()):
        found = by_file.pop(database, None)
        if found is not None:
            found.close()
