"""Comparison statistics: Newcombe's interval and Fisher's exact test (SPEC 14).

Both compare two binomial samples, a baseline (``a`` passes of ``n`` judged runs)
and a candidate (``b`` of ``m``). Fisher's p-value is computed from exact integer
hypergeometric weights, so only its final division rounds; `fisher_exact_share`
keeps even that exact, for comparing with the significance level.
"""

from __future__ import annotations

import math
from fractions import Fraction

from artemiskit.suites import Interval, wilson_interval

__all__ = [
    "fisher_exact_p",
    "fisher_exact_share",
    "fisher_smallest_share",
    "newcombe_interval",
]

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
