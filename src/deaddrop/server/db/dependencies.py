"""The per-request database session, as a Litestar dependency."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from litestar import Request
from litestar.datastructures import State
from litestar.di import NamedDependency
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.request_session import close_request_session, request_session

DB = NamedDependency[AsyncSession]
"""Annotation of a handler parameter `db`: this request's database session."""


async def provide_db(request: Request[Any, Any, Any], state: State) -> AsyncIterator[AsyncSession]:
    """One session per request (the one that read the session cookie's row, if any); anything
    not committed by a `do_*` function is rolled back when the handler is done."""
    try:
        yield request_session(request.scope, state.sessionmaker)
    finally:
        await close_request_session(request.scope)
