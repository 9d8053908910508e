"""An app's turns at the database for its live streams and hubs: a few reads at once of each
kind, the rest wait their turn."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator

READERS = 4
"""Database reads at once of each kind, the streams' own (to catch up, to re-render a page)
and the games' (a hub's journal read, what a batch is made into once): the others wait their
turn here, without a timeout, rather than empty the connection pool and fail; the pool keeps
room for the posts and the page loads, and a game's read, which serves all its streams, never
waits behind a crowd of streams."""


class Turns:
    """An app's turns at the database (see READERS), per event loop (a semaphore belongs to
    the loop it is used in; a test may drive one app from several)."""

    def __init__(self) -> None:
        self._turns: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[bool, asyncio.Semaphore]
        ] = weakref.WeakKeyDictionary()

    @contextlib.asynccontextmanager
    async def reading(self, *, shared: bool = False) -> AsyncIterator[None]:
        """A turn for database work: a stream's own, or one shared by every stream of a game
        (`shared`)."""
        turns = self._turns.setdefault(asyncio.get_running_loop(), {})
        if shared not in turns:
            turns[shared] = asyncio.Semaphore(READERS)
        async with turns[shared]:
            yield
