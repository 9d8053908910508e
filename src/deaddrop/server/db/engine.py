"""Create the async engine for SQLite (WAL, foreign keys) or PostgreSQL (asyncpg)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from deaddrop.server.db.idle_ping import ping_when_idle
from deaddrop.server.db.inline_reads import SqliteFile, close_inline_readers, register_file
from deaddrop.server.db.json_text import json_text
from deaddrop.server.db.lone_statements import close_lone_statements, register_engine
from deaddrop.server.db.shared_commits import close_shared_commits
from deaddrop.server.db.sqlite_connection import (
    SQLITE_BUSY_TIMEOUT_MS,
    configure_sqlite,
    gated_connect,
)
from deaddrop.server.settings import Settings


def normalise_url(raw: str) -> URL:
    """The async-driver URL for a configured one: asyncpg for PostgreSQL, aiosqlite for SQLite."""
    url = make_url(raw)
    backend = url.get_backend_name()
    if backend in {"postgres", "postgresql"}:
        return url.set(drivername="postgresql+asyncpg")
    if backend == "sqlite":
        return url.set(drivername="sqlite+aiosqlite")
    raise ValueError(f"unsupported database {backend!r}: use sqlite or postgresql")


def create_engine(settings: Settings) -> AsyncEngine:
    """An engine for the configured database, with per-connection setup applied."""
    url = normalise_url(settings.database_url)
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "sqlite":
        _ensure_sqlite_directory(url)
        # An in-memory database has one static connection: no pool, so no pool timeout.
        pooled = url.database not in (None, "", ":memory:")
        pool = _pool(settings) if pooled else {}
        engine = create_async_engine(
            url, connect_args=connect_args, json_serializer=json_text, **pool
        )
        event.listen(engine.sync_engine, "do_connect", _gated_connect(settings.shared_commits))
        event.listen(engine.sync_engine, "connect", _configure_sqlite)
        # The file as the connections name it (SQLAlchemy makes the URL's path absolute).
        database = str(engine.dialect.create_connect_args(url)[0][0])
        event.listen(engine.sync_engine, "engine_disposed", lambda _: _closed(database))
        if pooled:  # a file: lone reads on a connection of their own (db/inline_reads.py)
            wait_seconds = SQLITE_BUSY_TIMEOUT_MS / 1000
            register_file(engine, SqliteFile(database, wait_seconds, settings.shared_commits))
        return engine
    if settings.database_schema:
        connect_args["server_settings"] = {"search_path": settings.database_schema}
    engine = create_async_engine(
        url, connect_args=connect_args, json_serializer=json_text, **_pool(settings)
    )
    ping_when_idle(engine)  # not `pool_pre_ping`: a round trip per request (idle_ping.py)
    if settings.lone_statements:  # statements standing alone off the pool (lone_statements.py)
        register_engine(engine)
        event.listen(engine.sync_engine, "engine_disposed", close_lone_statements)
    return engine


def _closed(database: str) -> None:
    """An engine of the SQLite file `database` is disposed of: close what it shared."""
    close_shared_commits(database)
    close_inline_readers(database)


def _pool(settings: Settings) -> dict[str, Any]:
    """The pool's sizes and patience. SQLAlchemy's default keeps 5 connections: at ten requests
    at once, a connection was opened and closed again every few requests (on PostgreSQL a
    server process each, started and ended), and the Floor page served half as fast."""
    return {
        "pool_size": settings.pool_size,
        "max_overflow": settings.pool_overflow,
        "pool_timeout": settings.pool_timeout_seconds,
    }


def create_sessionmaker(
    engine: AsyncEngine, info: dict[str, Any] | None = None
) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit (templates render after it);
    `info` is what each session carries in `db.info` (the app's `Wakeups`)."""
    return async_sessionmaker(engine, expire_on_commit=False, info=dict(info or {}))


def _ensure_sqlite_directory(url: URL) -> None:
    database = url.database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)


def _gated_connect(shares_commits: bool) -> Any:
    """The `do_connect` listener opening aiosqlite's connection, reading on the event loop, one
    writer at a time (sqlite_connection.py); SQLAlchemy still turns the URL into its arguments."""
    connect = gated_connect(SQLITE_BUSY_TIMEOUT_MS / 1000, shares_commits)

    def do_connect(dialect: Any, _record: Any, cargs: Any, cparams: dict[str, Any]) -> Any:
        return dialect.loaded_dbapi.connect(*cargs, async_creator_fn=connect, **cparams)

    return do_connect


def _configure_sqlite(dbapi_connection: Any, _record: Any) -> None:
    configure_sqlite(dbapi_connection)
