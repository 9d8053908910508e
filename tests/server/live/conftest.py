"""Fixtures of the live-layer tests: the test's database as a sessionmaker, and an in-memory
channels plugin (one process)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from litestar.channels import ChannelsPlugin
from litestar.channels.backends.memory import MemoryChannelsBackend
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.db.engine import create_engine, create_sessionmaker
from tests.server.conftest import Database


@pytest.fixture
async def sessions(database: Database) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """The test's database (SQLite and PostgreSQL), shared by writers and streams."""
    engine = create_engine(database.settings())
    yield create_sessionmaker(engine)
    await engine.dispose()


@pytest.fixture
async def channels() -> AsyncIterator[ChannelsPlugin]:
    """Wake-ups within this one process."""
    plugin = ChannelsPlugin(backend=MemoryChannelsBackend(), arbitrary_channels_allowed=True)
    async with plugin:
        yield plugin
