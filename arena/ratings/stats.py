"""Small statistics used by the command line, the platform and the benchmarks: Wilson intervals, and the
interval of a paired difference."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when there are no trials.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At p = 0 (or 1) the bound is exactly 0 (or 1); the floating-point sum can miss it by an ulp.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``a[i] - b[i]`` and its normal interval (95% by default): two bots measured on the same
    units (a benchmark's deals), so that what the units share cancels out of the difference. A unit is
    the pair, so pairs must be independent of each other. ``(0, 0, 0)`` for no pairs; one pair has an
    interval as wide as its difference can be unknown (``-inf, inf``).

    >>> [round(x, 2) for x in paired_difference([1, 1, 0, 1], [1, 0, 0, 1])]
    [0.25, -0.24, 0.74]
    """
    if len(a) != len(b):
        raise ValueError(f"paired_difference: {len(a)} values against {len(b)}")
    n = len(a)
    if n == 0:
        return 0.0, 0.0, 0.0
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    if n == 1:
        return mean, -math.inf, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half
