"""The scale phase: each kind saturated on the first server process alone, then on all of them
at once, in turn, so that each pair of runs is taken under the same conditions (after every
player's request once on each process and a run on all of them, neither measured).

Every server keeps the same number of connections (the plan's), so that each one is as busy
in both runs; with `--server-share` each is held to the same slice of a core, and the ratio of
the two rates says how throughput grows with the processes (near-linear: near their number).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from time import monotonic

from deaddrop.benchmarks.http.load_collector import run_measured
from deaddrop.benchmarks.http.requests import RequestMaker
from deaddrop.benchmarks.http.saturate import ERRORS, Saturation
from deaddrop.benchmarks.http.servers import Server
from deaddrop.benchmarks.http.wire import Connection
from deaddrop.benchmarks.http.world import World

SCALE_KINDS = ("floor", "cable", "vote", "post")
"""Issue 15's pages and saves."""
Measure = Callable[[list[Server], RequestMaker, str, int], Saturation]
"""One saturation run: the servers whose CPU it counts, the requests, the kind, connections."""
Say = Callable[[str], None]
Warm = Callable[[Sequence[Server], World, str, int], None]


def every_player_once(servers: Sequence[Server], world: World, kind: str, connections: int) -> None:
    """`kind` sent for every player once to each server, on `connections` connections each."""
    run_measured(_every_player_once(servers, world, kind, connections))


async def _every_player_once(
    servers: Sequence[Server], world: World, kind: str, connections: int
) -> None:
    count = len(world.players())

    async def visit(maker: RequestMaker, numbers: Iterator[int]) -> None:
        connection = Connection(maker.address)
        try:
            for number in numbers:
                with contextlib.suppress(*ERRORS):  # the measured runs count what fails
                    await connection.send(maker.make(kind, number))
        finally:
            connection.close()

    tasks = []
    for server in servers:
        maker = RequestMaker([server.address], world)
        numbers = iter(range(count))  # shared by the server's connections: each number once
        tasks += [visit(maker, numbers) for _ in range(connections)]
    await asyncio.gather(*tasks)


@dataclass(frozen=True)
class ScaleRun:
    """One pair of runs of a kind: on the first process alone, then on all of them."""

    one: Saturation
    several: Saturation

    @property
    def ratio(self) -> float:
        """How many times the rate of one process all of them reached."""
        return self.several.rate / self.one.rate if self.one.rate else 0.0


def measure_scaling(
    servers: Sequence[Server],
    world: World,
    connections: int,
    repeats: int,
    measure: Measure,
    say: Say,
    warm: Warm = every_player_once,
) -> dict[str, list[ScaleRun]]:
    """Every kind's pairs of runs, `repeats` of them, after `warm`."""
    first = list(servers[:1])
    alone = RequestMaker([server.address for server in first], world)
    together = RequestMaker([server.address for server in servers], world)
    found: dict[str, list[ScaleRun]] = {}
    for kind in SCALE_KINDS:
        # Unmeasured: each process fills its caches first (every player's page, every game's
        # state): at a share of a core, longer than any run's warm-up.
        began = monotonic()
        warm(servers, world, kind, connections)
        measure(list(servers), together, kind, connections * len(servers))  # and settled
        say(f"  {kind}: every player once on each process first ({monotonic() - began:.0f} s)")
        for _ in range(repeats):
            one = measure(first, alone, kind, connections)
            several = measure(list(servers), together, kind, connections * len(servers))
            run = ScaleRun(one, several)
            found.setdefault(kind, []).append(run)
            say(
                f"  {kind}: one process {one.rate:,.1f} req/s (CPU {one.server_cpu_percent:.0f}%"
                f"), {len(servers)} processes {several.rate:,.1f} req/s (CPU "
                f"{several.server_cpu_percent:.0f}%): {run.ratio:.2f}x {several.outcomes}"
            )
    return found
