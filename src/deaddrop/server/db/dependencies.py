"""The per-request database session, as a Litestar dependency."""

from __future__ import annotations

from collections.abc import AsyncIterator

from litestar.datastructures import State
from litestar.di import NamedDependency
from sqlalchemy.ext.asyncio import AsyncSession

DB = NamedDependency[AsyncSession]
"""Annotation of a handler parameter `db`: this request's database session."""


async def provide_db(state: State) -> AsyncIterator[AsyncSession]:
    """One session per request; anything not committed by a `do_*` function is rolled back."""
    async with state.sessionmaker() as session:
        yield session
