"""The per-request database session, as a Litestar dependency."""

from __future__ import annotations

from collections.abc import AsyncIterator

from litestar.datastructures import State
from sqlalchemy.ext.asyncio import AsyncSession


async def provide_db(state: State) -> AsyncIterator[AsyncSession]:
    """One session per request; anything not committed by a `do_*` function is rolled back."""
    async with state.sessionmaker() as session:
        yield session
