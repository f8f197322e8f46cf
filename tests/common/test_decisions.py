"""Decision statistics against scipy and statsmodels, over grids and at the edges."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_effectsize

from artemiskit._common._decisions import (
    binomial_cdf,
    cluster_robust_interval,
    holm_adjust,
    mcnemar_exact,
    mcnemar_exact_power,
    paired_difference,
    repetitions_paired,
    repetitions_unpaired,
    student_t_cdf,
    student_t_quantile,
    unpaired_power,
)

TOLERANCE = 1e-9


def close(ours: float, theirs: float) -> bool:
    return math.isclose(ours, theirs, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 30, 200])
def test_binomial_cdf_agrees_with_scipy(n: int) -> None:
    for k in range(-1, n + 2):
        for p in (0.5, 0.1, 0.93):
            assert close(binomial_cdf(k, n, p), float(stats.binom.cdf(k, n, p)))


def test_mcnemar_exact_agrees_with_statsmodels_on_a_grid() -> None:
    for b, c in itertools.product(range(26), repeat=2):
        table = [[7, b], [c, 3]]
        expected = float(mcnemar(table, exact=True).pvalue)
        assert close(mcnemar_exact(b, c).p, expected), (b, c)


def test_mcnemar_edges() -> None:
    assert mcnemar_exact(0, 0).p == 1.0  # all units tied: nothing to test
    assert mcnemar_exact(3, 3).p == 1.0
    assert mcnemar_exact(0, 12).p < 0.001
    with pytest.raises(ValueError, match="negative"):
        mcnemar_exact(-1, 2)


@pytest.mark.parametrize("df", [1, 2, 3, 5, 9, 30, 250, 10_000])
def test_student_t_cdf_and_quantile_agree_with_scipy(df: int) -> None:
    for t in (-40.0, -5.5, -2.0, -0.3, 0.0, 0.7, 1.96, 3.1, 12.0):
        assert close(student_t_cdf(t, df), float(stats.t.cdf(t, df)))
    for q in (0.001, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999):
        assert close(student_t_quantile(q, df), float(stats.t.ppf(q, df)))


def _singletons(differences: list[float]) -> list[int]:
    return list(range(len(differences)))


def test_paired_t_agrees_with_scipy_on_random_grids() -> None:
    rng = random.Random(7)
    for size in (2, 3, 5, 10, 40, 200):
        for _ in range(20):
            differences = [
                rng.choice([-1.0, -0.5, 0.0, 0.25, 1.0]) + rng.random() / 10
                for _ in range(size)
            ]
            expected = stats.ttest_1samp(differences, 0.0)
            ours = paired_difference(differences, _singletons(differences))
            assert ours.test.test == "paired-t"
            assert close(ours.test.p, float(expected.pvalue))
            assert close(ours.test.statistic, float(expected.statistic))
            low, high = expected.confidence_interval(0.95)
            assert close(ours.low, min(ours.mean, max(-1.0, float(low))))
            assert close(ours.high, max(ours.mean, min(1.0, float(high))))


def test_paired_t_on_unit_rates_agrees_with_scipy_ttest_rel() -> None:
    rng = random.Random(17)
    for units in (2, 4, 12, 60):
        for runs in (2, 3, 10):
            base = [rng.randint(0, runs) / runs for _ in range(units)]
            cand = [rng.randint(0, runs) / runs for _ in range(units)]
            if all(b == c for b, c in zip(base, cand, strict=True)):
                continue
            differences = [c - b for b, c in zip(base, cand, strict=True)]
            if len(set(differences)) == 1:
                continue
            expected = stats.ttest_rel(cand, base)
            ours = paired_difference(differences, _singletons(differences))
            assert close(ours.test.p, float(expected.pvalue))


def test_paired_t_with_cases_as_clusters_agrees_with_statsmodels() -> None:
    import numpy as np
    import statsmodels.api as sm

    rng = random.Random(23)
    for cases in (2, 3, 7, 30):
        for targets in (2, 3):
            differences = [
                rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0]) for _ in range(cases * targets)
            ]
            clusters = [i // targets for i in range(cases * targets)]
            fitted = sm.OLS(np.array(differences), np.ones((len(differences), 1))).fit(
                cov_type="cluster",
                cov_kwds={"groups": np.array(clusters)},
                use_t=True,
            )
            ours = paired_difference(differences, clusters)
            if ours.standard_error == 0.0:
                continue
            assert close(ours.standard_error, float(fitted.bse[0]))
            assert close(ours.test.p, float(fitted.pvalues[0]))
            low, high = fitted.conf_int(alpha=0.05)[0]
            assert close(ours.low, min(ours.mean, max(-1.0, float(low))))
            assert close(ours.high, max(ours.mean, min(1.0, float(high))))


def test_paired_t_edges() -> None:
    # identical sides: nothing moved
    same = paired_difference([0.0, 0.0, 0.0], [0, 1, 2])
    assert (same.test.test, same.test.p, same.low, same.high) == (
        "paired-t",
        1.0,
        0.0,
        0.0,
    )
    # every unit moved alike: no spread for t (scipy gives NaN); the exact sign
    # test on the units' directions, McNemar's, decides instead
    alike = paired_difference([-0.5, -0.5, -0.5], [0, 1, 2])
    assert alike.test.test == "mcnemar-exact"
    assert close(alike.test.p, float(mcnemar([[0, 3], [0, 0]], exact=True).pvalue))
    assert alike.mean == -0.5
    with pytest.raises(ValueError, match="two clusters"):
        paired_difference([1.0], [0])
    with pytest.raises(ValueError, match="two clusters"):
        paired_difference([1.0, 0.0], ["a", "a"])
    with pytest.raises(ValueError, match="one cluster per difference"):
        paired_difference([1.0, 0.0], ["a"])


def test_holm_agrees_with_statsmodels() -> None:
    rng = random.Random(3)
    for size in (1, 2, 5, 20, 100):
        for _ in range(4):
            p_values = [rng.random() ** 3 for _ in range(size)]
            expected = multipletests(p_values, method="holm")[1]
            assert all(
                close(a, float(b))
                for a, b in zip(holm_adjust(p_values), expected, strict=True)
            )
    assert holm_adjust([]) == []
    assert holm_adjust([0.01, 0.01, 0.04]) == [0.03, 0.03, 0.04]


def _statsmodels_cluster(
    rates: list[float], clusters: list[str]
) -> tuple[float, float, float]:
    import numpy as np
    import statsmodels.api as sm

    groups = {name: index for index, name in enumerate(dict.fromkeys(clusters))}
    model = sm.OLS(np.array(rates), np.ones((len(rates), 1)))
    fitted = model.fit(
        cov_type="cluster",
        cov_kwds={"groups": np.array([groups[c] for c in clusters])},
        use_t=True,
    )
    low, high = fitted.conf_int(alpha=0.05)[0]
    return float(fitted.bse[0]), float(low), float(high)


def test_cluster_robust_interval_agrees_with_statsmodels() -> None:
    rng = random.Random(11)
    for cases in (2, 3, 8, 25):
        for targets in (1, 2, 3):
            rates = [
                rng.choice([0.0, 0.2, 0.5, 0.8, 1.0]) for _ in range(cases * targets)
            ]
            clusters = [f"case-{i // targets}" for i in range(cases * targets)]
            ours = cluster_robust_interval(rates, clusters)
            assert ours is not None
            se, low, high = _statsmodels_cluster(rates, clusters)
            assert close(ours.standard_error, se)
            assert close(ours.low, max(0.0, min(ours.mean, low)))
            assert close(ours.high, min(1.0, max(ours.mean, high)))


def test_cluster_robust_edges() -> None:
    assert cluster_robust_interval([], []) is None
    single = cluster_robust_interval([0.5, 0.7], ["a", "a"])
    assert single is not None
    assert (single.low, single.high, single.clusters) == (0.0, 1.0, 1)
    same = cluster_robust_interval([1.0, 1.0, 1.0], ["a", "b", "c"])
    assert same is not None
    assert (same.low, same.mean, same.high) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="one cluster per rate"):
        cluster_robust_interval([1.0], [])


def test_unpaired_repetitions_agree_with_statsmodels() -> None:
    for baseline in (0.5, 0.7, 0.9, 0.95, 1.0):
        for drop in (0.05, 0.1, 0.2, 0.3):
            if drop > baseline:
                continue
            for alpha, power in ((0.05, 0.8), (0.01, 0.9), (0.1, 0.5)):
                effect = proportion_effectsize(baseline, baseline - drop)
                expected = NormalIndPower().solve_power(
                    effect_size=effect,
                    alpha=alpha,
                    power=power,
                    ratio=1.0,
                    alternative="two-sided",
                )
                assert repetitions_unpaired(
                    baseline, drop, alpha=alpha, power=power
                ) == math.ceil(expected - 1e-9), (baseline, drop, alpha, power)


def test_unpaired_power_agrees_with_statsmodels() -> None:
    for baseline, drop in ((0.8, 0.1), (0.5, 0.2), (0.95, 0.05), (1.0, 0.3)):
        for runs in (1, 10, 292, 5000):
            for alpha in (0.01, 0.05):
                effect = proportion_effectsize(baseline, baseline - drop)
                expected = NormalIndPower().power(
                    effect_size=effect,
                    nobs1=runs,
                    alpha=alpha,
                    ratio=1.0,
                    alternative="two-sided",
                )
                assert close(
                    unpaired_power(baseline, drop, runs, alpha=alpha), float(expected)
                )


def _mcnemar_power(pairs: int, share: float, drop: float, alpha: float) -> float:
    """The power of McNemar's exact test to see a regression, by enumeration."""
    favour = (share + drop) / (2 * share)  # a discordant pair favours the baseline
    total = 0.0
    for discordant in range(pairs + 1):
        weight = float(stats.binom.pmf(discordant, pairs, share))
        rejected = sum(
            float(stats.binom.pmf(split, discordant, favour))
            for split in range(discordant + 1)
            if split > discordant - split  # the candidate is the lower side
            and mcnemar_exact(split, discordant - split).p < alpha
        )
        total += weight * rejected
    return total


def test_paired_repetitions_reach_their_power_exactly_enumerated() -> None:
    # scipy and statsmodels have no power for McNemar's exact test: the planned
    # units are checked against an independent enumeration with scipy's binomial.
    for baseline, drop, share in (
        (0.8, 0.2, 0.32),
        (0.7, 0.25, 0.42),
        (0.9, 0.15, 0.2),
        (0.8, 0.1, 0.15),
    ):
        n = repetitions_paired(baseline, drop, discordance=share)
        enumerated = _mcnemar_power(n, share, drop, 0.05)
        assert close(mcnemar_exact_power(n, share, drop), enumerated)
        assert enumerated >= 0.8
        assert _mcnemar_power(n - 1, share, drop, 0.05) < 0.8, (baseline, drop, n)


def test_paired_needs_fewer_units_than_unpaired_needs_runs() -> None:
    paired = repetitions_paired(0.8, 0.15, discordance=0.2)
    assert paired < repetitions_unpaired(0.8, 0.15)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: repetitions_unpaired(0.0, 0.1), "baseline"),
        (lambda: repetitions_unpaired(0.5, 0.6), "drop"),
        (lambda: repetitions_unpaired(0.5, 0.1, alpha=0), "alpha"),
        (lambda: repetitions_unpaired(0.5, 0.1, power=1), "power"),
        (lambda: repetitions_paired(0.9, 0.2, discordance=0.1), "discordant share"),
    ],
)
def test_planning_refuses_inputs_out_of_range(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(ValueError, match=message):
        call()
