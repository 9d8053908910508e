"""Alembic environment: runs on a connection handed over by `deaddrop.server.db.migrate`."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import Connection

from deaddrop.server.db.base import UTCDateTime
from deaddrop.server.db.models import metadata


def render_item(kind: str, item: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Write app types as plain SQLAlchemy types, so old migrations never import app code."""
    if kind == "type" and isinstance(item, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_on(connection: Connection) -> None:
    """Run the pending migrations on an open connection."""
    context.configure(
        connection=connection,
        target_metadata=metadata,
        compare_type=True,
        render_item=render_item,
        # SQLite cannot ALTER most things in place; batch mode copies the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


given = context.config.attributes.get("connection")
if given is None:
    raise RuntimeError("run migrations with `deaddrop migrate`, which supplies the connection")
run_on(given)
