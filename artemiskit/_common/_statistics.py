"""The project's statistics of proportions, computed exactly (SPEC 13, 14, 23).

One home for the numbers every view shows: the Wilson interval of a pass rate,
the unbiased pass@k and pass^k, percentiles, exact rates and thresholds, and the
comparison of two binomial samples (Newcombe's interval, Fisher's exact test).
The decision procedures built on them (paired tests, Holm's step-down, clustered
intervals, planning) are in `artemiskit._common._decisions`. Plain Python only: a
suite needs no scipy; each function is checked against scipy/statsmodels in the
tests.

The pass@k / pass^k values are each the float nearest the exact ratio of binomial
coefficients: a running product in wide integers bounds every ratio, and the rare value
whose bounds straddle a rounding boundary is one exact integer true division, which
Python rounds correctly. The Wilson interval uses the closed form with z the 97.5th
percentile of the standard normal distribution; its bounds are then pinned so that the
interval always holds its estimate and lies in [0, 1] (the closed form in floating point
misses 1 at 10/10 and 0 at 0/3 by an ulp). Newcombe and Fisher compare a baseline (``a``
passes of ``n`` judged runs) and a candidate (``b`` of ``m``); Fisher's p-value is
computed from exact integer hypergeometric weights, so only its final division rounds,
and `fisher_exact_share` keeps even that exact, for comparing with the significance
level.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

__all__ = [
    "CONFIDENCE",
    "WILSON_Z_95",
    "Interval",
    "exact_rate",
    "exact_threshold",
    "fisher_exact_p",
    "fisher_exact_share",
    "fisher_smallest_share",
    "newcombe_interval",
    "newcombe_paired_interval",
    "pass_at_k",
    "pass_hat_k",
    "percentile",
    "wilson_interval",
    "wilson_score",
]

WILSON_Z_95 = 1.959963984540054
"""The 0.975 quantile of the standard normal distribution."""

CONFIDENCE = 0.95
"""The confidence of every interval a suite record and a compare show."""


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


# Working precision of `_ratios`: a ratio is carried as an integer of
# _PRECISION + 1 bits times a power of two.
_PRECISION = 128


def _ratios(m: int, n: int) -> Iterator[tuple[int, int, int]]:
    """Bounds on ``C(m, k) / C(n, k)`` for k = 1, 2, ..., as long as it is nonzero.

    The ratio is the running product of ``(m - i) / (n - i)``; each step
    multiplies by ``m - i`` and floor-divides by ``n - i`` in integers of about
    `_PRECISION` bits, losing less than one unit twice per step, so after k
    steps the exact ratio lies in ``[low, high] * 2**-shift`` with the
    ``(low, high, shift)`` yielded (the relative gap is below 2**-100 for any
    k under a million, far inside a float's 2**-53). Stops after the last
    nonzero ratio (k = m).
    """
    mantissa, shift = 1 << _PRECISION, _PRECISION
    for k in range(1, min(m, n) + 1):
        scaled = ((mantissa * (m - k + 1)) << _PRECISION) // (n - k + 1)
        excess = scaled.bit_length() - _PRECISION - 1
        mantissa, shift = scaled >> excess, shift + _PRECISION - excess
        slack = ((mantissa * (2 * k + 1)) >> (_PRECISION - 2)) + 1
        yield mantissa, mantissa + slack, shift


def _rounded(numerator: int, shift: int) -> float:
    """``numerator * 2**-shift`` as the nearest float (ties to even)."""
    return numerator / (1 << shift)


def _pass_values(m: int, n: int, *, complement: bool) -> list[float]:
    """``C(m, k) / C(n, k)`` (or one minus it) for k = 1..n, each correctly rounded.

    Each value is the float both bounds from `_ratios` round to (rounding is
    monotone, so the exact value rounds there too); where they differ, which
    is the rare value next to a rounding boundary, it is computed exactly.
    Once the ratio is below half the float spacing at the result (2**-54 next
    to one, 2**-1075 next to zero) every later value rounds to the same end.
    """
    if m == n:
        return [0.0 if complement else 1.0] * n
    values: list[float] = []
    for k, (low, high, shift) in enumerate(_ratios(m, n), start=1):
        one = 1 << shift
        if complement:
            first, second = _rounded(one - high, shift), _rounded(one - low, shift)
        else:
            first, second = _rounded(low, shift), _rounded(high, shift)
        if first != second:
            total = math.comb(n, k)
            part = math.comb(m, k)
            first = (total - part) / total if complement else part / total
        values.append(first)
        if high.bit_length() <= shift - (54 if complement else 1075):
            break
    values.extend([1.0 if complement else 0.0] * (n - len(values)))
    return values


def _check(passed: int, judged: int) -> None:
    if not 0 <= passed <= judged:
        raise ValueError("passed must be between 0 and judged")


def pass_at_k(passed: int, judged: int) -> dict[str, float]:
    """The unbiased pass@k for k = 1..n: ``1 - C(n-c, k) / C(n, k)``.

    Each value is the float nearest the exact ratio (see `_pass_values`).

    Returns:
        ``{"1": ..., ..., "n": ...}``; empty when nothing was judged.
    """
    _check(passed, judged)
    values = _pass_values(judged - passed, judged, complement=True)
    return {str(k): value for k, value in enumerate(values, start=1)}


def pass_hat_k(passed: int, judged: int) -> dict[str, float]:
    """The unbiased pass^k for k = 1..n: ``C(c, k) / C(n, k)``.

    Each value is the float nearest the exact ratio (see `_pass_values`).

    Returns:
        ``{"1": ..., ..., "n": ...}``; empty when nothing was judged.
    """
    _check(passed, judged)
    values = _pass_values(passed, judged, complement=False)
    return {str(k): value for k, value in enumerate(values, start=1)}


def percentile(
    values: Sequence[float], q: float, *, presorted: bool = False
) -> float | None:
    """The ``q``-th percentile (0-100) by linear interpolation between ranks.

    This is the usual "linear" definition (numpy's default): position
    ``(n - 1) * q / 100`` in the sorted values.

    Args:
        values: The values.
        q: The percentile, 0 to 100.
        presorted: ``values`` are in ascending order already: only the two
            ranks around the position are read (a long sequence is not copied).

    Returns:
        The percentile, or ``None`` for no values.
    """
    if not values:
        return None
    ordered = values if presorted else sorted(values)
    position = (len(ordered) - 1) * Fraction(q) / 100
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    share = position - below
    return float(ordered[below] + (ordered[above] - ordered[below]) * share)


# Tables whose probability is within this relative margin of the observed one count
# as equally extreme (the tolerance R's fisher.test and SciPy use for ties).
_TIE_MARGIN = Fraction(1) + Fraction(1, 10**7)


def newcombe_interval(
    baseline_passed: int,
    baseline_judged: int,
    candidate_passed: int,
    candidate_judged: int,
) -> Interval | None:
    """The 95% interval of ``candidate rate - baseline rate`` (Newcombe's method 10).

    Newcombe's hybrid score interval combines the two Wilson score intervals:
    with ``d = p2 - p1``, ``low = d - sqrt((p2 - l2)^2 + (u1 - p1)^2)`` and
    ``high = d + sqrt((u2 - p2)^2 + (p1 - l1)^2)``.

    Returns:
        The interval, or ``None`` when either side judged nothing.

    Raises:
        ValueError: A pass count is outside ``0..judged``.
    """
    base = wilson_interval(baseline_passed, baseline_judged)
    cand = wilson_interval(candidate_passed, candidate_judged)
    if base is None or cand is None:
        return None
    p1 = baseline_passed / baseline_judged
    p2 = candidate_passed / candidate_judged
    difference = p2 - p1
    low = difference - math.hypot(p2 - cand.low, base.high - p1)
    high = difference + math.hypot(cand.high - p2, p1 - base.low)
    return Interval(low=max(-1.0, low), high=min(1.0, high))


def fisher_exact_p(
    baseline_passed: int,
    baseline_judged: int,
    candidate_passed: int,
    candidate_judged: int,
) -> float | None:
    """The two-sided p-value of Fisher's exact test on the 2x2 pass/fail table.

    The p-value sums the probabilities of every table with the observed margins
    that is no more probable than the observed one.

    Returns:
        The p-value, or ``None`` when either side judged nothing.

    Raises:
        ValueError: A pass count is outside ``0..judged``.
    """
    exact = fisher_exact_share(
        baseline_passed, baseline_judged, candidate_passed, candidate_judged
    )
    return None if exact is None else float(exact)


def fisher_exact_share(
    baseline_passed: int,
    baseline_judged: int,
    candidate_passed: int,
    candidate_judged: int,
) -> Fraction | None:
    """`fisher_exact_p` as an exact fraction, for comparing with a threshold.

    Returns:
        The p-value, or ``None`` when either side judged nothing.

    Raises:
        ValueError: A pass count is outside ``0..judged``.
    """
    for passed, judged in (
        (baseline_passed, baseline_judged),
        (candidate_passed, candidate_judged),
    ):
        if not 0 <= passed <= judged:
            raise ValueError("passed must be between 0 and judged")
    if baseline_judged == 0 or candidate_judged == 0:
        return None
    passes = baseline_passed + candidate_passed
    lowest = max(0, passes - candidate_judged)
    highest = min(passes, baseline_judged)
    weights = {
        x: math.comb(baseline_judged, x) * math.comb(candidate_judged, passes - x)
        for x in range(lowest, highest + 1)
    }
    observed = weights[baseline_passed]
    extreme = sum(w for w in weights.values() if w <= observed * _TIE_MARGIN)
    return min(Fraction(1), Fraction(extreme, sum(weights.values())))


def fisher_smallest_share(
    baseline_passed: int,
    baseline_judged: int,
    candidate_passed: int,
    candidate_judged: int,
) -> Fraction | None:
    """The smallest p-value Fisher's test could give with these margins.

    The margins (runs per side, passes in all) are fixed under the test; the
    least probable tables are the two ends of the hypergeometric support, so
    the smallest attainable p-value is the smaller of theirs. A row whose
    smallest attainable p-value is not below the significance level can never
    be significant (Tarone, 1990): 1 run against 1 run always gives p = 1.

    Returns:
        The p-value, or ``None`` when either side judged nothing.
    """
    if baseline_judged == 0 or candidate_judged == 0:
        return None
    passes = baseline_passed + candidate_passed
    lowest = max(0, passes - candidate_judged)
    highest = min(passes, baseline_judged)
    ends = [
        fisher_exact_share(x, baseline_judged, passes - x, candidate_judged)
        for x in (lowest, highest)
    ]
    return min(share for share in ends if share is not None)


def newcombe_paired_interval(
    both: int, baseline_only: int, candidate_only: int, neither: int
) -> Interval | None:
    """The 95% interval of ``candidate rate - baseline rate`` for paired verdicts.

    Newcombe's (1998b) method 10, square-and-add from the two Wilson intervals
    with the correction φ for the correlation of the paired proportions: on the
    paired 2x2 table (a both passed, b baseline only, c candidate only, d
    neither) with N = a + b + c + d, A = ad - bc and φ = (A - N/2)/√(margins) when
    A > N/2, 0 when 0 <= A <= N/2, A/√(margins) when A < 0 (0 when a margin is
    0). Unlike a t interval it stays honest when no unit changed verdict.

    Returns:
        The interval, or ``None`` without units.

    Raises:
        ValueError: A count is negative.
    """
    counts = (both, baseline_only, candidate_only, neither)
    if min(counts) < 0:
        raise ValueError("counts must not be negative")
    total = sum(counts)
    if total == 0:
        return None
    base_passed = both + baseline_only
    cand_passed = both + candidate_only
    base = wilson_interval(base_passed, total)
    cand = wilson_interval(cand_passed, total)
    assert base is not None
    assert cand is not None
    p1, p2 = base_passed / total, cand_passed / total
    margins = base_passed * (total - base_passed) * cand_passed * (total - cand_passed)
    association = both * neither - baseline_only * candidate_only
    if margins == 0 or 0 <= association <= total / 2:
        phi = 0.0
    elif association > total / 2:
        phi = (association - total / 2) / math.sqrt(margins)
    else:
        phi = association / math.sqrt(margins)
    # Newcombe's interval of p1 - p2 (baseline minus candidate), then negated.
    low_drop = math.sqrt(
        max(
            0.0,
            (p1 - base.low) ** 2
            + (cand.high - p2) ** 2
            - 2 * phi * (p1 - base.low) * (cand.high - p2),
        )
    )
    high_drop = math.sqrt(
        max(
            0.0,
            (p2 - cand.low) ** 2
            + (base.high - p1) ** 2
            - 2 * phi * (p2 - cand.low) * (base.high - p1),
        )
    )
    difference = p2 - p1
    return Interval(
        low=min(difference, max(-1.0, difference - high_drop)),
        high=max(difference, min(1.0, difference + low_drop)),
    )
