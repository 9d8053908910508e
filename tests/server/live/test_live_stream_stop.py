"""A live stream ends when the server's shutdown event is set (`live_stream(stop=…)`), at once
and even while it waits for a wake-up, so that `deaddrop serve` can exit; a browser then
reconnects with Last-Event-ID."""

from __future__ import annotations

import asyncio
import time

from litestar import Litestar
from litestar.channels import ChannelsPlugin
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live.shutdown import shutdown_event
from deaddrop.server.live.sse import live_stream
from tests.server.live.test_live_stream import collect, public, publish, render


async def test_a_stream_ends_when_the_server_shuts_down(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    stop = asyncio.Event()
    page = live_stream(channels, sessions, "station:abc123", 1, None, render, stop=stop)
    assert (await anext(page)).comment == "connected"
    await publish(sessions, channels, public("vote"))
    assert await collect(page, 1) == ["vote"]
    began = time.monotonic()
    reading = asyncio.ensure_future(anext(page))  # waits for a wake-up (keepalive 15 s)
    await asyncio.sleep(0.05)
    stop.set()
    ended = False
    try:
        await asyncio.wait_for(reading, 2)
    except StopAsyncIteration:
        ended = True
    assert ended and time.monotonic() - began < 2


async def test_a_stream_opened_during_shutdown_ends_after_saying_connected(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    stop = asyncio.Event()
    stop.set()
    page = live_stream(channels, sessions, "station:abc123", None, None, render, stop=stop)
    messages = [message async for message in page]
    assert [message.comment for message in messages] == ["connected"]


def test_the_apps_shutdown_event_is_one_per_app() -> None:
    app, other = Litestar(), Litestar()
    assert shutdown_event(app) is shutdown_event(app)
    assert shutdown_event(app) is not shutdown_event(other)
    assert not shutdown_event(app).is_set()
