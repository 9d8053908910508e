"""A Server-Sent Events stream of one game for one listener, replayable from Last-Event-ID.

Every id a listener is sent is its cursor (`journal.cursor_at`): the number of events it may
see up to there, never the game-wide sequence number, which would count other seats' private
acts (S26-S31).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from litestar.channels import ChannelsPlugin
from litestar.exceptions import ClientException
from litestar.response.sse import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live.fanout import CLOSED, Batch, Fanout, Hub, patiently, read_batch
from deaddrop.server.live.journal import (
    PAGE,
    Listener,
    cursor_at,
    position_of,
    visible_to,
)
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.turns import Turns

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


BatchRenderer = Callable[
    [Batch, Sequence[LiveEvent]], Awaitable[list[ServerSentEventMessage] | None]
]
"""A `Renderer` that reads the database only when it must: it gets the shared batch the rows
came in (`Batch.once` makes a thing once for every stream of the process) and the rows the
listener may see; it opens a session of its own if it needs one."""

BatchAudience = Callable[[Batch], Awaitable[Listener]]
"""An `Audience` asked with the shared batch (so that its reads are made once per batch)."""


def with_sessions(
    turns: Turns, sessionmaker: async_sessionmaker[AsyncSession], render: Renderer
) -> BatchRenderer:
    """A renderer that reads the database, given a short session of its own per batch."""

    async def rendered(
        _batch: Batch, rows: Sequence[LiveEvent]
    ) -> list[ServerSentEventMessage] | None:
        async with turns.reading(), sessionmaker() as db:
            return await render(db, rows)

    return rendered


def audience_with_sessions(
    turns: Turns, sessionmaker: async_sessionmaker[AsyncSession], audience: Audience
) -> BatchAudience:
    """An audience that reads the database, given a short session of its own per batch."""

    async def asked(_batch: Batch) -> Listener:
        async with turns.reading(), sessionmaker() as db:
            return await audience(db)

    return asked


def live_stream(
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
    fanout: Fanout | None = None,
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """Everything this listener may see after its cursor `after` (None: from now on), then
    live events; ends when `stop` is set (the browser reconnects with Last-Event-ID). Streams
    share a game's journal reads through `fanout` (the app's; without one, their own)."""
    feed = Feed(channels, sessionmaker, stream, fanout or Fanout())
    turns = feed.fanout.turns
    asked = None if audience is None else audience_with_sessions(turns, sessionmaker, audience)
    return fanned_stream(
        feed,
        listener=listener,
        after=after,
        render=with_sessions(turns, sessionmaker, render),
        audience=asked,
        stop=stop,
        keepalive=keepalive,
    )


@dataclass(frozen=True)
class Feed:
    """Where a stream's events come from: the broker, the database, the journal stream, and
    the app's fan-out that reads it once for every stream."""

    channels: ChannelsPlugin
    sessionmaker: async_sessionmaker[AsyncSession]
    stream: str
    fanout: Fanout


@dataclass
class _Place:
    """A listener's place: the last journal seq it was handed, its cursor, its audience."""

    seen: int
    cursor: int
    listener: Listener


async def fanned_stream(
    feed: Feed,
    *,
    listener: Listener,
    after: int | None,
    render: BatchRenderer,
    audience: BatchAudience | None = None,
    stop: asyncio.Event | None = None,
    keepalive: float = KEEPALIVE_SECONDS,
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """`live_stream` over the game's in-process fan-out (`fanout.py`): the journal is read once
    per wake-up for every stream; this one reads it itself only to catch up (Last-Event-ID)."""
    # Subscribe before reading the journal: a wake-up sent in between is then not lost.
    subscribing = feed.fanout.subscribed(feed.channels, feed.sessionmaker, feed.stream)
    async with subscribing as (batches, hub):
        stopping = asyncio.create_task(stop.wait()) if stop is not None else None
        try:
            start = await _start_position(feed, hub, listener, after)
            if start is None:
                return
            place = _Place(*start, listener)
            yield ServerSentEventMessage(comment="connected", retry=RETRY_MILLISECONDS)
            loop = asyncio.get_running_loop()
            # Keep-alives come at a fixed pace from the last message sent, whatever wakes the
            # stream: wake-ups for events this listener may not see must not move them.
            quiet_until = loop.time() + keepalive
            # First catch up from the journal, if the page stands before the hub; from the hub
            # on, every row comes through the queue (the ones up to `place.seen` are skipped).
            pending: Batch | None = Batch([]) if place.seen < hub.seen else None
            while True:
                if pending is None:
                    stopped, pending = await _next_batch(
                        batches, stopping, quiet_until - loop.time()
                    )
                    if stopped or pending is CLOSED:
                        return
                    if pending is None:
                        yield ServerSentEventMessage(comment="still here")
                        quiet_until = loop.time() + keepalive
                        continue
                async for messages in _deliveries(feed, place, pending, render, audience):
                    if messages is None:
                        return
                    for message in messages:
                        yield message
                    if messages:
                        quiet_until = loop.time() + keepalive
                pending = None
        finally:
            await _cancel(stopping)


async def _deliveries(
    feed: Feed,
    place: _Place,
    batch: Batch,
    render: BatchRenderer,
    audience: BatchAudience | None,
) -> AsyncIterator[list[ServerSentEventMessage] | None]:
    """The messages of a batch for this listener, after whatever of the journal it has not
    been handed yet (a gap, or the catch-up at the start), page by page."""
    first = next((row.seq for row in batch.rows if row.seq > place.seen), None)
    while first is None or place.seen < first - 1:  # read what lies before the batch first
        upto = None if first is None else first - 1
        read = partial(
            read_batch, feed.fanout.turns, feed.sessionmaker, feed.stream, place.seen, upto
        )
        earlier = await patiently(f"catch-up read of {feed.stream}", read)
        if not earlier.rows:
            break
        messages = await _deliver(feed, place, earlier, render, audience)
        yield messages
        if messages is None:
            return
        if first is None and len(earlier.rows) < PAGE:
            break
    rows = [row for row in batch.rows if row.seq > place.seen]
    if rows:
        yield await _deliver(feed, place, Batch(rows, batch.made), render, audience)


async def _deliver(
    feed: Feed,
    place: _Place,
    batch: Batch,
    render: BatchRenderer,
    audience: BatchAudience | None,
) -> list[ServerSentEventMessage] | None:
    """The listener's messages for a batch of rows it has not been handed (None: end)."""
    if audience is not None:
        now = await audience(batch)
        if now != place.listener:  # grown: count as the new audience from here
            place.listener = now
            async with feed.fanout.reading(), feed.sessionmaker() as db:
                place.cursor = await cursor_at(db, feed.stream, now, place.seen)
    visible = [row for row in batch.rows if visible_to(row, place.listener)]
    messages = await render(batch, visible) if visible else []
    if messages is None:
        return None
    place.cursor += len(visible)
    place.seen = batch.rows[-1].seq
    for message in messages:
        message.id = place.cursor
    return messages


async def _start_position(
    feed: Feed, hub: Hub, listener: Listener, after: int | None
) -> tuple[int, int] | None:
    """Where a listener starts: (the seq to read after, its cursor); None starts from now.
    None when the hub has stopped (the stream ends; the browser comes back).

    From the hub's addresses (no database read: thousands of pages connect at once), as of
    the hub's last seq; what came since is in this stream's queue already. A cursor past the
    hub's (a page built from rows the hub has yet to read, or a forged one) is placed by the
    database, as before, so that nothing the page holds is pushed again."""
    addresses = hub.addresses
    if addresses is None:
        return None
    if after is None:
        return addresses.seen, addresses.cursor(listener)
    if after <= addresses.cursor(listener):
        return addresses.position_of(listener, after)
    async with feed.fanout.reading(), feed.sessionmaker() as db:
        return await position_of(db, feed.stream, listener, after)


async def _cancel(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel the stream's helper tasks and wait for them to end."""
    for task in tasks:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def _next_batch(
    batches: asyncio.Queue[Batch], stopping: asyncio.Task[bool] | None, timeout: float
) -> tuple[bool, Batch | None]:
    """(whether to stop, the next batch or None after `timeout` seconds without one)."""
    if stopping is not None and stopping.done():
        return True, None
    if not batches.empty():  # a batch waits already: no task, no wait to set up for it
        return False, batches.get_nowait()
    getting = asyncio.ensure_future(batches.get())
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
        if not getting.done():  # timed out, or stopping
            getting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await getting
