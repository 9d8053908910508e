"""`Batch.once`: what the streams of a batch make of it is made once, whether they ask while it
is being made or after, and a failure or a stream that ends reaches only what it should."""

from __future__ import annotations

import asyncio

import pytest

from deaddrop.server.live.fanout import Batch
from deaddrop.server.live.sse import _next_batch


def test_a_thing_is_made_once_for_askers_during_and_after() -> None:
    async def scenario() -> None:
        batch = Batch([])
        made: list[int] = []

        async def make() -> str:
            made.append(1)
            await asyncio.sleep(0.01)
            return "fragment"

        during = await asyncio.gather(*(batch.once("key", make) for _ in range(5)))
        after = await batch.once("key", make)
        assert during == ["fragment"] * 5
        assert after == "fragment"
        assert made == [1]

    asyncio.run(scenario())


def test_a_failure_reaches_every_asker_even_a_late_one() -> None:
    async def scenario() -> None:
        batch = Batch([])

        async def make() -> str:
            raise RuntimeError("read failed")

        with pytest.raises(RuntimeError):
            await batch.once("key", make)
        with pytest.raises(RuntimeError):
            await batch.once("key", make)

    asyncio.run(scenario())


def test_a_stream_that_ends_while_waiting_does_not_cancel_the_others() -> None:
    async def scenario() -> None:
        batch = Batch([])
        release = asyncio.Event()

        async def make() -> str:
            await release.wait()
            return "fragment"

        leaving = asyncio.create_task(batch.once("key", make))
        staying = asyncio.create_task(batch.once("key", make))
        await asyncio.sleep(0)
        leaving.cancel()
        release.set()
        assert await staying == "fragment"
        assert await batch.once("key", make) == "fragment"

    asyncio.run(scenario())


def test_a_stream_takes_a_waiting_batch_at_once_unless_it_is_stopping() -> None:
    async def scenario() -> None:
        batches: asyncio.Queue[Batch] = asyncio.Queue()
        first, second = Batch([]), Batch([])
        batches.put_nowait(first)
        batches.put_nowait(second)
        stop = asyncio.Event()
        stopping = asyncio.create_task(stop.wait())
        assert await _next_batch(batches, stopping, 5.0) == (False, first)
        assert await _next_batch(batches, stopping, 5.0) == (False, second)
        assert await _next_batch(batches, stopping, 0.01) == (False, None)  # a keep-alive
        batches.put_nowait(first)
        stop.set()
        await asyncio.sleep(0)
        assert await _next_batch(batches, stopping, 5.0) == (True, None)

    asyncio.run(scenario())
