"""The live sweep (`server/live/sweep.py`): an event whose wake-up never came (Redis pub/sub
delivers at most once; a worker without Redis wakes nobody) still reaches every open stream,
within a sweep, as does one whose hub's read failed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import ClassVar, cast

import pytest
from litestar.channels import ChannelsPlugin
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live import fanout as fanout_module
from deaddrop.server.live import journal, sweep
from deaddrop.server.live.fanout import Batch, Fanout, read_batch
from deaddrop.server.live.sse import live_stream
from deaddrop.server.live.turns import Turns
from tests.server.live.test_live_stream import STREAM, collect, private, public, publish, render

Sessions = async_sessionmaker[AsyncSession]


async def commit_without_waking(sessions: Sessions, *kinds: str) -> int:
    """Journal public events and commit, as a writer whose wake-up was then lost."""
    async with sessions() as db:
        seq = await journal.append(db, STREAM, [public(kind) for kind in kinds])
        await db.commit()
    return seq


async def test_an_event_whose_wake_up_was_lost_reaches_every_open_stream_within_a_sweep(
    sessions: Sessions,
    channels: ChannelsPlugin,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "deaddrop.server.live")
    monkeypatch.setattr(sweep, "SWEEP_SECONDS", 0.05)
    shared = Fanout()
    seat = live_stream(channels, sessions, STREAM, 1, None, render, 0.2, fanout=shared)
    spectator = live_stream(channels, sessions, STREAM, None, None, render, 0.2, fanout=shared)
    assert (await anext(seat)).comment == "connected"
    assert (await anext(spectator)).comment == "connected"
    await commit_without_waking(sessions, "vote")
    async with sessions() as db:  # a private one, lost too: only its seat gets it
        await journal.append(db, STREAM, [private("whisper", 1)])
        await db.commit()
    assert await collect(seat, 2) == ["vote", "whisper"]
    assert await collect(spectator, 1) == ["vote"]
    assert f"the live sweep found {STREAM} at " in caplog.text
    assert ": its last wake-up said 0; reading on" in caplog.text
    await publish(sessions, channels, public("after"))  # and the wake-ups go on as before
    assert await collect(seat, 1) == ["after"]
    assert await collect(spectator, 1) == ["after"]
    await seat.aclose()
    await spectator.aclose()


async def test_without_the_sweep_a_lost_wake_up_leaves_the_stream_behind(
    sessions: Sessions, channels: ChannelsPlugin, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The control of the test above: it is the sweep that delivers there.
    monkeypatch.setattr(sweep, "SWEEP_SECONDS", 3600.0)
    stream = live_stream(channels, sessions, STREAM, 1, None, render, 30.0)
    assert (await anext(stream)).comment == "connected"
    await commit_without_waking(sessions, "vote")
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(anext(stream), 0.5)
    await stream.aclose()


async def test_the_sweep_runs_while_a_game_has_an_open_stream_and_stops_after_the_last(
    sessions: Sessions, channels: ChannelsPlugin
) -> None:
    shared = Fanout()
    first = live_stream(channels, sessions, STREAM, 1, None, render, 0.2, fanout=shared)
    second = live_stream(channels, sessions, STREAM, 2, None, render, 0.2, fanout=shared)
    await anext(first)
    await anext(second)
    loop = asyncio.get_running_loop()
    running = shared.sweeps[loop]
    await first.aclose()
    assert shared.sweeps[loop] is running and not running.done()
    await second.aclose()
    assert loop not in shared.sweeps and running.cancelled()


async def test_a_hub_read_that_failed_is_tried_again_at_the_next_sweep(
    sessions: Sessions, channels: ChannelsPlugin, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before the sweep, a failed read waited for the game's next wake-up, maybe a day later.
    failures = [ConnectionError("the pool is empty")]

    async def failing_once(
        turns: Turns, made: Sessions, stream: str, after: int, upto: int | None = None
    ) -> Batch:
        if failures:
            raise failures.pop()
        return await read_batch(turns, made, stream, after, upto)

    monkeypatch.setattr(fanout_module, "read_batch", failing_once)
    monkeypatch.setattr(fanout_module, "RETRY_SECONDS", ())
    monkeypatch.setattr(sweep, "SWEEP_SECONDS", 0.05)
    stream = live_stream(channels, sessions, STREAM, 1, None, render, 0.2)
    assert (await anext(stream)).comment == "connected"
    await publish(sessions, channels, public("vote"))
    assert await collect(stream, 1) == ["vote"]
    assert not failures
    await stream.aclose()


async def test_a_failed_sweep_is_logged_and_tried_again(
    sessions: Sessions, caplog: pytest.LogCaptureFixture
) -> None:
    class Hub:
        stream = STREAM
        asked: ClassVar[list[int]] = []

        def __init__(self, made: Sessions) -> None:
            self.sessions = made
            self.seen = self.wanted = 0
            self.ready = asyncio.Event()
            self.ready.set()

        def want(self, newest: int) -> None:
            self.asked.append(newest)

    def broken() -> AsyncSession:
        raise ConnectionError("the database is away")

    away = cast(Sessions, broken)  # a sessionmaker whose database is away
    hubs: Sequence[sweep.Swept] = [Hub(away), Hub(sessions)]
    await commit_without_waking(sessions, "vote")
    await sweep.sweep_once(hubs, Turns())
    assert "live sweep failed" in caplog.text
    assert Hub.asked == [1]  # the other database's hubs were still swept


async def test_the_sweep_goes_on_after_a_sweep_that_failed(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sweep, "SWEEP_SECONDS", 0.01)
    sweeps: list[int] = []

    async def flaky(hubs: Sequence[sweep.Swept], turns: Turns) -> None:
        sweeps.append(len(hubs))
        if len(sweeps) == 1:
            raise RuntimeError("a bug in one sweep")

    monkeypatch.setattr(sweep, "sweep_once", flaky)
    running = asyncio.create_task(sweep.sweep(list, Turns()))
    while len(sweeps) < 3:
        await asyncio.sleep(0.01)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert "live sweep failed" in caplog.text
