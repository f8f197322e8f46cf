"""Statistics for release decisions (SPEC 23), in plain Python.

Paired tests (McNemar's exact test, the paired t-test with cases as clusters),
Holm's step-down adjustment, the cluster-robust interval of a mean of unit rates,
and sample-size planning. Only the standard library: a suite needs no scipy.
Each function is checked against scipy/statsmodels over grids of inputs in
``tests/common/test_decisions.py``.

References: Miller, "Adding Error Bars to Evals" (2024); Holm (1979); McNemar
(1947); Connor (1987) for the paired sample size; Cohen (1988) for the arcsine
effect size of two proportions.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from statistics import NormalDist
from typing import TYPE_CHECKING, TypeVar

import attrs

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Sequence

__all__ = [
    "ClusteredInterval",
    "PairedDifference",
    "PairedTest",
    "binomial_cdf",
    "cluster_robust_interval",
    "holm_adjust",
    "mcnemar_exact",
    "mcnemar_exact_power",
    "paired_difference",
    "repetitions_paired",
    "repetitions_unpaired",
    "student_t_cdf",
    "student_t_quantile",
    "unpaired_power",
]

_P = TypeVar("_P", float, Fraction)
_NORMAL = NormalDist()
#: Above this many units, paired planning keeps Connor's approximation.
_EXACT_PLAN_LIMIT = 2000
_EPSILON = 1e-15
_MAX_ITERATIONS = 1000


@attrs.frozen(kw_only=True)
class PairedTest:
    """The outcome of a paired test.

    Attributes:
        test: ``mcnemar-exact`` or ``paired-t``.
        p: The two-sided p-value.
        statistic: The test statistic (discordant pairs favouring the baseline for
            McNemar; t for the t-test).
        pairs: The units compared.
    """

    test: str
    p: float
    statistic: float
    pairs: int


@attrs.frozen(kw_only=True)
class ClusteredInterval:
    """A mean of unit rates with its cluster-robust interval.

    Attributes:
        mean: The mean of the unit rates.
        low: The lower bound, in [0, 1].
        high: The upper bound, in [0, 1].
        standard_error: The cluster-robust standard error (CR1: the sandwich
            with the G / (G - 1) correction, as statsmodels' OLS uses).
        clusters: The clusters (cases) the units fall in.
        confidence: The interval's confidence.
    """

    mean: float
    low: float
    high: float
    standard_error: float
    clusters: int
    confidence: float


@attrs.frozen(kw_only=True)
class PairedDifference:
    """The mean paired difference over units, its interval and its test.

    Attributes:
        mean: The mean of the per-unit differences (candidate minus baseline).
        low: The interval's lower bound, in [-1, 1].
        high: The interval's upper bound, in [-1, 1].
        standard_error: The cluster-robust standard error of the mean (with one
            unit per cluster, the paired t-test's s / sqrt(n)).
        clusters: The clusters (cases) the units fall in.
        test: The test of the difference against zero.
    """

    mean: float
    low: float
    high: float
    standard_error: float
    clusters: int
    test: PairedTest


def binomial_cdf(k: int, n: int, p: float = 0.5) -> float:
    """P(X <= k) for X ~ Binomial(n, p), summed exactly in log space."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p in (0.0, 1.0):
        return 1.0 if p == 0.0 else 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    terms = [
        math.lgamma(n + 1)
        - math.lgamma(i + 1)
        - math.lgamma(n - i + 1)
        + i * log_p
        + (n - i) * log_q
        for i in range(k + 1)
    ]
    top = max(terms)
    return min(1.0, math.exp(top) * math.fsum(math.exp(t - top) for t in terms))


def mcnemar_exact(baseline_only: int, candidate_only: int) -> PairedTest:
    """McNemar's exact test on the discordant pairs of paired binary outcomes.

    Args:
        baseline_only: Units that passed on the baseline side only.
        candidate_only: Units that passed on the candidate side only.

    Returns:
        The two-sided exact p-value: twice the smaller binomial tail of the
        discordant pairs at 1/2, at most 1 (statsmodels' ``mcnemar(exact=True)``).
    """
    if baseline_only < 0 or candidate_only < 0:
        raise ValueError("counts must not be negative")
    discordant = baseline_only + candidate_only
    if discordant == 0:
        p = 1.0
    else:
        p = min(1.0, 2 * binomial_cdf(min(baseline_only, candidate_only), discordant))
    return PairedTest(
        test="mcnemar-exact",
        p=p,
        statistic=float(min(baseline_only, candidate_only)),
        pairs=discordant,
    )


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    result = d
    for m in range(1, _MAX_ITERATIONS + 1):
        m2 = 2 * m
        numerator = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + numerator * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + numerator / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        result *= d * c
        numerator = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + numerator * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + numerator / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        result *= step
        if abs(step - 1.0) < _EPSILON:
            break
    return result


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b)
        - math.lgamma(a)
        - math.lgamma(b)
        + a * math.log(x)
        + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, 1.0 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * _regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


@functools.lru_cache(maxsize=256)
def student_t_quantile(probability: float, df: float) -> float:
    """The ``probability`` quantile of Student's t (bisection on the CDF)."""
    if not 0.0 < probability < 1.0:
        raise ValueError("probability must be in (0, 1)")
    if probability == 0.5:
        return 0.0
    low, high = -1.0, 1.0
    while student_t_cdf(low, df) > probability:
        low *= 2
    while student_t_cdf(high, df) < probability:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if student_t_cdf(middle, df) < probability:
            low = middle
        else:
            high = middle
        if high - low <= 1e-13 * max(1.0, abs(middle)):
            break
    return (low + high) / 2


def paired_difference(
    differences: Sequence[float],
    clusters: Sequence[Hashable],
    *,
    confidence: float = 0.95,
) -> PairedDifference:
    """The paired t-test of per-unit differences, with cases as clusters.

    The standard error is the cluster-robust (CR1) one of the mean difference,
    with Student's t on G - 1 degrees of freedom for G clusters: with one unit
    per cluster this is exactly the paired t-test (scipy's ``ttest_1samp``) and
    its interval; units of one case on several targets are not counted as
    independent. With no spread between clusters there is nothing for t to
    measure: when no unit moved, p = 1; otherwise the test is McNemar's exact
    test on the clusters' directions (how many moved down against up), an
    exact sign test, and the interval is the single point.

    Args:
        differences: One difference of pass rates per unit.
        clusters: The cluster (case) of each unit, in the same order.
        confidence: The interval's confidence.

    Raises:
        ValueError: Fewer than two clusters, or one cluster per difference
            missing.
    """
    if len(differences) != len(clusters):
        raise ValueError("one cluster per difference")
    count = len(differences)
    mean = math.fsum(differences) / count if count else 0.0
    sums: dict[Hashable, float] = {}
    moves: dict[Hashable, float] = {}
    for difference, cluster in zip(differences, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + (difference - mean)
        moves[cluster] = moves.get(cluster, 0.0) + difference
    groups = len(sums)
    if groups < 2:
        raise ValueError("a paired test needs at least two clusters")
    meat = math.fsum(total * total for total in sums.values())
    standard_error = math.sqrt(meat * groups / (groups - 1)) / count
    if standard_error == 0.0 or standard_error < 1e-15 * max(1.0, abs(mean)):
        if all(d == 0.0 for d in differences):
            test = PairedTest(test="paired-t", p=1.0, statistic=0.0, pairs=count)
        else:
            down = sum(1 for move in moves.values() if move < 0)
            up = sum(1 for move in moves.values() if move > 0)
            test = mcnemar_exact(down, up)
        return PairedDifference(
            mean=mean,
            low=mean,
            high=mean,
            standard_error=0.0,
            clusters=groups,
            test=test,
        )
    statistic = mean / standard_error
    p = min(1.0, 2.0 * student_t_cdf(-abs(statistic), groups - 1))
    half = student_t_quantile(0.5 + confidence / 2, groups - 1) * standard_error
    return PairedDifference(
        mean=mean,
        low=min(mean, max(-1.0, mean - half)),
        high=max(mean, min(1.0, mean + half)),
        standard_error=standard_error,
        clusters=groups,
        test=PairedTest(test="paired-t", p=p, statistic=statistic, pairs=count),
    )


def holm_adjust(p_values: Sequence[_P]) -> list[_P]:
    """Holm's step-down adjusted p-values, in the order given.

    The k-th smallest p-value (from 0) is multiplied by ``m - k``; adjusted
    values never decrease along that order and never exceed 1 (statsmodels'
    ``multipletests(method="holm")``). Exact fractions stay exact.
    """
    count = len(p_values)
    order = sorted(range(count), key=lambda index: p_values[index])
    adjusted: list[_P] = list(p_values)
    running: _P | None = None
    for rank, index in enumerate(order):
        value = p_values[index]
        scaled = min(value * 0 + 1, value * (count - rank))
        running = scaled if running is None else max(running, scaled)
        adjusted[index] = running
    return adjusted


def cluster_robust_interval(
    rates: Sequence[float],
    clusters: Sequence[Hashable],
    *,
    confidence: float = 0.95,
) -> ClusteredInterval | None:
    """The mean of unit rates and its cluster-robust interval (cases as clusters).

    The standard error is the sandwich estimate of an intercept-only regression
    with the CR1 correction G / (G - 1); the interval uses Student's t with G - 1
    degrees of freedom and is clipped to [0, 1]. With one cluster there is no
    spread between clusters: the interval is [0, 1], said honestly.

    Args:
        rates: One pass rate per unit.
        clusters: The cluster (case) of each unit, in the same order.
        confidence: The interval's confidence.

    Returns:
        The interval, or ``None`` without units.
    """
    if len(rates) != len(clusters):
        raise ValueError("one cluster per rate")
    if not rates:
        return None
    count = len(rates)
    mean = math.fsum(rates) / count
    sums: dict[Hashable, float] = {}
    for rate, cluster in zip(rates, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + (rate - mean)
    groups = len(sums)
    if groups < 2:
        return ClusteredInterval(
            mean=mean,
            low=0.0,
            high=1.0,
            standard_error=math.inf,
            clusters=groups,
            confidence=confidence,
        )
    meat = math.fsum(total * total for total in sums.values())
    standard_error = math.sqrt(meat * groups / (groups - 1)) / count
    half = student_t_quantile(0.5 + confidence / 2, groups - 1) * standard_error
    return ClusteredInterval(
        mean=mean,
        low=min(mean, max(0.0, mean - half)),
        high=max(mean, min(1.0, mean + half)),
        standard_error=standard_error,
        clusters=groups,
        confidence=confidence,
    )


def _check_plan(baseline: float, drop: float, alpha: float, power: float) -> None:
    if not 0.0 < baseline <= 1.0:
        raise ValueError("the baseline pass rate must be in (0, 1]")
    if not 0.0 < drop <= baseline:
        raise ValueError("the drop must be in (0, baseline]")
    if not 0.0 < alpha < 1.0:
        raise ValueError("alpha must be in (0, 1)")
    if not 1.0 - alpha / 2 < 1.0:
        raise ValueError("alpha is too small to compute with (at least 1e-15)")
    if not 0.0 < power < 1.0:
        raise ValueError("power must be in (0, 1)")


def unpaired_power(
    baseline: float, drop: float, runs: float, *, alpha: float = 0.05
) -> float:
    """The power of the two-sided arcsine test of two proportions at ``runs`` a side.

    Both tails count (statsmodels' ``NormalIndPower().power`` with ratio 1): with
    h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2)) and z the 1 - alpha/2 quantile,
    Φ(h·sqrt(n/2) - z) + Φ(-h·sqrt(n/2) - z).
    """
    _check_plan(baseline, drop, alpha, 0.5)
    effect = abs(
        2 * math.asin(math.sqrt(baseline)) - 2 * math.asin(math.sqrt(baseline - drop))
    )
    critical = _NORMAL.inv_cdf(1 - alpha / 2)
    shift = effect * math.sqrt(runs / 2)
    return _NORMAL.cdf(shift - critical) + _NORMAL.cdf(-shift - critical)


def repetitions_unpaired(
    baseline: float, drop: float, *, alpha: float = 0.05, power: float = 0.8
) -> int:
    """Runs per side to detect a drop between two independent pass rates.

    The two-sided test of two proportions on Cohen's arcsine effect size
    h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2)), solved exactly for the power of both
    tails (`unpaired_power`; statsmodels' ``NormalIndPower().solve_power`` with
    ratio 1), rounded up.
    """
    _check_plan(baseline, drop, alpha, power)
    return _smallest_n(lambda n: unpaired_power(baseline, drop, n, alpha=alpha), power)


def repetitions_paired(
    baseline: float,
    drop: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    discordance: float | None = None,
) -> int:
    """Units (pairs) for McNemar's exact test to detect a drop with ``power``.

    The exact power of the exact test, not an approximation: the smallest number
    of units whose power reaches ``power``, searched from Connor's (1987) normal
    approximation (kept as it is above 2,000 units, where the test's discreteness
    no longer matters) n = (z_{1-α/2} √ψ + z_{power} √(ψ - δ²))² / δ², with ψ the
    expected share of discordant pairs (default 2·p·(1 - p) at the baseline rate
    p, as for two independent runs) and δ the drop.

    Raises:
        ValueError: An input is out of range, or ψ ≤ δ (no design detects that).
    """
    _check_plan(baseline, drop, alpha, power)
    share = 2 * baseline * (1 - baseline) if discordance is None else discordance
    if not drop < share <= 1.0:
        raise ValueError(
            "the discordant share must be above the drop and at most 1 "
            f"(got {share:g} for a drop of {drop:g})"
        )
    critical = _NORMAL.inv_cdf(1 - alpha / 2)
    strength = _NORMAL.inv_cdf(power)
    root = critical * math.sqrt(share) + strength * math.sqrt(share - drop * drop)
    try:
        approximate = max(1, math.ceil(root * root / (drop * drop) - 1e-9))
    except (ZeroDivisionError, OverflowError):  # a drop too small to compute with
        raise ValueError("no number of units reaches that power") from None
    if approximate > _EXACT_PLAN_LIMIT:
        # the test's discreteness no longer matters there; exact search is slow
        return approximate

    def achieved(units: int) -> float:
        return mcnemar_exact_power(units, share, drop, alpha=alpha)

    # The exact power rises with n in a sawtooth: bracket the crossing, bisect it
    # as if smooth, then step back while a smaller n still reaches the power.
    low, high = 1, approximate
    while achieved(high) < power:
        low, high = high, 2 * high
        if high > 64 * approximate + 1024:
            raise ValueError("no number of units reaches that power")
    while low < high:
        middle = (low + high) // 2
        if achieved(middle) >= power:
            high = middle
        else:
            low = middle + 1
    while high > 1 and achieved(high - 1) >= power:
        high -= 1
    return high


def mcnemar_exact_power(
    units: int, discordance: float, drop: float, *, alpha: float = 0.05
) -> float:
    """The exact power of McNemar's exact test to see a drop as a regression.

    Units are discordant with probability ``discordance``; a discordant unit
    favours the baseline with probability (ψ + δ) / (2ψ). The power sums, over
    the number d of discordant units, the chance of d times the chance that the
    candidate's share of them is small enough for p < ``alpha``.
    """
    return _exact_power(units, discordance, drop, _mcnemar_thresholds(units, alpha))


@functools.lru_cache(maxsize=32)
def _mcnemar_thresholds(largest: int, alpha: float) -> tuple[int, ...]:
    """The largest minority count McNemar's exact test rejects, per d.

    For d = 0..``largest`` discordant units, at ``alpha`` (-1 when none).
    """
    found: list[int] = []
    threshold = -1
    for discordant in range(largest + 1):
        while threshold + 1 <= discordant // 2 and (
            2 * _binomial_upto(threshold + 1, discordant, 0.5) < alpha
        ):
            threshold += 1
        while (
            threshold >= 0 and 2 * _binomial_upto(threshold, discordant, 0.5) >= alpha
        ):
            threshold -= 1
        found.append(threshold)
    return tuple(found)


def _exact_power(
    units: int, discordance: float, drop: float, thresholds: Sequence[int]
) -> float:
    favour_candidate = (discordance - drop) / (2 * discordance)
    total = 0.0
    for discordant in range(units + 1):
        threshold = thresholds[discordant]
        if threshold < 0:
            continue
        total += _binomial_pmf(discordant, units, discordance) * _binomial_upto(
            threshold, discordant, favour_candidate
        )
    return min(1.0, total)


def _binomial_pmf(k: int, n: int, p: float) -> float:
    if p <= 0.0 or p >= 1.0:
        return float(k == (0 if p <= 0.0 else n))
    return math.exp(
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def _binomial_upto(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p) through the incomplete beta (O(1) in k)."""
    if k >= n:
        return 1.0
    if p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    return _regularized_beta(n - k, k + 1, 1.0 - p)


def _smallest_n(achieved: Callable[[int], float], power: float) -> int:
    """The smallest whole n whose achieved power reaches ``power``."""
    high = 1
    while achieved(high) < power:
        high *= 2
        if high > 1 << 40:
            raise ValueError("no sample size reaches that power")
    low = max(1, high // 2)
    while low < high:
        middle = (low + high) // 2
        if achieved(middle) >= power:
            high = middle
        else:
            low = middle + 1
    return high
