"""A Server-Sent Events stream of one game for one listener, replayable from Last-Event-ID."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence

from litestar.channels import ChannelsPlugin
from litestar.response.sse import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live.journal import PAGE, Listener, last_seq, read_after, visible_to
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.wakeup import parse_wake, wake_channel

Renderer = Callable[
    [AsyncSession, Sequence[LiveEvent]], Awaitable[list[ServerSentEventMessage] | None]
]
"""Turns the events a listener may see into SSE messages (e.g. HTML fragments for its page);
None ends the stream (the listener lost its right to read, e.g. its seat changed hands)."""

KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps proxies and phones from closing an idle stream."""
RETRY_MILLISECONDS = 3000
"""How soon the browser reconnects after the stream drops."""


def parse_last_event_id(header: str | None) -> int | None:
    """The sequence number a reconnecting browser last saw, or None for a fresh page."""
    if header is None:
        return None
    try:
        value = int(header.strip())
    except ValueError:
        return None
    return value if value >= 0 else None


async def live_stream(
    channels: ChannelsPlugin,
    sessionmaker: async_sessionmaker[AsyncSession],
    stream: str,
    listener: Listener,
    after: int | None,
    render: Renderer,
    keepalive: float = KEEPALIVE_SECONDS,
    stop: asyncio.Event | None = None,
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """Everything this listener may see after `after` (None: from now on), then live events,
    until `stop` is set (the server shuts down; the browser reconnects with Last-Event-ID)."""
    # Subscribe before reading the journal: a wake-up sent in between is then not lost.
    async with channels.start_subscription(wake_channel(stream)) as subscriber:
        wakes: asyncio.Queue[bytes] = asyncio.Queue()
        # Timing out a wait on the subscriber's own generator would close it, so a small task
        # moves wake-ups into a queue whose `get` may safely time out.
        mover = asyncio.create_task(_move(subscriber.iter_events(), wakes))
        stopper = asyncio.create_task(_wake_on(stop, wakes)) if stop is not None else None
        try:
            if after is None:
                async with sessionmaker() as db:
                    after = await last_seq(db, stream)
            yield ServerSentEventMessage(comment="connected", retry=RETRY_MILLISECONDS)
            seen, newest = after, after + 1  # read the journal once at the start
            while not mover.done() and not (stop is not None and stop.is_set()):
                while newest > seen:
                    async with sessionmaker() as db:
                        rows = await read_after(db, stream, seen)
                        visible = [row for row in rows if visible_to(row, listener)]
                        messages = await render(db, visible) if visible else []
                    if messages is None:
                        return
                    for message in messages:
                        yield message
                    seen = rows[-1].seq if rows else seen
                    if len(rows) < PAGE:
                        newest = seen  # caught up; a full page means read on at once
                try:
                    newest = parse_wake(await asyncio.wait_for(wakes.get(), keepalive))
                except TimeoutError:
                    yield ServerSentEventMessage(comment="still here")
        finally:
            for task in (mover, stopper):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task


async def _move(source: AsyncIterator[bytes], target: asyncio.Queue[bytes]) -> None:
    """Copy every wake-up from the subscriber into the queue."""
    async for item in source:
        await target.put(item)


async def _wake_on(stop: asyncio.Event, target: asyncio.Queue[bytes]) -> None:
    """Once `stop` is set, cut the stream's wait short (its loop then sees `stop` and ends)."""
    await stop.wait()
    await target.put(b"")
