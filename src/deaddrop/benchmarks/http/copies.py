"""Copies of a seeded database, so that a run that resolves its Pouches leaves the next one
the same world: a SQLite file copied, or a PostgreSQL schema migrated and filled from another.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from deaddrop.benchmarks.http.databases import (
    SECRET_KEY,
    copy_sqlite,
    fresh_database,
    is_sqlite,
)
from deaddrop.benchmarks.http.seed import migrate
from deaddrop.server.db.engine import create_engine
from deaddrop.server.db.models import metadata
from deaddrop.server.settings import Settings

_SEQUENCES = text(
    "SELECT table_name, column_name FROM information_schema.columns "
    "WHERE table_schema = :schema AND column_default LIKE 'nextval%'"
)


async def copy_database(database: str, source: Settings, var_dir: Path, name: str) -> Settings:
    """A copy called `name` of the (closed) database `source` made by `fresh_database`."""
    if is_sqlite(database):
        return copy_sqlite(Path(source.database_url.split("///", 1)[1]), var_dir, name)
    settings = await fresh_database(database, var_dir, name)
    await migrate(settings)
    engine = create_engine(Settings(database_url=database, secret_key=SECRET_KEY))
    try:
        async with engine.begin() as connection:
            for table in metadata.sorted_tables:  # referenced tables first
                columns = ", ".join(f'"{column.name}"' for column in table.columns)
                await connection.execute(
                    text(
                        f'INSERT INTO "{name}"."{table.name}" ({columns}) '
                        f'SELECT {columns} FROM "{source.database_schema}"."{table.name}"'
                    )
                )
            # The copied ids are taken: each new row's id must come after them.
            for table, column in (await connection.execute(_SEQUENCES, {"schema": name})).all():
                qualified = f'"{name}"."{table}"'
                await connection.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{qualified}', '{column}'), "
                        f'COALESCE(MAX("{column}"), 0) + 1, false) FROM {qualified}'
                    )
                )
    finally:
        await engine.dispose()
    return settings
