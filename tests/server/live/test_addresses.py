"""A stream starts from its game's hub, not the database (issue 15, 5,000 streams): the hub's
addresses place every listener exactly where the journal's own `cursor_at` and `position_of`
would, and a stream that connects reads nothing but its catch-up."""

from __future__ import annotations

import asyncio
import random

from litestar.channels import ChannelsPlugin
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.engine.core.events import Event
from deaddrop.server.live import journal
from deaddrop.server.live.addresses import Address, Addresses, read_addresses
from deaddrop.server.live.fanout import Fanout
from deaddrop.server.live.sse import live_stream
from tests.server.live.test_live_stream import STREAM, collect, private, public, publish, render

LISTENERS: tuple[journal.Listener, ...] = (None, 0, 1, 2, 3, journal.EVERYONE)


def _journal(rng: random.Random, size: int) -> list[Event]:
    events = []
    for number in range(size):
        if rng.random() < 0.4:
            events.append(public(f"p{number}"))
        else:
            events.append(private(f"s{number}", *rng.sample(range(4), rng.randint(1, 2))))
    return events


async def test_addresses_place_listeners_as_the_journal_does(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    rng = random.Random(15)
    async with sessions() as db:
        await journal.append(db, STREAM, _journal(rng, 40))
        await db.commit()
        read = await read_addresses(db, STREAM)
        grown = Addresses()
        rows = await journal.read_after(db, STREAM, 0)
        grown.extend(Address(row.seq, row.public, row.seats) for row in rows[:25])
        for listener in LISTENERS:
            grown.cursor(listener)  # counted before the rest arrive: kept current after
        grown.extend(Address(row.seq, row.public, row.seats) for row in rows)
        newest = await journal.last_seq(db, STREAM)
        for addresses in (read, grown):
            assert addresses.seen == newest
            for listener in LISTENERS:
                truth = await journal.cursor_at(db, STREAM, listener, newest)
                assert addresses.cursor(listener) == truth, listener
                for cursor in (-1, 0, 1, 2, truth // 2, truth - 1, truth):
                    wanted = await journal.position_of(db, STREAM, listener, cursor)
                    assert addresses.position_of(listener, cursor) == wanted, (listener, cursor)


async def test_a_stream_connects_without_reading_the_journal_when_its_hub_is_up(
    sessions: async_sessionmaker[AsyncSession], channels: ChannelsPlugin
) -> None:
    await publish(sessions, channels, public("before"), private("mine", 1))
    fanout = Fanout()
    first = live_stream(channels, sessions, STREAM, 1, None, render, 0.2, fanout=fanout)
    assert (await anext(first)).comment == "connected"  # the hub is up
    statements: list[str] = []

    def count(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        statements.append(sql)

    engine = sessions.kw["bind"].sync_engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        pages = [
            live_stream(channels, sessions, STREAM, seat, after, render, 0.2, fanout=fanout)
            for seat, after in ((1, 2), (2, 1), (None, 1), (3, None))
        ]
        for page in pages:
            assert (await anext(page)).comment == "connected"
    finally:
        event.remove(engine, "before_cursor_execute", count)
    # Every page stands at the newest: it reads neither its place nor a catch-up.
    assert [sql for sql in statements if "live_events" in sql] == []
    behind = live_stream(channels, sessions, STREAM, 1, 1, render, 0.2, fanout=fanout)
    assert await collect(behind, 1) == ["mine"]  # a page behind the hub catches up
    pages.append(behind)
    await publish(sessions, channels, private("later", 1, 3), public("after"))
    assert await collect(first, 2) == ["later", "after"]
    assert await collect(pages[0], 2) == ["later", "after"]
    assert await collect(pages[2], 1) == ["after"]
    assert await collect(pages[3], 2) == ["later", "after"]
    assert await collect(behind, 2) == ["later", "after"]
    for page in [first, *pages]:
        await page.aclose()
    await asyncio.sleep(0)
    assert fanout.hubs == {}  # the hub stops after its last stream
