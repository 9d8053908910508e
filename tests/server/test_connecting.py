"""Live streams connect in turns (issue 15): a crowd of pages opening at once queues for a few
turns at the database instead of emptying the pool; an open stream holds no turn, and one
that waits too long is refused with 503 and Retry-After before it reads anything."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from deaddrop.server.connecting import ConnectTurns
from deaddrop.server.overload import STREAMS_MESSAGE, Gate, Limits, Overloaded, shed_load


def _scope(path: str) -> dict[str, Any]:
    return {"type": "http", "method": "GET", "path": path}


async def _nothing(*_args: Any) -> None:
    return None


class _Streams:
    """A stream route whose connects wait for `admit` before they start their response, and
    whose open streams then wait for `close`."""

    def __init__(self) -> None:
        self.admit = asyncio.Event()
        self.close = asyncio.Event()
        self.started: list[str] = []

    async def app(self, scope: Any, receive: Any, send: Any) -> None:
        await self.admit.wait()  # the reads that admit a stream
        await send({"type": "http.response.start", "status": 200, "headers": []})
        self.started.append(scope["path"])
        await self.close.wait()  # the open stream


def test_an_open_stream_holds_no_turn_to_connect() -> None:
    async def scenario() -> None:
        streams = _Streams()
        streams.admit.set()
        gate: Any = shed_load(streams.app, Gate(Limits(), ConnectTurns(at_once=1, wait=5)))
        opened = [asyncio.create_task(gate(_scope("/g/a/events"), _nothing, _nothing))]
        opened.append(asyncio.create_task(gate(_scope("/g/b/events"), _nothing, _nothing)))
        for _ in range(20):
            await asyncio.sleep(0)
        assert streams.started == ["/g/a/events", "/g/b/events"]  # both open at once
        streams.close.set()
        await asyncio.gather(*opened)

    asyncio.run(scenario())


def test_connects_past_the_turns_wait_and_go_on_in_order() -> None:
    async def scenario() -> None:
        streams = _Streams()
        streams.close.set()
        gate: Any = shed_load(streams.app, Gate(Limits(), ConnectTurns(at_once=2, wait=5)))
        paths = [f"/g/{n}/events" for n in range(5)]
        tasks = [asyncio.create_task(gate(_scope(p), _nothing, _nothing)) for p in paths]
        for _ in range(20):
            await asyncio.sleep(0)
        assert streams.started == []  # two reading, three waiting: none refused
        streams.admit.set()
        await asyncio.gather(*tasks)
        assert streams.started == paths

    asyncio.run(scenario())


def test_a_stream_that_waits_too_long_is_refused_before_it_reads() -> None:
    async def scenario() -> None:
        streams = _Streams()
        gate_of = Gate(Limits(), ConnectTurns(at_once=1, wait=0.05))
        gate: Any = shed_load(streams.app, gate_of)
        first = asyncio.create_task(gate(_scope("/g/a/events"), _nothing, _nothing))
        await asyncio.sleep(0)
        with pytest.raises(Overloaded) as refused:
            await gate(_scope("/g/b/events"), _nothing, _nothing)
        assert refused.value.detail == STREAMS_MESSAGE
        assert refused.value.headers == {"Retry-After": "5"}
        assert gate_of.counts["streams"] == 1  # the refused one no longer counts
        streams.admit.set()
        streams.close.set()
        await first
        assert streams.started == ["/g/a/events"]
        assert gate_of.counts["streams"] == 0

    asyncio.run(scenario())


def test_a_connect_that_fails_gives_its_turn_back() -> None:
    async def failing(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("boom")

    async def scenario() -> None:
        gate: Any = shed_load(failing, Gate(Limits(), ConnectTurns(at_once=1, wait=0.05)))
        for _ in range(3):  # a turn kept would refuse the second with Overloaded
            with pytest.raises(RuntimeError):
                await gate(_scope("/g/a/events"), _nothing, _nothing)

    asyncio.run(scenario())


def test_requests_other_than_streams_take_no_turn() -> None:
    async def scenario() -> None:
        streams = _Streams()
        shared = Gate(Limits(), ConnectTurns(at_once=1, wait=0.05))
        gate: Any = shed_load(streams.app, shared)
        waiting = asyncio.create_task(gate(_scope("/g/a/events"), _nothing, _nothing))
        await asyncio.sleep(0)
        served: list[str] = []

        async def page(scope: Any, receive: Any, send: Any) -> None:
            served.append(scope["path"])

        other: Any = shed_load(page, shared)  # another route of the same process
        await other(_scope("/account"), _nothing, _nothing)
        assert served == ["/account"]
        streams.admit.set()
        streams.close.set()
        await waiting

    asyncio.run(scenario())
