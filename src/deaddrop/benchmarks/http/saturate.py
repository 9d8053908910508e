"""wrk-style saturation: C keep-alive connections send back to back for a fixed time."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from dataclasses import dataclass, field
from time import monotonic

from deaddrop.benchmarks.http.requests import RequestMaker
from deaddrop.benchmarks.http.stats import percentile
from deaddrop.benchmarks.http.wire import Connection

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

    @property
    def rate(self) -> float:
        """Completed requests per second."""
        return self.done / self.seconds if self.seconds else 0.0


async def saturate(
    maker: RequestMaker, kind: str, *, connections: int, seconds: float, warmup: float
) -> Saturation:
    """Send `kind` on `connections` connections for `warmup` + `seconds`; measure the second."""
    numbers = itertools.count()
    begin = monotonic() + warmup
    end = begin + seconds
    outcomes: Counter[str] = Counter()
    latencies: list[float] = []

    async def worker() -> None:
        connection = Connection(maker.address)
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

    tasks = [asyncio.create_task(worker()) for _ in range(connections)]
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
    )
