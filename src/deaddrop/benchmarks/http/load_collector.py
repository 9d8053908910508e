"""The load's own cycle collector, kept out of the server's figures.

Measured in stop 29 (a collector callback in both processes of `deaddrop bench http --games
100 --phases saturate,open`): the load process's full collections, which scan everything it
holds (the seeded world, the earlier runs' figures), paused it for up to 167 ms during an open-
loop run; every request in flight counted that pause as the server's latency, and the run's p99
went from about 30 to 105-171 ms. So each run starts with the load's heap collected and frozen:
a collection during the run scans only what the run itself made.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_measured(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coroutine)` with what the load held before it set aside from collections."""
    gc.collect()  # the garbage first: frozen, it would stay
    gc.freeze()
    try:
        return asyncio.run(coroutine)
    finally:
        gc.unfreeze()  # the next run collects it all once more, before its own start
