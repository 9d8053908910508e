"""Live streams connect in turns: a crowd of pages opening at once queues here, a few at a time
through the reads that admit a stream (its session, account, game and seat), instead of all
waiting on the database's connection pool.

Thousands of pages opening together used to take every pooled connection, so that the posts
and page loads of the moment waited behind them, and a stream still waiting when the pool's
timeout ran out was refused (503) after holding its socket that long, and came back with the
rest, to wait again. A stream's turn ends as soon as its response starts (its reads are done:
the stream itself reads through the live fan-out's own turns), so an open stream never holds
one. A stream that has waited too long for a turn is refused before it reads anything.
"""

from __future__ import annotations

import asyncio
import weakref

from litestar.types import ASGIApp as App
from litestar.types import Message, Receive, Scope, Send

CONNECTING = 4
"""Stream connects reading the database at once: the rest of the pool stays free for posts,
page loads and the open streams' own reads."""
WAIT_SECONDS = 30.0
"""How long a stream may wait for its turn before it is refused (503 with Retry-After); a
page works without its stream meanwhile, and its browser waits for the headers."""


class TurnTimeout(Exception):
    """A stream waited longer than its limit for a turn to connect."""


class ConnectTurns:
    """One process's turns to connect a stream, per event loop (a semaphore belongs to its
    loop; a test may drive one app from several)."""

    def __init__(self, at_once: int = CONNECTING, wait: float = WAIT_SECONDS) -> None:
        self.at_once, self.wait = at_once, wait
        self._turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        found = self._turns.get(loop)
        if found is None:
            found = self._turns[loop] = asyncio.Semaphore(self.at_once)
        return found

    async def connect(self, app: App, scope: Scope, receive: Receive, send: Send) -> None:
        """Run `app` for a stream once a turn is free (TurnTimeout past the wait), giving the
        turn back when the response starts, or when `app` ends without one."""
        turn = self._semaphore()
        try:
            await asyncio.wait_for(turn.acquire(), self.wait)
        except TimeoutError:
            raise TurnTimeout from None
        held = True

        def give_back() -> None:
            nonlocal held
            if held:
                held = False
                turn.release()

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                give_back()  # admitted (or refused): what it streams next reads elsewhere
            await send(message)

        try:
            await app(scope, receive, sending)
        finally:
            give_back()
