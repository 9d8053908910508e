"""The live layer: journal per audience, wake-ups without content, SSE replay from Last-Event-ID."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence

import pytest
from litestar.channels import ChannelsPlugin
from litestar.channels.backends.memory import MemoryChannelsBackend
from litestar.response.sse import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.engine.core.events import Audience, Event
from deaddrop.server.db.engine import create_engine, create_sessionmaker
from deaddrop.server.live import journal
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.sse import live_stream, parse_last_event_id
from deaddrop.server.live.wakeup import parse_wake, wake, wake_channel
from tests.server.conftest import Database

STREAM = "station:abc123"


@pytest.fixture
async def sessions(database: Database) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = create_engine(database.settings())
    yield create_sessionmaker(engine)
    await engine.dispose()


@pytest.fixture
async def channels() -> AsyncIterator[ChannelsPlugin]:
    plugin = ChannelsPlugin(backend=MemoryChannelsBackend(), arbitrary_channels_allowed=True)
    async with plugin:
        yield plugin


async def publish(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin, *events: Event
) -> int:
    """What a do_* function does: journal in its transaction, commit, then wake listeners."""
    async with sessions() as db:
        seq = await journal.append(db, STREAM, events)
        await db.commit()
    await wake(channels, STREAM, seq)
    return seq


async def render(db: AsyncSession, rows: Sequence[LiveEvent]) -> list[ServerSentEventMessage]:
    return [ServerSentEventMessage(data=row.kind, event=row.kind, id=row.seq) for row in rows]


def public(kind: str) -> Event:
    return Event(kind, {"n": 1}, Audience.everyone())


def private(kind: str, *seats: int) -> Event:
    return Event(kind, {"secret": kind}, Audience.only(*seats))


async def collect(stream: AsyncIterator[ServerSentEventMessage], count: int) -> list[str]:
    """The data of the next `count` events (comments skipped)."""
    out: list[str] = []
    while len(out) < count:
        message = await asyncio.wait_for(anext(stream), 5)
        if message.comment is None:
            out.append(str(message.data))
    return out


async def test_journal_numbers_events_and_filters_by_audience(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with sessions() as db:
        seq = await journal.append(db, STREAM, [public("vote"), private("result", 2)])
        await db.commit()
        assert seq == 2
        assert await journal.last_seq(db, STREAM) == 2
        assert [r.kind for r in await journal.events_since(db, STREAM, 0, 2)] == ["vote", "result"]
        assert [r.kind for r in await journal.events_since(db, STREAM, 0, 3)] == ["vote"]
        assert [r.kind for r in await journal.events_since(db, STREAM, 0, None)] == ["vote"]
        assert len(await journal.events_since(db, STREAM, 0, journal.EVERYONE)) == 2
        assert await journal.events_since(db, STREAM, 2, 2) == []
        other = journal.stream_name("station", "zzz")
        assert await journal.last_seq(db, other) == 0


async def test_a_listener_gets_only_its_audience_live(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    seat1 = live_stream(channels, sessions, STREAM, 1, None, render, keepalive=0.2)
    spectator = live_stream(channels, sessions, STREAM, None, None, render, keepalive=0.2)
    assert (await anext(seat1)).comment == "connected"
    assert (await anext(spectator)).comment == "connected"
    await publish(sessions, channels, public("vote"), private("whisper", 1, 4))
    await publish(sessions, channels, private("ring", 5), public("cable"))
    assert await collect(seat1, 3) == ["vote", "whisper", "cable"]
    assert await collect(spectator, 2) == ["vote", "cable"]
    await seat1.aclose()
    await spectator.aclose()


async def test_reconnect_with_last_event_id_gets_exactly_what_was_missed(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    await publish(sessions, channels, public("a"), private("b", 3), public("c"))
    await publish(sessions, channels, private("d", 1), public("e"))
    # The phone slept after event 1; it comes back as seat 3 with Last-Event-ID: 1.
    after = parse_last_event_id("1")
    stream = live_stream(channels, sessions, STREAM, 3, after, render, keepalive=0.2)
    assert await collect(stream, 3) == ["b", "c", "e"]
    await publish(sessions, channels, public("f"))
    assert await collect(stream, 1) == ["f"]
    await stream.aclose()


async def test_wake_ups_carry_no_content(channels: ChannelsPlugin) -> None:
    async with channels.start_subscription(wake_channel(STREAM)) as subscriber:
        await wake(channels, STREAM, 7)
        data = await asyncio.wait_for(anext(subscriber.iter_events()), 5)
    assert parse_wake(data) == 7
    assert set(json.loads(data)) == {"stream", "seq"}


def test_last_event_id_parsing() -> None:
    assert parse_last_event_id(None) is None
    assert parse_last_event_id(" 12 ") == 12
    assert parse_last_event_id("x") is None
    assert parse_last_event_id("-3") is None
    assert parse_wake(b"nonsense") == 0
