"""One fan-out per game stream in each process: a wake-up makes one short journal read, and
every open stream of that game in the process takes the rows from memory.

A stream used to read the journal itself at every wake-up, and its renderer the database
again, holding a pooled connection per reader per event. Here the hub of a stream subscribes
once to its wake channel, reads the new rows once (the connection is released at once) and
hands the same `Batch` to each stream's queue; what a renderer makes of a batch for one
audience (a fragment, the facts of the game) is made once per batch (`Batch.once`) and shared
by every stream of that audience. Each stream still filters the rows by its own audience.
A wake-up lost on the way (Redis pub/sub delivers at most once) is made good by the process's
live sweep (`sweep.py`), which nudges every hub whose game has rows it has not read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from litestar import Litestar
from litestar.channels import ChannelsPlugin, Subscriber
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live.addresses import Address, Addresses, read_addresses
from deaddrop.server.live.journal import PAGE, read_after
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.sweep import sweep
from deaddrop.server.live.turns import Turns
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
        elif found.done():  # made already: no waiter to allocate, for each of many streams
            done: T = found.result()
            return done
        # A stream that ends while waiting must not cancel the work the others wait for.
        result: T = await asyncio.shield(found)
        return result


async def read_batch(
    turns: Turns, sessions: Sessions, stream: str, after: int, upto: int | None = None
) -> Batch:
    """The next page of journal rows after `after` (up to `upto`), in one short session."""
    async with turns.reading(shared=True), sessions() as db:
        rows = await read_after(db, stream, after)
    if upto is not None:
        rows = [row for row in rows if row.seq <= upto]
    return Batch(rows)


RETRY_SECONDS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
"""The pauses before a hub's read is tried again. A read that fails (the connection pool
exhausted while thousands of pages connect) used to end the hub, and with it every open page
of the game at once, which all came back together; or it waited for the game's next wake-up,
maybe minutes later, with the news undelivered."""


async def patiently(what: str, read: Callable[[], Awaitable[T]]) -> T:
    """`read()`, tried again after each pause of RETRY_SECONDS; the last failure is raised."""
    for pause in RETRY_SECONDS:
        try:
            return await read()
        except Exception:
            _log.warning("%s failed; again in %.2f s", what, pause, exc_info=True)
        await asyncio.sleep(pause)
    try:
        return await read()
    except Exception:
        _log.exception("%s failed", what)
        raise


CLOSED = Batch([])
"""Put in a stream's queue when its hub stops: the stream ends and the browser reconnects."""


class Hub:
    """The one subscriber of a game's wake channel in this process, and its open streams."""

    def __init__(
        self, channels: ChannelsPlugin, sessions: Sessions, stream: str, turns: Turns
    ) -> None:
        self.channels, self.sessions, self.stream, self.turns = channels, sessions, stream, turns
        self.queues: set[asyncio.Queue[Batch]] = set()
        self.addresses: Addresses | None = None
        """Who may see each row up to `seen`: None until read (or when the read failed)."""
        self.seen = 0
        self.wanted = 0
        """The newest seq known to exist (announced by a wake-up, or found by the sweep)."""
        self._nudged = asyncio.Event()
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self._run())

    def want(self, newest: int) -> None:
        """Have the journal read up to `newest` (a wake-up announced it, or the sweep found
        it there), unless this hub has read that far."""
        if newest > self.seen:
            self.wanted = max(self.wanted, newest)
            self._nudged.set()

    async def _run(self) -> None:
        try:
            async with self.channels.start_subscription(wake_channel(self.stream)) as wakes:
                # After subscribing: no wake-up is missed.
                addresses = await patiently(f"first read of {self.stream}", self._addresses)
                self.seen, self.addresses = addresses.seen, addresses
                self.wanted = self.seen
                self.ready.set()
                listening = asyncio.create_task(self._listen(wakes))
                try:
                    while not listening.done():
                        await self._nudged.wait()
                        self._nudged.clear()
                        await self._read_up_to(self.wanted)
                    await listening  # the broker's failure, raised to be logged below
                finally:
                    listening.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await listening
        except Exception:
            _log.exception("live fan-out of %s stopped", self.stream)
        finally:
            self.ready.set()
            for queue in list(self.queues):
                queue.put_nowait(CLOSED)

    async def _listen(self, wakes: Subscriber) -> None:
        """Take the broker's wake-ups; when they stop (the broker failed), stop the hub."""
        try:
            async for data in wakes.iter_events():
                self.want(parse_wake(data))
        finally:
            self._nudged.set()

    async def _addresses(self) -> Addresses:
        async with self.turns.reading(shared=True), self.sessions() as db:
            return await read_addresses(db, self.stream)

    async def _read_up_to(self, newest: int) -> None:
        """Read the journal once up to the announced `newest` and hand it to every stream."""
        while newest > self.seen:
            read = partial(read_batch, self.turns, self.sessions, self.stream, self.seen)
            try:
                batch = await patiently(f"live read of {self.stream}", read)
            except Exception:  # still failing: tried again at the next wake-up or sweep
                return
            if not batch.rows:
                return
            self.seen = batch.rows[-1].seq
            if self.addresses is not None:
                self.addresses.extend(Address(r.seq, r.public, r.seats) for r in batch.rows)
            for queue in list(self.queues):
                queue.put_nowait(batch)
            if len(batch.rows) < PAGE:
                return


HubKey = tuple[ChannelsPlugin, asyncio.AbstractEventLoop, str]


class Fanout:
    """One app's live fan-out (on `app.state`): its hubs, by broker, event loop and stream (a
    server runs one loop, but a test may drive streams of one app from several, and a hub's
    queues and futures belong to the loop it runs in), and its streams' turns at the
    database."""

    def __init__(self) -> None:
        self.hubs: dict[HubKey, Hub] = {}
        self.turns = Turns()
        self.sweeps: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
        """Per event loop with hubs: its sweep (`sweep.py`)."""

    def reading(self, *, shared: bool = False) -> contextlib.AbstractAsyncContextManager[None]:
        """A turn for database work (`Turns.reading`)."""
        return self.turns.reading(shared=shared)

    @contextlib.asynccontextmanager
    async def subscribed(
        self, channels: ChannelsPlugin, sessions: Sessions, stream: str
    ) -> AsyncIterator[tuple[asyncio.Queue[Batch], Hub]]:
        """A queue of the stream's batches from now on, and the hub that fills it, for as
        long as the block runs (the hub is started by its first stream and stopped after its
        last)."""
        key = (channels, asyncio.get_running_loop(), stream)
        hub = self.hubs.get(key)
        if hub is None or hub.task.done():
            hub = self.hubs[key] = Hub(channels, sessions, stream, self.turns)
            self._keep_sweeping(key[1])
        queue: asyncio.Queue[Batch] = asyncio.Queue()
        hub.queues.add(queue)
        try:
            await hub.ready.wait()
            if hub.task.done():
                queue.put_nowait(CLOSED)
            yield queue, hub
        finally:
            hub.queues.discard(queue)
            if not hub.queues and self.hubs.get(key) is hub:
                del self.hubs[key]
                hub.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await hub.task
                await self._stop_sweeping_if_idle(key[1])

    def _hubs_in(self, loop: asyncio.AbstractEventLoop) -> list[Hub]:
        return [hub for (_broker, its_loop, _stream), hub in self.hubs.items() if its_loop is loop]

    def _keep_sweeping(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start the loop's sweep, unless it runs already."""
        running = self.sweeps.get(loop)
        if running is None or running.done():
            hubs = partial(self._hubs_in, loop)
            self.sweeps[loop] = asyncio.create_task(sweep(hubs, self.turns))

    async def _stop_sweeping_if_idle(self, loop: asyncio.AbstractEventLoop) -> None:
        """Stop the loop's sweep once it has no hub left."""
        if self._hubs_in(loop):
            return
        running = self.sweeps.pop(loop, None)
        if running is not None:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running


FANOUT_KEY = "live_fanout"
"""Where an app keeps its `Fanout` in `app.state`."""


def fanout_of(app: Litestar) -> Fanout:
    """The app's live fan-out (made by the app factory)."""
    found = app.state[FANOUT_KEY]
    assert isinstance(found, Fanout)
    return found
