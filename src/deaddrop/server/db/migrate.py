"""Run Alembic programmatically: the migrations ship inside the package, no alembic.ini."""

from __future__ import annotations

import re
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import Script, ScriptDirectory
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from deaddrop.server.db.models import metadata

SCRIPT_LOCATION = "deaddrop.server.db:migrations"


def alembic_config() -> Config:
    """An Alembic configuration pointing at the packaged migrations."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    # Revisions are numbered 0001, 0002 …: two branches adding the same number conflict loudly.
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    return config


async def upgrade_head(engine: AsyncEngine) -> None:
    """Bring the database up to the newest migration."""
    async with engine.begin() as connection:
        await connection.run_sync(_run, "upgrade", "head")


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    """Step the database down to `revision` (`base` empties it)."""
    async with engine.begin() as connection:
        await connection.run_sync(_run, "downgrade", revision)


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None for an empty database."""
    async with engine.connect() as connection:
        return await connection.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_revision()
        )


async def pending_changes(engine: AsyncEngine) -> list[object]:
    """What autogenerate would add: empty when the models match the migrations."""
    async with engine.connect() as connection:
        return await connection.run_sync(_compare)


async def new_revision(engine: AsyncEngine, message: str) -> Path:
    """Autogenerate the next numbered migration from the models against an up-to-date database."""
    await upgrade_head(engine)
    config = alembic_config()
    async with engine.connect() as connection:
        script = await connection.run_sync(_autogenerate, config, message)
    return Path(script.path)


def next_revision_id(config: Config) -> str:
    """The next four-digit revision number."""
    numbers = [
        int(rev.revision)
        for rev in ScriptDirectory.from_config(config).walk_revisions()
        if re.fullmatch(r"\d{4}", rev.revision)
    ]
    return f"{max(numbers, default=0) + 1:04d}"


def _run(connection: Connection, verb: str, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    getattr(command, verb)(config, revision)


def _compare(connection: Connection) -> list[object]:
    from alembic.autogenerate import compare_metadata

    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


def _autogenerate(connection: Connection, config: Config, message: str) -> Script:
    config.attributes["connection"] = connection
    script = command.revision(
        config, message=message, autogenerate=True, rev_id=next_revision_id(config)
    )
    if script is None or isinstance(script, list):
        raise RuntimeError("Alembic produced no single revision")
    return script
