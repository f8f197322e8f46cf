"""Suite statistics against values computed independently (scipy and a worked table)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from scipy.stats import binomtest

from artemiskit._common import _statistics
from artemiskit._common._statistics import exact_rate, exact_threshold
from artemiskit.suites import pass_at_k, pass_hat_k, percentile, wilson_interval
from artemiskit.suites._record import suite_exit_code

CASES = [(0, 1), (1, 1), (0, 5), (5, 5), (3, 5), (1, 10), (7, 20), (50, 100)]


@pytest.mark.parametrize(("passed", "judged"), CASES)
def test_wilson_interval_matches_scipy(passed: int, judged: int) -> None:
    expected = binomtest(passed, judged).proportion_ci(0.95, method="wilson")
    interval = wilson_interval(passed, judged)
    assert interval is not None
    assert interval.low == pytest.approx(expected.low, abs=1e-12)
    assert interval.high == pytest.approx(expected.high, abs=1e-12)


def test_wilson_interval_worked_value() -> None:
    # 3 of 5: p = 0.6, z = 1.959964; centre 0.556707, half-width 0.325836.
    interval = wilson_interval(3, 5)
    assert interval is not None
    assert interval.low == pytest.approx(0.230724, abs=1e-6)
    assert interval.high == pytest.approx(0.882379, abs=1e-6)


def test_wilson_interval_of_nothing_judged_is_none() -> None:
    assert wilson_interval(0, 0) is None


def test_wilson_interval_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="between 0 and judged"):
        wilson_interval(3, 2)


def _brute_force(passed: int, judged: int, k: int) -> tuple[float, float]:
    """pass@k and pass^k by enumerating every k-subset of the n runs."""
    runs = [True] * passed + [False] * (judged - passed)
    subsets = list(combinations(runs, k))
    any_pass = sum(1 for s in subsets if any(s)) / len(subsets)
    all_pass = sum(1 for s in subsets if all(s)) / len(subsets)
    return any_pass, all_pass


@pytest.mark.parametrize(("passed", "judged"), CASES[:7])
def test_pass_at_k_and_pass_hat_k_match_enumeration(passed: int, judged: int) -> None:
    at = pass_at_k(passed, judged)
    hat = pass_hat_k(passed, judged)
    assert list(at) == [str(k) for k in range(1, judged + 1)]
    assert list(hat) == list(at)
    for k in range(1, judged + 1):
        any_pass, all_pass = _brute_force(passed, judged, k)
        assert at[str(k)] == pytest.approx(any_pass, abs=1e-15)
        assert hat[str(k)] == pytest.approx(all_pass, abs=1e-15)


def test_pass_at_k_worked_table() -> None:
    # n = 5, c = 3: pass@1 = 3/5, pass@2 = 1 - C(2,2)/C(5,2) = 9/10, pass@3 = 1;
    # pass^1 = 3/5, pass^2 = C(3,2)/C(5,2) = 3/10, pass^3 = 1/10, pass^4 = 0.
    assert pass_at_k(3, 5) == {"1": 0.6, "2": 0.9, "3": 1.0, "4": 1.0, "5": 1.0}
    assert pass_hat_k(3, 5) == {"1": 0.6, "2": 0.3, "3": 0.1, "4": 0.0, "5": 0.0}


def _exact_pass_values(passed: int, judged: int) -> tuple[list[str], list[str]]:
    """pass@k and pass^k as one integer true division each (correctly rounded)."""
    at, hat = [], []
    for k in range(1, judged + 1):
        total, misses = math.comb(judged, k), math.comb(judged - passed, k)
        at.append(repr((total - misses) / total))
        hat.append(repr(math.comb(passed, k) / total))
    return at, hat


_GRID = [(c, n) for n in range(41) for c in range(n + 1)]
_LARGE = [(1, 2500), (617, 2500), (1250, 2500), (2400, 2500), (2499, 2500)]


@pytest.mark.parametrize(("passed", "judged"), [*_GRID, *_LARGE])
def test_pass_values_are_the_exact_ratios_correctly_rounded(
    passed: int, judged: int
) -> None:
    # suite.json's bytes depend on every digit: the fast bounds must give the
    # very float of the exact big-integer division, including the subnormal
    # and underflowing tail of pass^k and the 1.0 tail of pass@k.
    at, hat = _exact_pass_values(passed, judged)
    assert [repr(v) for v in pass_at_k(passed, judged).values()] == at
    assert [repr(v) for v in pass_hat_k(passed, judged).values()] == hat


@pytest.mark.parametrize(("passed", "judged"), [(3, 7), (20, 40), (617, 2500)])
def test_pass_values_fall_back_to_exact_division_when_bounds_straddle(
    monkeypatch: pytest.MonkeyPatch, passed: int, judged: int
) -> None:
    # At 8 bits of working precision the bounds are too wide to decide almost
    # any value, so nearly every one goes through the exact fallback.
    monkeypatch.setattr(_statistics, "_PRECISION", 8)
    at, hat = _exact_pass_values(passed, judged)
    assert [repr(v) for v in pass_at_k(passed, judged).values()] == at
    assert [repr(v) for v in pass_hat_k(passed, judged).values()] == hat


def test_edge_cases() -> None:
    assert pass_at_k(0, 4) == {str(k): 0.0 for k in range(1, 5)}
    assert pass_hat_k(4, 4) == {str(k): 1.0 for k in range(1, 5)}
    assert pass_at_k(1, 1) == {"1": 1.0}
    assert pass_hat_k(0, 1) == {"1": 0.0}
    # All unavailable: nothing judged, so no estimate at all.
    assert pass_at_k(0, 0) == {}
    assert pass_hat_k(0, 0) == {}


def test_exact_for_large_n() -> None:
    # The nearest float to the exact ratio, for every k, even where C(n, k)
    # is far beyond the float range.
    at = pass_at_k(400, 1000)
    hat = pass_hat_k(400, 1000)
    for k in (1, 10, 300, 600, 1000):
        total = math.comb(1000, k)
        assert at[str(k)] == float(Fraction(total - math.comb(600, k), total))
        assert hat[str(k)] == float(Fraction(math.comb(400, k), total))


@pytest.mark.parametrize(
    "values",
    [[0.5], [0.1, 0.9], [0.3, 0.1, 0.2, 0.4], [0.2, 0.2, 0.9, 0.4, 0.5, 0.05, 1.0]],
)
@pytest.mark.parametrize("q", [50, 95, 100])
def test_percentile_matches_numpy_linear(values: list[float], q: int) -> None:
    assert percentile(values, q) == pytest.approx(
        float(np.percentile(values, q, method="linear")), abs=1e-12
    )


def test_percentile_of_nothing_is_none() -> None:
    assert percentile([], 50) is None


def test_wilson_interval_holds_its_estimate_inside_zero_one() -> None:
    # The closed form misses p by one ulp at 10/10, 13/13, 0/3, ...: a chart's
    # error bar would then be negative. Every count up to 60 is checked exactly.
    for judged in range(1, 61):
        for passed in range(judged + 1):
            interval = wilson_interval(passed, judged)
            assert interval is not None
            estimate = passed / judged
            assert 0.0 <= interval.low <= estimate <= interval.high <= 1.0, (
                passed,
                judged,
            )
            assert (interval.low == 0.0) == (passed == 0)
            assert (interval.high == 1.0) == (passed == judged)


def test_thresholds_are_the_decimals_they_name() -> None:
    assert exact_threshold(0.2) == Fraction(1, 5)
    assert exact_threshold(0.7) == Fraction(7, 10)
    assert exact_rate(0, 0) is None
    assert exact_rate(4, 5) - exact_rate(3, 5) == exact_threshold(0.2)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("rate", "threshold", "code"),
    [
        (Fraction(7, 10), 0.7, 0),
        (Fraction(2, 3), 0.6666666666666666, 0),
        (Fraction(69, 100), 0.7, 8),
        (None, 0.0, 8),
    ],
)
def test_min_pass_rate_is_met_exactly(
    rate: Fraction | None, threshold: float, code: int
) -> None:
    assert suite_exit_code("completed", [], [rate], threshold) == code


def test_wilson_score_at_any_rate_matches_statsmodels() -> None:
    from statsmodels.stats.proportion import proportion_confint

    from artemiskit._common._statistics import wilson_score

    for trials in (1, 2, 3, 10, 37, 500):
        for rate in (0.0, 0.01, 0.25, 1 / 3, 0.5, 0.9, 1.0):
            low, high = proportion_confint(rate * trials, trials, method="wilson")
            found = wilson_score(rate, trials)
            assert math.isclose(found.low, max(0.0, low), abs_tol=1e-12)
            assert math.isclose(found.high, min(1.0, high), abs_tol=1e-12)
    with pytest.raises(ValueError, match="rate"):
        wilson_score(1.5, 3)
