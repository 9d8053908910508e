"""One fan-out per game stream in each process: a wake-up makes one short journal read, and
every open stream of that game in the process takes the rows from memory.

A stream used to read the journal itself at every wake-up, and its renderer the database
again, holding a pooled connection per reader per event. Here the hub of a stream subscribes
once to its wake channel, reads the new rows once (the connection is released at once) and
hands the same `Batch` to each stream's queue; what a renderer makes of a batch for one
audience (a fragment, the facts of the game) is made once per batch (`Batch.once`) and shared
by every stream of that audience. Each stream still filters the rows by its own audience.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from litestar.channels import ChannelsPlugin
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live.journal import PAGE, last_seq, read_after
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.wakeup import parse_wake, wake_channel

T = TypeVar("T")
Sessions = async_sessionmaker[AsyncSession]
_log = logging.getLogger("deaddrop.server.live")


@dataclass
class Batch:
    """Journal rows read once for every stream of a game in this process (oldest first), and
    what renderers made of them, once per key (an audience, a fragment)."""

    rows: list[LiveEvent]
    made: dict[Hashable, asyncio.Future[Any]] = field(default_factory=dict)

    async def once(self, key: Hashable, make: Callable[[], Awaitable[T]]) -> T:
        """`make()`'s result, made by the first stream that asks for `key` and shared."""
        found = self.made.get(key)
        if found is None:
            found = asyncio.ensure_future(make())
            self.made[key] = found
        # A stream that ends while waiting must not cancel the work the others wait for.
        result: T = await asyncio.shield(found)
        return result


READERS = 4
"""Database reads at once of each kind, the streams' own (to connect, to catch up, to
re-render a page) and the games' (a hub's journal read, what a batch is made into once): the
others wait their turn here, without a timeout, rather than empty the connection pool and
fail; the pool keeps room for the posts and the page loads, and a game's read, which serves
all its streams, never waits behind a crowd of streams connecting."""
_readers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[bool, asyncio.Semaphore]] = (
    weakref.WeakKeyDictionary()
)


@contextlib.asynccontextmanager
async def reading(*, shared: bool = False) -> AsyncIterator[None]:
    """A turn for database work (see READERS), in the running loop: a stream's own, or one
    shared by every stream of a game (`shared`)."""
    turns = _readers.setdefault(asyncio.get_running_loop(), {})
    if shared not in turns:
        turns[shared] = asyncio.Semaphore(READERS)
    async with turns[shared]:
        yield


async def read_batch(sessions: Sessions, stream: str, after: int, upto: int | None = None) -> Batch:
    """The next page of journal rows after `after` (up to `upto`), in one short session."""
    async with reading(shared=True), sessions() as db:
        rows = await read_after(db, stream, after)
    if upto is not None:
        rows = [row for row in rows if row.seq <= upto]
    return Batch(rows)


CLOSED = Batch([])
"""Put in a stream's queue when its hub stops: the stream ends and the browser reconnects."""


class Hub:
    """The one subscriber of a game's wake channel in this process, and its open streams."""

    def __init__(self, channels: ChannelsPlugin, sessions: Sessions, stream: str) -> None:
        self.channels, self.sessions, self.stream = channels, sessions, stream
        self.queues: set[asyncio.Queue[Batch]] = set()
        self.seen = 0
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            async with self.channels.start_subscription(wake_channel(self.stream)) as wakes:
                # After subscribing: no wake-up is missed.
                async with reading(shared=True), self.sessions() as db:
                    self.seen = await last_seq(db, self.stream)
                self.ready.set()
                async for data in wakes.iter_events():
                    await self._read_up_to(parse_wake(data))
        except Exception:
            _log.exception("live fan-out of %s stopped", self.stream)
        finally:
            self.ready.set()
            for queue in list(self.queues):
                queue.put_nowait(CLOSED)

    async def _read_up_to(self, newest: int) -> None:
        """Read the journal once up to the announced `newest` and hand it to every stream."""
        while newest > self.seen:
            try:
                batch = await read_batch(self.sessions, self.stream, self.seen)
            except Exception:  # a failed read is caught up by the next wake-up
                _log.exception("live read of %s failed", self.stream)
                return
            if not batch.rows:
                return
            self.seen = batch.rows[-1].seq
            for queue in list(self.queues):
                queue.put_nowait(batch)
            if len(batch.rows) < PAGE:
                return


HubKey = tuple[asyncio.AbstractEventLoop, str]
_hubs: weakref.WeakKeyDictionary[ChannelsPlugin, dict[HubKey, Hub]] = weakref.WeakKeyDictionary()
"""The hubs of each broker (one app, or one test's process), by event loop and stream: a
server runs one loop, but a test may drive streams of one app from several, and a hub's
queues and futures belong to the loop it runs in."""


@contextlib.asynccontextmanager
async def subscribed(
    channels: ChannelsPlugin, sessions: Sessions, stream: str
) -> AsyncIterator[asyncio.Queue[Batch]]:
    """A queue of the stream's batches from now on, for as long as the block runs (the hub
    is started by its first stream and stopped after its last)."""
    hubs = _hubs.setdefault(channels, {})
    key = (asyncio.get_running_loop(), stream)
    hub = hubs.get(key)
    if hub is None or hub.task.done():
        hub = hubs[key] = Hub(channels, sessions, stream)
    queue: asyncio.Queue[Batch] = asyncio.Queue()
    hub.queues.add(queue)
    try:
        await hub.ready.wait()
        if hub.task.done():
            queue.put_nowait(CLOSED)
        yield queue
    finally:
        hub.queues.discard(queue)
        if not hub.queues and hubs.get(key) is hub:
            del hubs[key]
            hub.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await hub.task
