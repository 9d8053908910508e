"""The cycle collector's thresholds for a serving process (`deaddrop serve`).

Full collections must be rare. Measured on `deaddrop bench http --phases live --streams 5000
--live-votes` (SQLite, one process): with Python's defaults (700, 10, 10) the heap of 5,000
open pages (1.4 million tracked objects) was scanned whole 16 times, pausing everything for up
to 1.6 s at a time (12 s in all); a delivery caught behind such a pause is the p99 of the run.

Young collections must be short. Each made page leaves cyclic garbage (Jinja's contexts and
macros, closures). With (10,000, 10, 100), at 100 req/s of `deaddrop bench http --games 100
--phases saturate,open`, each young collection examined some 10,000 objects and paused
everything for 9 to 10 ms (up to 28 ms), each middle one for about 30 ms (up to 42 ms): the
open loop's p99 was 19 to 58 ms. With (1,000, 20, 500) the longest pauses were 1.5 and 5.1 ms,
the collector's time lower in all (0.63 against 0.96 s over the open loop's last 110 s), and the
p99 11.9 and 9.8 ms (stop 29, with a collector callback logging every pause).

So: young collections every 1,000 allocations, middle ones every 20 young ones, and a full
collection after 500 middle ones, 10 million allocations, as rare as with (10,000, 10, 100).
Garbage without cycles is freed by reference counting as before.
"""

from __future__ import annotations

import gc

SERVING_THRESHOLDS = (1_000, 20, 500)
"""(allocations before a young collection, young collections before a middle one, middle
ones before a full one): short young and middle collections, rare full ones."""


def tune_for_serving() -> None:
    """Short young collections, rare full ones: a full collection pauses every open page."""
    gc.set_threshold(*SERVING_THRESHOLDS)
