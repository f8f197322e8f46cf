"""Interleaved pairs: A, B, A, B, ... and the ratio of each pair.

Every comparison of the engine measures (``hot_path``, ``durable``, ``sessions``)
runs its two sides alternately in one sitting, so that a noisy neighbour slows
both sides of a pair alike; the figure is the median of the per-pair ratios, with
their spread (min and max), over at least three pairs.
"""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["MIN_PAIRS", "interleave", "pair_summary"]

MIN_PAIRS = 3


async def interleave(
    first: Callable[[], Awaitable[float]],
    second: Callable[[], Awaitable[float]],
    *,
    pairs: int,
) -> tuple[list[float], list[float]]:
    """Run ``first`` then ``second``, ``pairs`` times; their figures, in order."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(max(pairs, MIN_PAIRS)):
        a.append(await first())
        b.append(await second())
    return a, b


def pair_summary(a: list[float], b: list[float]) -> dict[str, Any]:
    """Medians of both sides and the per-pair ratio ``b / a`` (median, min, max)."""
    ratios = [y / x for x, y in zip(a, b, strict=True) if x > 0]
    return {
        "pairs": len(ratios),
        "a_median": statistics.median(a),
        "b_median": statistics.median(b),
        "ratio_median": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }
