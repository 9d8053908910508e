"""Open-loop load at a fixed rate: each request leaves at its scheduled time, whatever the
replies do, and its latency counts from that time (no coordinated omission)."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field, replace
from time import monotonic

from deaddrop.benchmarks.http.requests import RequestMaker
from deaddrop.benchmarks.http.saturate import ERRORS
from deaddrop.benchmarks.http.stats import percentile
from deaddrop.benchmarks.http.wire import Address, Connection

MAX_CONNECTIONS = 512
"""Connections open at once at most; a request waiting for one is already late, and counted."""
IDLE_SECONDS = 2.0
"""An idle connection is reused only this long: uvicorn closes one left idle for 5 s (its
keep-alive timeout), and a request sent on it as it closes is lost on the way."""


class IdlePool:
    """The idle keep-alive connections to one server, the most recently used last."""

    def __init__(self, address: Address) -> None:
        self.address = address
        self.connections: list[Connection] = []

    def take(self) -> Connection:
        """A connection the server still holds open, or a new one."""
        if self.connections:
            connection = self.connections.pop()
            if monotonic() - connection.idle_since < IDLE_SECONDS:
                if not connection.closed_by_server():
                    return connection
            else:  # the ones under it have been idle longer still: none is worth keeping
                self.close_all()
            connection.close()  # nothing was sent on it, so nothing was lost
        return Connection(self.address)

    def give_back(self, connection: Connection) -> None:
        """Keep `connection` for a later request."""
        self.connections.append(connection)

    def close_all(self) -> None:
        """Close every idle connection."""
        for connection in self.connections:
            connection.close()
        self.connections.clear()


def lost_on_reuse(error: BaseException, reused: bool) -> bool:
    """Whether `error` is a reused keep-alive connection that the server had closed: no byte
    of a reply came. The harness's matter (a browser sends such a request again), not the
    server's failure."""
    if not reused:
        return False
    if isinstance(error, asyncio.IncompleteReadError):
        return not error.partial
    return isinstance(error, (ConnectionResetError, BrokenPipeError))


@dataclass(frozen=True)
class OpenLoop:
    """One run at one rate."""

    rate: float
    seconds: float
    sent: int
    """Requests of the run itself (the warm-up's apart)."""
    done_in_time: int
    """Replies that came within the run's own `seconds` (the rate the server kept up with)."""
    unanswered: int
    """Requests still without a reply `grace` seconds after the run: counted in p50/p99 with
    the time they had waited (a lower bound)."""
    outcomes: dict[str, int] = field(default_factory=dict)
    """The server's answers and failures in the run, by status or error."""
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    closed_keep_alive: int = 0
    """Requests lost on a keep-alive connection the server had closed (`lost_on_reuse`):
    counted here, apart from `outcomes`, which are the server's answers and failures."""
    warmup_seconds: float = 0.0
    """Seconds sent at the same rate before the run, unmeasured but for `warmup_p99_ms`."""
    warmup_outcomes: dict[str, int] = field(default_factory=dict)
    """The warm-up's answers and failures, as `outcomes`."""
    warmup_p99_ms: float = 0.0
    """The warm-up's own p99: a server's first seconds (its memos empty, every player's
    first page), shown beside the run's figures rather than mixed into them."""
    server_cpu_percent: float = 0.0
    """The servers' CPU over the run and its warm-up, late replies' wait included, as a share
    of one core: near 100% at a rate is a server at the edge of what it serves."""

    @property
    def done_rate(self) -> float:
        """Replies per second within the run."""
        return self.done_in_time / self.seconds if self.seconds else 0.0


async def open_loop(
    maker: RequestMaker,
    kinds: list[str],
    *,
    rate: float,
    seconds: float,
    grace: float,
    warmup: float = 0.0,
) -> OpenLoop:
    """Send `kinds` (one per request, in order) at `rate` per second for `warmup` + `seconds`;
    the figures are of the requests scheduled in the last `seconds`, the warm-up's p99 apart."""
    warming_up = int(rate * warmup)  # the first requests, sent before the run's own
    total = warming_up + max(1, int(rate * seconds))
    first = monotonic() + 0.1
    start = first + warming_up / rate  # the run's own start
    idle = {address: IdlePool(address) for address in maker.addresses}
    slots = asyncio.Semaphore(MAX_CONNECTIONS)
    outcomes, warmup_outcomes = Counter[str](), Counter[str]()
    latencies: list[float] = []  # the run's
    warming: list[float] = []  # the warm-up's
    in_time = lost = 0

    async def one(number: int, scheduled: float) -> None:
        nonlocal in_time, lost
        async with slots:
            pool = idle[maker.address_of(number)]
            connection = pool.take()
            reused = connection.replies > 0
            request = maker.make(kinds[number % len(kinds)], number)
            counted = warmup_outcomes if number < warming_up else outcomes
            try:
                counted[str((await connection.send(request)).status)] += 1
                pool.give_back(connection)
            except ERRORS as error:
                if lost_on_reuse(error, reused):
                    lost += 1
                else:
                    counted[type(error).__name__] += 1
        answered = monotonic()
        if number < warming_up:  # a warm-up request: its own figure, apart from the run's
            warming.append(answered - scheduled)
            return
        latencies.append(answered - scheduled)
        in_time += answered <= start + seconds

    tasks: list[asyncio.Task[None]] = []
    for number in range(total):
        scheduled = first + number / rate
        await asyncio.sleep(max(0.0, scheduled - monotonic()))
        tasks.append(asyncio.create_task(one(number, scheduled)))
    _done, late = await asyncio.wait(tasks, timeout=grace) if tasks else (set(), set())
    cut = monotonic()
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for pool in idle.values():
        pool.close_all()
    waits = [(n, cut - (first + n / rate)) for n, task in enumerate(tasks) if task in late]
    run = OpenLoop(rate, seconds, 0, in_time, 0, dict(outcomes), closed_keep_alive=lost)
    return _with_latencies(run, latencies, warming, waits, warming_up, warmup, warmup_outcomes)


def _with_latencies(
    run: OpenLoop,
    latencies: list[float],
    warming: list[float],
    waits: list[tuple[int, float]],
    warming_up: int,
    warmup: float,
    warmup_outcomes: Counter[str],
) -> OpenLoop:
    """`run` with its percentiles: the replies' latencies and, for the requests left
    unanswered, (request number, seconds waited); the first `warming_up` are the warm-up's."""
    every = latencies + [wait for number, wait in waits if number >= warming_up]
    warm = warming + [wait for number, wait in waits if number < warming_up]
    return replace(
        run,
        sent=len(every),
        unanswered=len(every) - len(latencies),
        p50_ms=percentile(every, 0.5) * 1000,
        p99_ms=percentile(every, 0.99) * 1000,
        warmup_seconds=warmup,
        warmup_outcomes=dict(warmup_outcomes),
        warmup_p99_ms=percentile(warm, 0.99) * 1000 if warm else 0.0,
    )
