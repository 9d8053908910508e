"""Statistics shared by the simulators of both games: Wilson intervals and percentiles."""

from __future__ import annotations

from math import sqrt

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion; (0, 1) when there are no trials.

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 or n successes,
    which matter here: a strong bot may win every game of a short run.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError("successes must lie between 0 and the number of trials")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # At 0 or n successes a bound is exactly 0 or 1; rounding would leave it a hair off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-th percentile (0–100) of sorted values, by linear interpolation."""
    if not sorted_values:
        raise ValueError("no values")
    rank = (len(sorted_values) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (rank - low)
