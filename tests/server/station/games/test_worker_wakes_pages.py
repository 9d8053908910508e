"""A Pouch resolved by `deaddrop worker` (no web app in its process) wakes the open pages of
the server processes through Redis; SQLite and PostgreSQL, with Redis (TEST_REDIS_URL)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence

from litestar.response.sse import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.live import journal
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.sse import live_stream
from deaddrop.server.live.wakeup import WAKEUPS_KEY, channels_plugin, close_redis, worker_broker
from deaddrop.server.station.live.stream import stream_of
from tests.server.station.games.helpers import Table


def test_a_pouch_resolved_by_a_worker_reaches_an_open_page_of_a_server(
    redis_url: str, table: Table
) -> None:
    # `redis_url` comes first: without Redis the test skips before the table's app starts.
    url = redis_url
    sessionmaker = table.app.state.sessionmaker
    stream = stream_of(table.game_id)
    deadline = table.deadline()

    async def scenario(_db: AsyncSession) -> list[str]:
        kinds: list[str] = []
        arrived = asyncio.Event()

        async def render(
            db: AsyncSession, rows: Sequence[LiveEvent]
        ) -> list[ServerSentEventMessage] | None:
            kinds.extend(row.kind for row in rows)
            if "morning_cable" in kinds:
                arrived.set()
            return [ServerSentEventMessage(data="page", id=rows[-1].seq)]

        # A server process's broker, on Redis, with a spectator's page listening.
        server = channels_plugin(url)
        async with server:
            async with sessionmaker() as db:
                after = await journal.last_seq(db, stream)
            page = live_stream(server, sessionmaker, stream, None, after, render)
            connected = asyncio.Event()
            reader = asyncio.create_task(_drain(page, connected))
            try:
                await asyncio.wait_for(connected.wait(), 10)  # subscribed, positioned
                # The worker's process: its own broker, its own runner.
                async with worker_broker(url, table.app.state[WAKEUPS_KEY]) as broker:
                    assert broker is not None
                    table.clock.set(deadline)
                    assert await table.runner().run_once() == 1
                await asyncio.wait_for(arrived.wait(), 10)
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reader
                await page.aclose()
        await close_redis(server)
        return kinds

    kinds: list[str] = table.run_db(scenario)  # in the app's event loop
    assert "morning_cable" in kinds


async def _drain(page: AsyncIterator[ServerSentEventMessage], connected: asyncio.Event) -> None:
    """Read a stream until it is cancelled (its pages are counted by the renderer); its first
    message, the "connected" comment, comes once it is subscribed."""
    async for _ in page:
        connected.set()
