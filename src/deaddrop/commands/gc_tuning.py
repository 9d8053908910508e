"""The cycle collector's thresholds for a serving process (`deaddrop serve`).

Measured on `deaddrop bench http --phases live --streams 5000 --live-votes` (SQLite, one
process): with Python's defaults (700, 10, 10) the heap of 5,000 open pages (1.4 million
tracked objects) was scanned whole 16 times, pausing everything for up to 1.6 s at a time
(12 s in all); a delivery caught behind such a pause is the p99 of the run. With (10,000, 10,
100), a full collection did not come during the run, the longest pause was 0.5 s and the
collector's time 3.5 s in all. Garbage without cycles is freed by reference counting as
before; cyclic garbage waits longer for a full collection, which still comes.
"""

from __future__ import annotations

import gc

SERVING_THRESHOLDS = (10_000, 10, 100)
"""(allocations before a young collection, young collections before a middle one, middle
ones before a full one): fewer, later collections than Python's (700, 10, 10)."""


def tune_for_serving() -> None:
    """Collect cycles less often: a full collection pauses every open page (see above)."""
    gc.set_threshold(*SERVING_THRESHOLDS)
