"""Fresh databases for a run: a new SQLite file, or a schema of its own on a PostgreSQL server.

On PostgreSQL the harness touches nothing but the schema it names (dropped and made anew), so
pointing it at a database that holds other data leaves that data alone.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

from sqlalchemy import text

from deaddrop.server.db.engine import create_engine
from deaddrop.server.settings import Settings

SECRET_KEY = secrets.token_urlsafe(48)
"""The secret of this run's servers: the seeded CSRF cookies are signed with it."""


def is_sqlite(database: str) -> bool:
    """Whether `--database` asks for a SQLite file (the default)."""
    return database == "sqlite"


def sqlite_files(path: Path) -> list[Path]:
    """A SQLite database's file and its write-ahead log and shared memory beside it."""
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def sqlite_settings(path: Path) -> Settings:
    """Settings of the SQLite file at `path`."""
    return Settings(database_url=f"sqlite+aiosqlite:///{path.resolve()}", secret_key=SECRET_KEY)


def copy_sqlite(source: Path, var_dir: Path, name: str) -> Settings:
    """A copy of the (closed) SQLite database at `source`, called `name`."""
    target = var_dir / f"{name}.sqlite3"
    for original, copy in zip(sqlite_files(source), sqlite_files(target), strict=True):
        copy.unlink(missing_ok=True)
        if original.exists():
            shutil.copyfile(original, copy)
    return sqlite_settings(target)


async def fresh_database(database: str, var_dir: Path, name: str) -> Settings:
    """Settings of an empty database called `name`: a file in `var_dir`, or a PG schema."""
    if is_sqlite(database):
        path = var_dir / f"{name}.sqlite3"
        for stale in sqlite_files(path):
            stale.unlink(missing_ok=True)
        return sqlite_settings(path)
    settings = Settings(database_url=database, secret_key=SECRET_KEY, database_schema=name)
    engine = create_engine(Settings(database_url=database, secret_key=SECRET_KEY))
    try:
        async with engine.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
            await connection.execute(text(f'CREATE SCHEMA "{name}"'))
    finally:
        await engine.dispose()
    return settings


def server_env(settings: Settings, var_dir: Path, redis_url: str | None = None) -> dict[str, str]:
    """The environment of a `deaddrop serve` or `deaddrop worker` on `settings`' database."""
    env = {key: value for key, value in os.environ.items() if key not in _SERVER_KEYS}
    env.update(
        DATABASE_URL=settings.database_url,
        SECRET_KEY=settings.secret_key,
        DEADDROP_VAR_DIR=str(var_dir),
        # Saturated posts measure what a post costs, not the refusal of a flood: a thousand
        # seats would post far past their limit in seconds.
        CHAT_POSTS_PER_WINDOW="0",
    )
    if settings.database_schema:
        env["DATABASE_SCHEMA"] = settings.database_schema
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


_SERVER_KEYS = {
    "DATABASE_URL",
    "DATABASE_SCHEMA",
    "SECRET_KEY",
    "REDIS_URL",
    "SMTP_HOST",
    "CHAT_POSTS_PER_WINDOW",
    "CHAT_WINDOW_SECONDS",
}
"""Settings of the caller's own environment that must not leak into the measured servers."""
