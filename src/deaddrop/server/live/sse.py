"""A Server-Sent Events stream of one game for one listener, replayable from Last-Event-ID.

Every id a listener is sent is its cursor (`journal.cursor_at`): the number of events it may
see up to there, never the game-wide sequence number, which would count other seats' private
acts (S26-S31).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from litestar.channels import ChannelsPlugin
from litestar.exceptions import ClientException
from litestar.response.sse import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live.journal import (
    PAGE,
    Listener,
    cursor_at,
    last_seq,
    position_of,
    read_after,
    visible_to,
)
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.wakeup import parse_wake, wake_channel

Renderer = Callable[
    [AsyncSession, Sequence[LiveEvent]], Awaitable[list[ServerSentEventMessage] | None]
]
"""Turns the events a listener may see into SSE messages (e.g. HTML fragments for its page);
None ends the stream (the listener lost its right to read, e.g. its seat changed hands). The
messages' ids are the stream's to set: each becomes the listener's cursor after the batch."""

Audience = Callable[[AsyncSession], Awaitable[Listener]]
"""Who the listener reads as now, asked at every batch: a seat becomes EVERYONE once its game
is over (S26). Audiences only grow; the stream then renumbers its cursor in place."""

KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps proxies and phones from closing an idle stream."""
RETRY_MILLISECONDS = 3000
"""How soon the browser reconnects after the stream drops."""
CURSOR_MAX = 2**31 - 1
"""No cursor is larger (the journal's own column is a 32-bit integer on PostgreSQL)."""


def parse_last_event_id(header: str | None) -> int | None:
    """The cursor a reconnecting browser last saw, or None for a fresh page (or junk).

    A number no journal could reach is refused (400) rather than carried into a query.
    """
    if header is None:
        return None
    try:
        value = int(header.strip())
    except ValueError:
        return None
    if value > CURSOR_MAX:
        raise ClientException(f"Last-Event-ID (or after) must be at most {CURSOR_MAX}.")
    return value if value >= 0 else None


async def live_stream(
    channels: ChannelsPlugin,
    sessionmaker: async_sessionmaker[AsyncSession],
    stream: str,
    listener: Listener,
    after: int | None,
    render: Renderer,
    keepalive: float = KEEPALIVE_SECONDS,
    *,
    audience: Audience | None = None,
    stop: asyncio.Event | None = None,
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """Everything this listener may see after its cursor `after` (None: from now on), then
    live events; ends when `stop` is set (the browser reconnects with Last-Event-ID)."""
    # Subscribe before reading the journal: a wake-up sent in between is then not lost.
    async with channels.start_subscription(wake_channel(stream)) as subscriber:
        wakes: asyncio.Queue[bytes] = asyncio.Queue()
        # Wake-ups move to a queue that may time out (a timeout on the subscriber closes it).
        mover = asyncio.create_task(_move(subscriber.iter_events(), wakes))
        stopping = asyncio.create_task(stop.wait()) if stop is not None else None
        try:
            seen, cursor = await _start_position(sessionmaker, stream, listener, after)
            yield ServerSentEventMessage(comment="connected", retry=RETRY_MILLISECONDS)
            newest = seen + 1  # read the journal once at the start
            loop = asyncio.get_running_loop()
            # Keep-alives come at a fixed pace from the last message sent, whatever wakes the
            # stream: wake-ups for events this listener may not see must not move them.
            quiet_until = loop.time() + keepalive
            while not mover.done():
                while newest > seen:
                    async with sessionmaker() as db:
                        rows = await read_after(db, stream, seen)
                        if audience is not None:
                            now = await audience(db)
                            if now != listener:  # grown: count as the new audience from here
                                listener = now
                                cursor = await cursor_at(db, stream, listener, seen)
                        visible = [row for row in rows if visible_to(row, listener)]
                        messages = await render(db, visible) if visible else []
                    if messages is None:
                        return
                    cursor += len(visible)
                    for message in messages:
                        message.id = cursor
                        yield message
                    if messages:
                        quiet_until = loop.time() + keepalive
                    seen = rows[-1].seq if rows else seen
                    if len(rows) < PAGE:
                        newest = seen  # caught up; a full page means read on at once
                stopped, woken = await _next_wake(wakes, stopping, quiet_until - loop.time())
                if stopped:
                    return
                if woken is None:
                    yield ServerSentEventMessage(comment="still here")
                    quiet_until = loop.time() + keepalive
                else:
                    newest = parse_wake(woken)
        finally:
            await _cancel(mover, stopping)


async def _start_position(
    sessionmaker: async_sessionmaker[AsyncSession],
    stream: str,
    listener: Listener,
    after: int | None,
) -> tuple[int, int]:
    """Where a listener starts: (the seq to read after, its cursor); None starts from now."""
    async with sessionmaker() as db:
        if after is None:
            seen = await last_seq(db, stream)
            return seen, await cursor_at(db, stream, listener, seen)
        return await position_of(db, stream, listener, after)


async def _cancel(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel the stream's helper tasks and wait for them to end."""
    for task in tasks:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def _next_wake(
    wakes: asyncio.Queue[bytes], stopping: asyncio.Task[bool] | None, timeout: float
) -> tuple[bool, bytes | None]:
    """(whether to stop, the next wake-up or None after `timeout` seconds without one)."""
    if stopping is not None and stopping.done():
        return True, None
    getting = asyncio.ensure_future(wakes.get())
    waiting: set[asyncio.Future[Any]] = {getting}
    if stopping is not None:
        waiting.add(stopping)
    try:
        done, _ = await asyncio.wait(
            waiting, timeout=max(timeout, 0.0), return_when="FIRST_COMPLETED"
        )
        if getting in done:
            return False, getting.result()
        return stopping is not None and stopping in done, None
    finally:
        if not getting.done():  # timed out, stopping, or the stream closed meanwhile
            getting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await getting


async def _move(source: AsyncIterator[bytes], target: asyncio.Queue[bytes]) -> None:
    """Copy every wake-up from the subscriber into the queue."""
    async for item in source:
        await target.put(item)
