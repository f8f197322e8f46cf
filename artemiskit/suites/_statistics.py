"""Suite statistics, computed exactly (SPEC 13).

Binomial coefficients are exact integers, and the pass@k / pass^k ratios are one
integer true division each, which Python rounds correctly: the float is the exact
ratio's nearest. The Wilson interval uses the closed form with z the 97.5th
percentile of the standard normal distribution; its bounds are then pinned so
that the interval always holds its estimate and lies in [0, 1] (the closed form
in floating point misses 1 at 10/10 and 0 at 0/3 by an ulp).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "WILSON_Z_95",
    "Interval",
    "exact_rate",
    "exact_threshold",
    "pass_at_k",
    "pass_hat_k",
    "percentile",
    "wilson_interval",
    "wilson_score",
]

WILSON_Z_95 = 1.959963984540054
"""The 0.975 quantile of the standard normal distribution."""


@attrs.frozen
class Interval:
    """A two-sided confidence interval for a proportion."""

    low: float
    high: float


def wilson_interval(
    passed: int, judged: int, z: float = WILSON_Z_95
) -> Interval | None:
    """The Wilson score interval of ``passed`` successes in ``judged`` trials.

    The bounds are exact where the mathematics makes them so (``low`` is 0 at no
    pass, ``high`` is 1 at all passes) and always satisfy
    ``0 <= low <= passed / judged <= high <= 1``.

    Returns:
        The interval, or ``None`` when nothing was judged.

    Raises:
        ValueError: ``passed`` is outside ``0..judged``.
    """
    if not 0 <= passed <= judged:
        raise ValueError("passed must be between 0 and judged")
    if judged == 0:
        return None
    p = passed / judged
    score = wilson_score(p, judged, z)
    low = 0.0 if passed == 0 else min(p, score.low)
    high = 1.0 if passed == judged else max(p, score.high)
    return Interval(low=low, high=high)


def wilson_score(rate: float, trials: float, z: float = WILSON_Z_95) -> Interval:
    """The Wilson score interval's closed form at any rate, clipped to [0, 1].

    `wilson_interval` is this at ``passed / judged``, with its bounds pinned;
    a mean of rates over ``trials`` clusters is not a whole count of passes.

    Raises:
        ValueError: ``rate`` is outside [0, 1] or ``trials`` is not positive.
    """
    if not 0.0 <= rate <= 1.0 or trials <= 0:
        raise ValueError("the rate must be in [0, 1] over a positive number of trials")
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (rate + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials))
    half /= denominator
    return Interval(low=max(0.0, centre - half), high=min(1.0, centre + half))


def exact_threshold(value: float) -> Fraction:
    """A threshold given as a decimal number, as the exact fraction it names.

    ``0.2`` is stored as the float nearest 1/5 (a little above it); every
    threshold (``--min-pass-rate``, ``--max-drop``) is compared as the decimal
    the user wrote, the shortest one that gives back the same float: 1/5.
    """
    return Fraction(repr(float(value)))


def exact_rate(passed: int, judged: int) -> Fraction | None:
    """``passed / judged`` exactly; ``None`` when nothing was judged."""
    return None if judged == 0 else Fraction(passed, judged)


def _binomials(m: int, last: int) -> list[int]:
    """``[C(m, 0), C(m, 1), ..., C(m, last)]``, exactly, in O(last) steps."""
    found = [1]
    for k in range(1, last + 1):
        found.append(found[-1] * max(m - k + 1, 0) // k)
    return found


def _check(passed: int, judged: int) -> None:
    if not 0 <= passed <= judged:
        raise ValueError("passed must be between 0 and judged")


def pass_at_k(passed: int, judged: int) -> dict[str, float]:
    """The unbiased pass@k for k = 1..n: ``1 - C(n-c, k) / C(n, k)``.

    Returns:
        ``{"1": ..., ..., "n": ...}``; empty when nothing was judged.
    """
    _check(passed, judged)
    totals = _binomials(judged, judged)
    misses = _binomials(judged - passed, judged)
    return {str(k): (totals[k] - misses[k]) / totals[k] for k in range(1, judged + 1)}


def pass_hat_k(passed: int, judged: int) -> dict[str, float]:
    """The unbiased pass^k for k = 1..n: ``C(c, k) / C(n, k)``.

    Returns:
        ``{"1": ..., ..., "n": ...}``; empty when nothing was judged.
    """
    _check(passed, judged)
    totals = _binomials(judged, judged)
    hits = _binomials(passed, judged)
    return {str(k): hits[k] / totals[k] for k in range(1, judged + 1)}


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100) by linear interpolation between ranks.

    This is the usual "linear" definition (numpy's default): position
    ``(n - 1) * q / 100`` in the sorted values.

    Returns:
        The percentile, or ``None`` for no values.
    """
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * Fraction(q) / 100
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    share = position - below
    return float(ordered[below] + (ordered[above] - ordered[below]) * share)
