"""Percentiles and medians of the figures."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (0 < fraction <= 1) of `values`; 0.0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


def median(values: Sequence[float]) -> float:
    """The median; 0.0 when empty."""
    return statistics.median(values) if values else 0.0
