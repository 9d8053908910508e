"""wrk-style saturation: C keep-alive connections send back to back for a fixed time."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from time import monotonic, process_time

from deaddrop.benchmarks.http.requests import RequestMaker
from deaddrop.benchmarks.http.stats import percentile
from deaddrop.benchmarks.http.wire import Connection

CpuProbe = Callable[[], float]
"""CPU seconds a process has used so far."""
ERRORS = (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError)
"""What a request can fail with on the wire (a reset, a cut reply, a garbled one)."""


@dataclass(frozen=True)
class Saturation:
    """One saturation run: what completed within the measured window, and how."""

    kind: str
    seconds: float
    done: int
    outcomes: dict[str, int] = field(default_factory=dict)
    """Status codes (and wire errors by name) of the requests completed in the window."""
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    client_cpu_percent: float = 0.0
    """This process's CPU over the window: near 100 means the client, not the server, is the
    limit, and the figure measures the client."""
    server_cpu_percent: float = 0.0
    """The server's CPU over the window (when a probe was given): near 100 when saturated."""

    @property
    def rate(self) -> float:
        """Completed requests per second."""
        return self.done / self.seconds if self.seconds else 0.0


async def saturate(
    maker: RequestMaker,
    kind: str,
    *,
    connections: int,
    seconds: float,
    warmup: float,
    server_cpu: CpuProbe | None = None,
) -> Saturation:
    """Send `kind` on `connections` connections for `warmup` + `seconds`; measure the second."""
    numbers = itertools.count()
    begin = monotonic() + warmup
    end = begin + seconds
    outcomes: Counter[str] = Counter()
    latencies: list[float] = []

    async def worker(index: int) -> None:
        connection = Connection(maker.address_of(index))
        try:
            while monotonic() < end:
                request = maker.make(kind, next(numbers))
                sent = monotonic()
                try:
                    outcome = str((await connection.send(request)).status)
                except ERRORS as error:
                    outcome = type(error).__name__
                    await asyncio.sleep(0.01)  # a refused connection must not spin
                answered = monotonic()
                if begin <= answered <= end:
                    outcomes[outcome] += 1
                    latencies.append(answered - sent)
        finally:
            connection.close()

    cpu = asyncio.create_task(_cpu_over(begin, end, server_cpu))
    tasks = [asyncio.create_task(worker(index)) for index in range(connections)]
    _done, late = await asyncio.wait(tasks, timeout=warmup + seconds + 30)
    for task in late:  # a reply still not there half a minute after the end is not waited for
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return Saturation(
        kind,
        seconds,
        sum(outcomes.values()),
        dict(outcomes),
        percentile(latencies, 0.5) * 1000,
        percentile(latencies, 0.99) * 1000,
        *(await cpu),
    )


async def _cpu_over(begin: float, end: float, server_cpu: CpuProbe | None) -> tuple[float, float]:
    """(this process's, the server's) CPU percent between `begin` and `end`."""
    await asyncio.sleep(max(0.0, begin - monotonic()))
    client, server = process_time(), server_cpu() if server_cpu else 0.0
    started = monotonic()
    await asyncio.sleep(max(0.0, end - monotonic()))
    wall = max(monotonic() - started, 1e-9)
    server_used = (server_cpu() - server) if server_cpu else 0.0
    return 100 * (process_time() - client) / wall, 100 * server_used / wall
