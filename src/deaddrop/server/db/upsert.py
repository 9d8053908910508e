"""INSERT … ON CONFLICT for the two databases the app runs on (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


def insert_for(db: AsyncSession, table: Any) -> Any:
    """An INSERT into `table` (a model or a Table) that takes `on_conflict_do_…` on this
    session's database; both dialects spell the conflict clauses the same way."""
    dialect = postgresql if db.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(table)
