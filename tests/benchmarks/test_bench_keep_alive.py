"""The open loop's keep-alive connections: one the server has closed is never reused, and a
request lost on one is the harness's count, not the server's failure."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from deaddrop.benchmarks.http import open_loop as loop
from deaddrop.benchmarks.http.open_loop import IdlePool, lost_on_reuse, open_loop
from deaddrop.benchmarks.http.requests import RequestMaker
from deaddrop.benchmarks.http.wire import Address

REPLY = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


@asynccontextmanager
async def one_reply_per_connection() -> AsyncIterator[Address]:
    """A server that answers one request a connection, then closes it without saying so
    (as uvicorn does to a keep-alive connection past its timeout)."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(REPLY)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield Address("127.0.0.1", port)
    finally:
        server.close()
        await server.wait_closed()


async def test_a_connection_the_server_closed_is_not_reused() -> None:
    async with one_reply_per_connection() as address:
        run = await open_loop(RequestMaker([address]), ["hello"], rate=50, seconds=0.4, grace=5)
    assert run.outcomes == {"200": 20}
    assert run.closed_keep_alive == 0


async def test_an_idle_connection_is_dropped_before_the_servers_timeout() -> None:
    async with one_reply_per_connection() as address:
        pool = IdlePool(address)
        first = pool.take()
        await first.send(b"GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        first.close()  # as if still open: only its age now decides
        first.replies = 1
        first.idle_since -= loop.IDLE_SECONDS + 1
        pool.give_back(first)
        assert pool.take() is not first
        assert pool.connections == []


def test_only_a_reused_connection_that_got_no_reply_is_the_harnesss() -> None:
    cut = asyncio.IncompleteReadError(b"", None)
    assert lost_on_reuse(cut, reused=True)
    assert not lost_on_reuse(cut, reused=False)  # a fresh connection: the server's failure
    assert not lost_on_reuse(asyncio.IncompleteReadError(b"HTTP/1.1 5", None), reused=True)
    assert lost_on_reuse(ConnectionResetError(), reused=True)
    assert not lost_on_reuse(ValueError("garbled"), reused=True)


async def test_the_warm_up_is_sent_at_the_rate_and_counted_apart() -> None:
    async with one_reply_per_connection() as address:
        run = await open_loop(
            RequestMaker([address]), ["hello"], rate=50, seconds=0.2, grace=5, warmup=0.1
        )
    assert run.sent == 10 and run.outcomes == {"200": 10}
    assert run.warmup_seconds == 0.1 and run.warmup_outcomes == {"200": 5}
    assert run.warmup_p99_ms > 0 and 0 < run.p50_ms <= run.p99_ms
