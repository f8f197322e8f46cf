"""Aggregate pass rates over units: per workflow and per target (SPEC 23, 26).

A unit is one (workflow, case, target) of a suite. With cases, a workflow's runs
are not independent draws: each case has its own difficulty, and the runs of one
case agree more with each other than with other cases'. An aggregate's pass rate
is then the mean of its units' rates and its interval is cluster-robust, with the
(workflow, case) pairs as clusters (Miller, 2024). With a single cluster (a
workflow without cases, on one target or several) the runs are independent
repetitions, and the aggregate keeps the Wilson interval of its pooled runs.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from artemiskit._common._decisions import cluster_robust_interval
from artemiskit._common._statistics import CONFIDENCE, wilson_interval, wilson_score

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "aggregate_pass_rate",
    "aggregate_rate_exact",
]


_Cluster = tuple[str, str | None]
#: A standard error below this is no spread at all (rates tied up to rounding).
_TIED = 1e-12


def _judged(units: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [u for u in units if u["passed"] + u["failed"] > 0]


def _cluster(unit: Mapping[str, Any]) -> _Cluster:
    return (str(unit["workflow"]), unit["case"])


def _interval(low: float, high: float, method: str) -> dict[str, Any]:
    return {
        "low": low,
        "high": high,
        "method": method,
        "confidence": CONFIDENCE,
    }


def aggregate_rate_exact(units: Sequence[Mapping[str, Any]]) -> Fraction | None:
    """An aggregate's pass rate as an exact fraction, for gates.

    The pooled passed / (passed + failed) of its runs when the units fall in one
    cluster (no cases); otherwise the mean of the judged units' rates. ``None``
    when no run was judged.
    """
    judged = _judged(units)
    if not judged:
        return None
    if len({_cluster(u) for u in judged}) == 1:
        passed = sum(int(u["passed"]) for u in judged)
        return Fraction(passed, passed + sum(int(u["failed"]) for u in judged))
    # Units with the same counts have the same rate: each distinct rate is
    # added once, times its units (exact either way; thousands of cases
    # usually have a handful of distinct counts).
    counts = Counter((int(u["passed"]), int(u["failed"])) for u in judged)
    total = sum(
        (
            Fraction(passed, passed + failed) * units
            for (passed, failed), units in counts.items()
        ),
        Fraction(0),
    )
    return total / len(judged)


def aggregate_pass_rate(units: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``pass_rate`` and ``pass_rate_interval`` of a workflow's or a target's units.

    Call it with the suite.json v2 units (``workflow``, ``case``, ``passed``,
    ``failed``; other keys are ignored) of one workflow for its ``workflows[]``
    entry, or of one target for its ``targets[]`` entry.

    - No judged run: both ``None``.
    - One cluster (every unit has the same workflow and case: a workflow without
      cases, on any number of targets): the pooled pass rate of its runs and
      their Wilson interval, ``method: "wilson"``.
    - Several clusters: the mean of the judged units' rates and its
      cluster-robust interval (CR1 sandwich, Student's t with G - 1 degrees of
      freedom; `cluster_robust_interval`) with (workflow, case) as clusters,
      ``method: "cluster-robust"``. When every unit ties (every case passing,
      say) there is no spread between cases to measure and the standard error
      is zero: the interval is then the Wilson interval of the mean with one
      trial per case, which still says how few cases there were.

    Returns:
        ``{"pass_rate": float | None, "pass_rate_interval": dict | None}``.
    """
    judged = _judged(units)
    exact = aggregate_rate_exact(units)
    if exact is None:
        return {"pass_rate": None, "pass_rate_interval": None}
    clusters = [_cluster(u) for u in judged]
    groups = len(set(clusters))
    if groups == 1:
        passed = sum(int(u["passed"]) for u in judged)
        wilson = wilson_interval(passed, passed + sum(int(u["failed"]) for u in judged))
        assert wilson is not None
        return {
            "pass_rate": float(exact),
            "pass_rate_interval": _interval(wilson.low, wilson.high, "wilson"),
        }
    mean = float(exact)
    rates = [int(u["passed"]) / (int(u["passed"]) + int(u["failed"])) for u in judged]
    robust = cluster_robust_interval(rates, clusters, confidence=CONFIDENCE)
    assert robust is not None
    low, high = robust.low, robust.high
    if robust.standard_error < _TIED:
        # Every unit tied: no spread between cases to measure. Say at least how
        # few cases there were: Wilson's interval with one trial per case.
        floor = wilson_score(mean, groups)
        low, high = min(low, floor.low), max(high, floor.high)
    return {
        "pass_rate": mean,
        "pass_rate_interval": _interval(
            min(mean, max(0.0, low)), max(mean, min(1.0, high)), "cluster-robust"
        ),
    }
