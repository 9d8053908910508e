"""Open-loop load at a fixed rate: each request leaves at its scheduled time, whatever the
replies do, and its latency counts from that time (no coordinated omission)."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from time import monotonic

from deaddrop.benchmarks.http.requests import RequestMaker
from deaddrop.benchmarks.http.saturate import ERRORS
from deaddrop.benchmarks.http.stats import percentile
from deaddrop.benchmarks.http.wire import Address, Connection

MAX_CONNECTIONS = 512
"""Connections open at once at most; a request waiting for one is already late, and counted."""


@dataclass(frozen=True)
class OpenLoop:
    """One run at one rate."""

    rate: float
    seconds: float
    sent: int
    done_in_time: int
    """Replies that came within the run's own `seconds` (the rate the server kept up with)."""
    unanswered: int
    """Requests still without a reply `grace` seconds after the run: counted in p50/p99 with
    the time they had waited (a lower bound)."""
    outcomes: dict[str, int] = field(default_factory=dict)
    p50_ms: float = 0.0
    p99_ms: float = 0.0

    @property
    def done_rate(self) -> float:
        """Replies per second within the run."""
        return self.done_in_time / self.seconds if self.seconds else 0.0


async def open_loop(
    maker: RequestMaker, kinds: list[str], *, rate: float, seconds: float, grace: float
) -> OpenLoop:
    """Send `kinds` (one per request, in order) at `rate` per second for `seconds`."""
    total = max(1, int(rate * seconds))
    start = monotonic() + 0.1
    idle: dict[Address, list[Connection]] = {address: [] for address in maker.addresses}
    slots = asyncio.Semaphore(MAX_CONNECTIONS)
    outcomes: Counter[str] = Counter()
    latencies: list[float] = []
    in_time = 0

    async def one(number: int, scheduled: float) -> None:
        nonlocal in_time
        async with slots:
            address = maker.address_of(number)
            connection = idle[address].pop() if idle[address] else Connection(address)
            request = maker.make(kinds[number % len(kinds)], number)
            try:
                outcomes[str((await connection.send(request)).status)] += 1
                idle[address].append(connection)
            except ERRORS as error:
                outcomes[type(error).__name__] += 1
        answered = monotonic()
        latencies.append(answered - scheduled)
        in_time += answered <= start + seconds

    tasks: list[asyncio.Task[None]] = []
    for number in range(total):
        scheduled = start + number / rate
        await asyncio.sleep(max(0.0, scheduled - monotonic()))
        tasks.append(asyncio.create_task(one(number, scheduled)))
    _done, late = await asyncio.wait(tasks, timeout=grace) if tasks else (set(), set())
    cut = monotonic()
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for connections in idle.values():
        for connection in connections:
            connection.close()
    waited = [cut - (start + n / rate) for n, task in enumerate(tasks) if task in late]
    every = latencies + waited
    return OpenLoop(
        rate,
        seconds,
        total,
        in_time,
        len(late),
        dict(outcomes),
        percentile(every, 0.5) * 1000,
        percentile(every, 0.99) * 1000,
    )
