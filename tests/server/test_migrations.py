"""Alembic: upgrade head on an empty database, models match migrations, downgrade works."""

from __future__ import annotations

import asyncio

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from deaddrop.server.db.engine import create_engine
from deaddrop.server.db.migrate import (
    alembic_config,
    current_revision,
    downgrade,
    next_revision_id,
    pending_changes,
    upgrade_head,
)
from deaddrop.server.db.migrations import numbered
from tests.server.conftest import Database


async def _tables(database: Database) -> set[str]:
    engine = create_engine(database.settings())
    try:
        async with engine.connect() as connection:
            return set(await connection.run_sync(lambda sync: inspect(sync).get_table_names()))
    finally:
        await engine.dispose()


def test_upgrade_head_on_an_empty_database_matches_the_models(empty_database: Database) -> None:
    async def scenario() -> None:
        engine = create_engine(empty_database.settings())
        try:
            assert await current_revision(engine) is None
            await upgrade_head(engine)
            assert await current_revision(engine) == _head()
            assert await pending_changes(engine) == []
            await upgrade_head(engine)  # running it again changes nothing
        finally:
            await engine.dispose()
        assert {"users", "kv_entries", "alembic_version"} <= await _tables(empty_database)

    asyncio.run(scenario())


def test_downgrade_to_base_then_up_again(empty_database: Database) -> None:
    async def scenario() -> None:
        engine = create_engine(empty_database.settings())
        try:
            await upgrade_head(engine)
            await downgrade(engine, "base")
            assert await current_revision(engine) is None
            assert await _tables(empty_database) <= {"alembic_version"}
            await upgrade_head(engine)
            assert await pending_changes(engine) == []
        finally:
            await engine.dispose()

    asyncio.run(scenario())


def test_revisions_are_numbered_in_sequence() -> None:
    assert next_revision_id(alembic_config()) == f"{int(_head()) + 1:04d}"


def _head() -> str:
    # The newest revision; each area adds its own, numbered in sequence.
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def test_a_migration_reads_its_revision_and_the_one_before_from_its_file_name() -> None:
    assert numbered("/x/versions/0001_accounts.py") == ("0001", None)
    assert numbered("0010_practice_games.py") == ("0010", "0009")
    with pytest.raises(ValueError, match=r"NNNN_slug\.py"):
        numbered("/x/versions/abc_practice.py")
