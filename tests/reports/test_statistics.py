"""Newcombe's interval and Fisher's exact test against independent computations.

SciPy (a test dependency only) gives Fisher's p-value and the Wilson intervals
Newcombe's method combines; the published values of Newcombe (1998) pin the
method itself.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from artemiskit.reports import fisher_exact_p, newcombe_interval


@st.composite
def two_samples(draw: st.DrawFn) -> tuple[int, int, int, int]:
    n = draw(st.integers(1, 60))
    m = draw(st.integers(1, 60))
    return draw(st.integers(0, n)), n, draw(st.integers(0, m)), m


@settings(max_examples=300, deadline=None)
@given(two_samples())
def test_fisher_matches_scipy(sample: tuple[int, int, int, int]) -> None:
    a, n, b, m = sample
    expected = stats.fisher_exact([[a, n - a], [b, m - b]]).pvalue
    assert fisher_exact_p(a, n, b, m) == pytest.approx(expected, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize(
    ("sample", "expected"),
    [
        ((10, 10, 0, 10), 1.0825088224469026e-05),
        ((3, 5, 3, 5), 1.0),
        ((5, 5, 3, 5), 0.4444444444444444),
        ((0, 1, 1, 1), 1.0),
    ],
)
def test_fisher_known_values(
    sample: tuple[int, int, int, int], expected: float
) -> None:
    assert fisher_exact_p(*sample) == pytest.approx(expected, rel=1e-12)


def _wilson(passed: int, judged: int) -> tuple[float, float]:
    found = stats.binomtest(passed, judged).proportion_ci(0.95, method="wilson")
    return found.low, found.high


@settings(max_examples=300, deadline=None)
@given(two_samples())
def test_newcombe_matches_wilson_intervals_from_scipy(
    sample: tuple[int, int, int, int],
) -> None:
    a, n, b, m = sample
    base_low, base_high = _wilson(a, n)
    cand_low, cand_high = _wilson(b, m)
    p1, p2 = a / n, b / m
    low = p2 - p1 - math.sqrt((p2 - cand_low) ** 2 + (base_high - p1) ** 2)
    high = p2 - p1 + math.sqrt((cand_high - p2) ** 2 + (p1 - base_low) ** 2)
    found = newcombe_interval(a, n, b, m)
    assert found is not None
    assert found.low == pytest.approx(low, abs=1e-9)
    assert found.high == pytest.approx(high, abs=1e-9)
    assert -1.0 <= found.low <= p2 - p1 <= found.high <= 1.0


@pytest.mark.parametrize(
    ("sample", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:873-890, table II, method 10:
        # 56/70 - 48/80 is 0.0524 to 0.3339; 9/10 - 3/10 is 0.1705 to 0.8090;
        # 0/10 - 0/20 is -0.1611 to 0.2775 (given here as candidate - baseline).
        ((48, 80, 56, 70), 0.0524, 0.3339),
        ((3, 10, 9, 10), 0.1705, 0.8090),
        ((0, 20, 0, 10), -0.1611, 0.2775),
    ],
)
def test_newcombe_published_values(
    sample: tuple[int, int, int, int], low: float, high: float
) -> None:
    found = newcombe_interval(*sample)
    assert found is not None
    assert (round(found.low, 4), round(found.high, 4)) == (low, high)


def test_nothing_judged_has_no_interval_or_p_value() -> None:
    assert newcombe_interval(0, 0, 3, 5) is None
    assert fisher_exact_p(3, 5, 0, 0) is None


@pytest.mark.parametrize("sample", [(6, 5, 1, 2), (-1, 5, 1, 2), (1, 5, 3, 2)])
def test_counts_outside_the_sample_are_refused(
    sample: tuple[int, int, int, int],
) -> None:
    with pytest.raises(ValueError, match="between 0 and judged"):
        fisher_exact_p(*sample)
    with pytest.raises(ValueError, match="between 0 and judged"):
        newcombe_interval(*sample)
