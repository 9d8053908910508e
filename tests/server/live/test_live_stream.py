"""The live layer: journal per audience, wake-ups without content, SSE replay from Last-Event-ID."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Sequence

import pytest
from litestar.channels import ChannelsPlugin
from litestar.exceptions import ClientException
from litestar.response.sse import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.engine.core.events import Audience, Event
from deaddrop.server.live import journal
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.sse import live_stream, parse_last_event_id
from deaddrop.server.live.wakeup import parse_wake, wake, wake_channel

STREAM = "station:abc123"


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


# --- Cursors: a listener is told only how many events it may see (S26-S31) ------------------


async def batch(db: AsyncSession, rows: Sequence[LiveEvent]) -> list[ServerSentEventMessage]:
    """One message per batch, numbered by its newest journal row as a renderer might try."""
    return [ServerSentEventMessage(data=",".join(r.kind for r in rows), id=rows[-1].seq)]


async def pushes(
    stream: AsyncIterator[ServerSentEventMessage], count: int
) -> list[tuple[int, str]]:
    """(id, data) of the next `count` messages with data (comments skipped)."""
    out: list[tuple[int, str]] = []
    while len(out) < count:
        message = await asyncio.wait_for(anext(stream), 5)
        if message.comment is None:
            out.append((int(str(message.id)), str(message.data)))
    return out


async def test_cursors_count_only_the_events_a_listener_may_see(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with sessions() as db:
        await journal.append(db, STREAM, [public("a"), private("b", 3), private("c", 1, 3)])
        await journal.append(db, STREAM, [public("d")])
        await db.commit()
        assert [await journal.cursor_at(db, STREAM, 3, seq) for seq in range(5)] == [0, 1, 2, 3, 4]
        assert [await journal.cursor_at(db, STREAM, 1, seq) for seq in range(5)] == [0, 1, 1, 2, 3]
        assert [await journal.cursor_at(db, STREAM, 5, seq) for seq in range(5)] == [0, 1, 1, 1, 2]
        assert [await journal.cursor_at(db, STREAM, None, s) for s in range(5)] == [0, 1, 1, 1, 2]
        assert await journal.cursor_at(db, STREAM, journal.EVERYONE, 4) == 4
        # Cursor k resumes after the k-th visible event; past the end, from now.
        assert await journal.position_of(db, STREAM, 1, 1) == (1, 1)
        assert await journal.position_of(db, STREAM, 1, 2) == (3, 2)
        assert await journal.position_of(db, STREAM, 1, 3) == (4, 3)
        assert await journal.position_of(db, STREAM, 1, 2**31 - 1) == (4, 3)
        assert await journal.position_of(db, STREAM, None, 0) == (0, 0)


async def test_private_events_of_others_never_move_a_listener_s_ids(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    await publish(sessions, channels, public("a"))
    seat1 = live_stream(channels, sessions, STREAM, 1, None, batch, keepalive=0.2)
    spectator = live_stream(channels, sessions, STREAM, None, None, batch, keepalive=0.2)
    assert (await anext(seat1)).comment == "connected"
    assert (await anext(spectator)).comment == "connected"
    for number in range(3):  # three private acts of seat 5: a Ring post, an order, a save
        await publish(sessions, channels, private(f"ring{number}", 5))
    await publish(sessions, channels, public("vote"))
    assert await pushes(seat1, 1) == [(2, "vote")]  # the second event seat 1 may see
    assert await pushes(spectator, 1) == [(2, "vote")]
    await publish(sessions, channels, private("whisper", 1), public("cable"))
    assert await pushes(seat1, 1) == [(4, "whisper,cable")]
    assert await pushes(spectator, 1) == [(3, "cable")]
    await seat1.aclose()
    await spectator.aclose()


async def test_last_event_id_is_the_listener_s_own_cursor(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    await publish(sessions, channels, public("a"), private("b", 3), public("c"))
    await publish(sessions, channels, private("d", 1), public("e"))
    # Seat 1 saw a and c (its cursor 2) before the phone slept: it gets d and e, numbered 4.
    stream = live_stream(channels, sessions, STREAM, 1, 2, batch, keepalive=0.2)
    assert await pushes(stream, 1) == [(4, "d,e")]
    await stream.aclose()
    # A cursor past what it may see (forged, or 2**31 - 1) resumes from now with its true one.
    forged = live_stream(channels, sessions, STREAM, 1, 2**31 - 1, batch, keepalive=0.2)
    assert (await anext(forged)).comment == "connected"
    await publish(sessions, channels, public("f"))
    assert await pushes(forged, 1) == [(5, "f")]
    await forged.aclose()


def test_a_last_event_id_past_any_cursor_is_refused_not_carried_into_a_query() -> None:
    for huge in ("99999999999999999999999", str(2**31)):
        with pytest.raises(ClientException, match="at most 2147483647"):
            parse_last_event_id(huge)
    assert parse_last_event_id(str(2**31 - 1)) == 2**31 - 1


async def test_wake_ups_for_others_do_not_move_the_keepalives(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    """A keep-alive that waited for a quiet moment would time other seats' private acts."""
    stream = live_stream(channels, sessions, STREAM, 1, None, batch, keepalive=0.5)
    assert (await anext(stream)).comment == "connected"
    comments: list[str] = []

    async def read() -> None:
        async for message in stream:
            comments.append(str(message.comment))

    reader = asyncio.create_task(read())
    try:
        for number in range(20):  # a private event for seat 5 every 0.1 s, for 2 s
            await publish(sessions, channels, private(f"secret{number}", 5))
            await asyncio.sleep(0.1)
        assert "still here" in comments  # on time, as if nothing had happened
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        await stream.aclose()


async def test_a_listener_whose_audience_grows_is_renumbered_in_place(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    """A seat becomes EVERYONE at the game's end (S26): from then on it counts every event,
    so its cursor only grows, and a resume from it starts exactly where it was."""
    now: list[journal.Listener] = [1]

    async def audience(db: AsyncSession) -> journal.Listener:
        return now[0]

    await publish(sessions, channels, public("a"))
    stream = live_stream(channels, sessions, STREAM, 1, None, batch, 0.2, audience=audience)
    assert (await anext(stream)).comment == "connected"
    await publish(sessions, channels, private("ring", 5))
    await publish(sessions, channels, public("b"))
    assert await pushes(stream, 1) == [(2, "b")]
    now[0] = journal.EVERYONE
    await publish(sessions, channels, public("over"))
    assert await pushes(stream, 1) == [(4, "over")]  # a, ring, b, over
    await publish(sessions, channels, private("late", 5))
    assert await pushes(stream, 1) == [(5, "late")]
    await stream.aclose()
    again = live_stream(channels, sessions, STREAM, journal.EVERYONE, 5, batch, keepalive=0.2)
    assert (await anext(again)).comment == "connected"
    await publish(sessions, channels, public("next"))
    assert await pushes(again, 1) == [(6, "next")]  # nothing replayed twice
    await again.aclose()


async def test_a_stop_event_ends_the_stream(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    stop = asyncio.Event()
    stream = live_stream(channels, sessions, STREAM, 1, None, batch, keepalive=5, stop=stop)
    assert (await anext(stream)).comment == "connected"
    stop.set()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(anext(stream), 2)
