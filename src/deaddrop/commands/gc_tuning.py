"""The cycle collector's thresholds for a serving process (`deaddrop serve`).

Full collections must be rare. Measured on `deaddrop bench http --phases live --streams 5000
--live-votes` (SQLite, one process): with Python's defaults (700, 10, 10) the heap of 5,000
open pages (1.4 million tracked objects) was scanned whole 16 times, pausing everything for up
to 1.6 s at a time (12 s in all); a delivery caught behind such a pause is the p99 of the run.

Young collections must be short. Each made page leaves cyclic garbage (Jinja's contexts and
macros, closures), so the young generation fills a dozen times a second at 100 req/s. With
(10,000, 10, 100) each young collection examined some 10,000 objects and paused everything
for 10 ms (up to 19 ms), each middle one for 20 to 38 ms: the open loop's p99 at 100 req/s was
23 to 38 ms. With (1,000, 20, 100) the pauses were at most 1.7 and 6.3 ms, the collector's time
about the same (0.76 against 0.89 s over the open loop's last 110 s), and the p99 12.2 and 13.1
ms (stop 29, `deaddrop bench http --games 100 --phases saturate,open`, with a collector
callback logging every pause).

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
