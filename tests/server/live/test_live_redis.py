"""The live layer over Redis: one process, and two processes sharing a database and a Redis.

Redis runs when TEST_REDIS_URL is set (e.g. redis://127.0.0.1:6379/0); unset or unreachable it
skips, except under CI=true, where it fails. Each test has its own stream, hence its own
wake-up channel, so parallel runs never hear each other. (Litestar's pub/sub backend publishes
on the bare channel name; its `key_prefix` only namespaces the stream backend's keys.)
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import pytest
from litestar.channels import ChannelsPlugin
from litestar.response.sse import ServerSentEventMessage
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.engine.core.events import Event
from deaddrop.server.live import journal, sweep
from deaddrop.server.live.sse import live_stream, parse_last_event_id
from deaddrop.server.live.wakeup import (
    Wakeups,
    channels_plugin,
    close_redis,
    parse_wake,
    wake,
    wake_channel,
)
from tests.server.live.test_live_stream import collect, private, public, render


@pytest.fixture
def stream() -> str:
    """This test's own game stream."""
    return journal.stream_name("station", uuid.uuid4().hex[:12])


@pytest.fixture
async def instances(redis_url: str) -> AsyncIterator[tuple[ChannelsPlugin, ChannelsPlugin]]:
    """Two channels plugins on one Redis, as two server processes have them."""
    a, b = channels_plugin(redis_url), channels_plugin(redis_url)
    async with AsyncExitStack() as stack:
        for plugin in (a, b):
            stack.push_async_callback(close_redis, plugin)
            await stack.enter_async_context(plugin)
        yield a, b


@pytest.fixture
def channels(instances: tuple[ChannelsPlugin, ChannelsPlugin]) -> ChannelsPlugin:
    """One process on Redis."""
    return instances[0]


async def publish(
    sessions: async_sessionmaker[AsyncSession],
    channels: ChannelsPlugin,
    stream: str,
    *events: Event,
) -> int:
    """What a do_* function does: journal in its transaction, commit, then wake listeners."""
    async with sessions() as db:
        seq = await journal.append(db, stream, events)
        await db.commit()
    await wake(channels, stream, seq)
    return seq


def test_the_app_plugin_uses_redis_only_when_given_a_url() -> None:
    plugin = channels_plugin("redis://127.0.0.1:6379/0")
    assert type(plugin._backend).__name__ == "LastingPubSubBackend"  # Litestar's, lasting
    assert type(channels_plugin(None)._backend).__name__ == "MemoryChannelsBackend"


async def test_wake_ups_cross_redis_without_content(channels: ChannelsPlugin, stream: str) -> None:
    async with channels.start_subscription(wake_channel(stream)) as subscriber:
        await wake(channels, stream, 7)
        data = await asyncio.wait_for(anext(subscriber.iter_events()), 5)
    assert parse_wake(data) == 7


async def test_a_listener_gets_only_its_audience_over_redis(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin, stream: str
) -> None:
    seat1 = live_stream(channels, sessions, stream, 1, None, render, keepalive=0.2)
    spectator = live_stream(channels, sessions, stream, None, None, render, keepalive=0.2)
    try:
        assert (await anext(seat1)).comment == "connected"
        assert (await anext(spectator)).comment == "connected"
        await publish(sessions, channels, stream, public("vote"), private("whisper", 1, 4))
        await publish(sessions, channels, stream, private("ring", 5), public("cable"))
        assert await collect(seat1, 3) == ["vote", "whisper", "cable"]
        assert await collect(spectator, 2) == ["vote", "cable"]
    finally:
        await seat1.aclose()
        await spectator.aclose()


async def test_reconnect_over_redis_gets_exactly_what_was_missed(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin, stream: str
) -> None:
    await publish(sessions, channels, stream, public("a"), private("b", 3), public("c"))
    await publish(sessions, channels, stream, private("d", 1), public("e"))
    listener = live_stream(
        channels, sessions, stream, 3, parse_last_event_id("1"), render, keepalive=0.2
    )
    try:
        assert await collect(listener, 3) == ["b", "c", "e"]
        await publish(sessions, channels, stream, public("f"))
        assert await collect(listener, 1) == ["f"]
    finally:
        await listener.aclose()


async def test_two_processes_each_deliver_what_the_other_published(
    sessions: async_sessionmaker[AsyncSession],
    instances: tuple[ChannelsPlugin, ChannelsPlugin],
    stream: str,
) -> None:
    a, b = instances
    on_a = live_stream(a, sessions, stream, 2, None, render, keepalive=0.2)
    on_b = live_stream(b, sessions, stream, 3, None, render, keepalive=0.2)
    try:
        assert (await anext(on_a)).comment == "connected"
        assert (await anext(on_b)).comment == "connected"
        # Journaled and woken through B: A's listener hears it, and only its audience.
        await publish(sessions, b, stream, public("from-b"), private("for-3", 3))
        assert await collect(on_a, 1) == ["from-b"]
        assert await collect(on_b, 2) == ["from-b", "for-3"]
        # And the other way round.
        await publish(sessions, a, stream, private("for-2", 2), public("from-a"))
        assert await collect(on_a, 2) == ["for-2", "from-a"]
        assert await collect(on_b, 1) == ["from-a"]
    finally:
        await on_a.aclose()
        await on_b.aclose()


async def test_a_page_whose_redis_subscription_is_cut_still_gets_every_event(
    sessions: async_sessionmaker[AsyncSession],
    channels: ChannelsPlugin,
    stream: str,
    redis_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Pub/sub delivers at most once: a wake-up published while the reading process's
    # subscription is cut (a Redis restart, a network blip) is gone. The live sweep reads it.
    monkeypatch.setattr(sweep, "SWEEP_SECONDS", 0.1)
    name = f"deaddrop-test-{uuid.uuid4().hex[:12]}"
    reader = channels_plugin(f"{redis_url}{'&' if '?' in redis_url else '?'}client_name={name}")
    async with _seat_page(reader, sessions, stream) as page:
        await _cut_connections_named(redis_url, name)
        await publish(sessions, channels, stream, public("while-cut"))
        assert await collect(page, 1) == ["while-cut"]
        # And the wake-ups come again: Litestar's own reader would have ended for good.
        monkeypatch.setattr(sweep, "SWEEP_SECONDS", 3600.0)
        await asyncio.sleep(0.2)  # the sweep's last short pause ends
        await _wait_subscribed_again(redis_url, name)
        await publish(sessions, channels, stream, public("after"))
        assert await collect(page, 1) == ["after"]


async def test_a_page_opened_while_redis_is_away_gets_its_events_and_nothing_breaks(
    sessions: async_sessionmaker[AsyncSession],
    stream: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(sweep, "SWEEP_SECONDS", 0.1)
    away = channels_plugin("redis://127.0.0.1:1/0")  # nothing listens there
    async with _seat_page(away, sessions, stream) as page:
        async with sessions() as db:  # a write, and its wake-up as writers send it
            seq = await journal.append(db, stream, [public("vote")])
            await db.commit()
        wakeups = Wakeups()
        wakeups.add_broker(away)
        await wakeups.stream(stream, seq)  # fails, logged: the write stands
        assert await collect(page, 1) == ["vote"]
    assert "subscribing when it is back" in caplog.text
    assert f"wake-up of {stream} failed" in caplog.text


@asynccontextmanager
async def _seat_page(
    plugin: ChannelsPlugin, sessions: async_sessionmaker[AsyncSession], stream: str
) -> AsyncIterator[AsyncGenerator[ServerSentEventMessage, None]]:
    """Seat 1's page of `stream`, connected, on its own channels plugin (one process)."""
    async with AsyncExitStack() as stack:
        stack.push_async_callback(close_redis, plugin)
        await stack.enter_async_context(plugin)
        page = live_stream(plugin, sessions, stream, 1, None, render, keepalive=0.2)
        stack.push_async_callback(page.aclose)
        assert (await anext(page)).comment == "connected"
        yield page


@asynccontextmanager
async def _redis_admin(redis_url: str) -> AsyncIterator[Redis]:
    """A client of its own, to look at and close the others' connections."""
    admin = Redis.from_url(redis_url)
    try:
        yield admin
    finally:
        await admin.aclose()


async def _cut_connections_named(redis_url: str, name: str) -> None:
    """Close, from the Redis side, every connection with this client name (and no other)."""
    async with _redis_admin(redis_url) as admin:
        clients = await admin.client_list()
        ours = [client["id"] for client in clients if client.get("name") == name]
        assert ours, f"no Redis connection is named {name}"
        for client_id in ours:
            await admin.client_kill_filter(_id=client_id)


async def _wait_subscribed_again(redis_url: str, name: str) -> None:
    """Until Redis shows a connection with this client name subscribed to a channel again."""
    async with _redis_admin(redis_url) as admin:
        for _ in range(100):
            clients = await admin.client_list()
            if any(c.get("name") == name and int(c.get("sub", 0)) > 0 for c in clients):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"the connection {name} did not subscribe again within 5 s")
