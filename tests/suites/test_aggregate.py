"""Workflow and target aggregates over units: clustered with cases (SPEC 23, 26)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import statsmodels.api as sm

from artemiskit._errors import WorkflowError
from artemiskit.suites import (
    suite_record_from_dict,
    validate_suite_record,
    wilson_interval,
)
from artemiskit.suites._aggregate import aggregate_pass_rate, aggregate_rate_exact
from artemiskit.suites._record import gated_rate, suite_exit_code
from tests.reports._synthetic import synthetic_suite


def _unit(case: str | None, passed: int, failed: int, **more: Any) -> dict[str, Any]:
    return {
        "workflow": more.get("workflow", "w"),
        "case": case,
        "target": more.get("target", "t"),
        "passed": passed,
        "failed": failed,
    }


def test_one_unit_keeps_its_wilson_interval() -> None:
    found = aggregate_pass_rate([_unit(None, 7, 3)])
    wilson = wilson_interval(7, 10)
    assert wilson is not None
    assert found == {
        "pass_rate": 0.7,
        "pass_rate_interval": {
            "low": wilson.low,
            "high": wilson.high,
            "method": "wilson",
            "confidence": 0.95,
        },
    }


def test_a_workflow_without_cases_on_several_targets_pools_its_runs() -> None:
    found = aggregate_pass_rate(
        [_unit(None, 9, 1, target="a"), _unit(None, 1, 1, target="b")]
    )
    wilson = wilson_interval(10, 12)
    assert wilson is not None
    assert found["pass_rate"] == 10 / 12
    assert found["pass_rate_interval"]["method"] == "wilson"
    assert found["pass_rate_interval"]["low"] == wilson.low


def test_one_case_is_one_cluster_and_keeps_wilson() -> None:
    found = aggregate_pass_rate([_unit("only", 3, 1)])
    assert found["pass_rate_interval"]["method"] == "wilson"


def test_nothing_judged_gives_no_rate() -> None:
    assert aggregate_pass_rate([]) == {"pass_rate": None, "pass_rate_interval": None}
    assert aggregate_pass_rate([_unit("a", 0, 0), _unit("b", 0, 0)]) == {
        "pass_rate": None,
        "pass_rate_interval": None,
    }
    assert aggregate_rate_exact([_unit("a", 0, 0)]) is None


def _statsmodels(rates: list[float], clusters: list[str]) -> tuple[float, float]:
    groups = {name: index for index, name in enumerate(dict.fromkeys(clusters))}
    fitted = sm.OLS(np.array(rates), np.ones((len(rates), 1))).fit(
        cov_type="cluster",
        cov_kwds={"groups": np.array([groups[c] for c in clusters])},
        use_t=True,
    )
    low, high = fitted.conf_int(alpha=0.05)[0]
    return float(low), float(high)


def test_cases_are_clusters_and_the_interval_is_statsmodels_cluster_robust() -> None:
    # two targets per case: units of one case are one cluster
    counts = [(3, 1), (4, 0), (1, 3), (2, 2), (0, 4), (4, 0), (3, 1), (2, 2)]
    units = [
        _unit(f"case-{i // 2}", p, f, target="ab"[i % 2])
        for i, (p, f) in enumerate(counts)
    ]
    found = aggregate_pass_rate(units)
    rates = [p / (p + f) for p, f in counts]
    low, high = _statsmodels(rates, [u["case"] for u in units])
    interval = found["pass_rate_interval"]
    assert interval["method"] == "cluster-robust"
    assert math.isclose(found["pass_rate"], sum(rates) / len(rates), rel_tol=1e-12)
    assert math.isclose(interval["low"], max(0.0, low), abs_tol=1e-9)
    assert math.isclose(interval["high"], min(1.0, high), abs_tol=1e-9)


def test_the_rate_is_the_mean_of_unit_rates_not_of_runs() -> None:
    # 10/10 on one case, 0/2 on another: runs say 10/12, cases say 1/2
    units = [_unit("a", 10, 0), _unit("b", 0, 2)]
    assert aggregate_rate_exact(units) == Fraction(1, 2)
    assert aggregate_pass_rate(units)["pass_rate"] == 0.5


@pytest.mark.parametrize(("passed", "failed"), [(1, 0), (0, 1), (2, 2), (1, 2)])
def test_units_all_tied_still_say_how_few_cases_there_were(
    passed: int, failed: int
) -> None:
    units = [_unit(f"c{i}", passed, failed) for i in range(10)]
    found = aggregate_pass_rate(units)
    rate = passed / (passed + failed)
    interval = found["pass_rate_interval"]
    assert found["pass_rate"] == pytest.approx(rate, abs=1e-15)
    # no spread between cases: the interval is Wilson's with one trial per case
    assert interval["low"] < rate or rate == 0.0
    assert interval["high"] > rate or rate == 1.0
    wilson = wilson_interval(int(rate * 10), 10) if rate in (0.0, 1.0) else None
    if wilson is not None:
        assert (interval["low"], interval["high"]) == pytest.approx(
            (wilson.low, wilson.high), abs=1e-12
        )


def test_all_pass_and_all_fail_stay_in_range() -> None:
    every = aggregate_pass_rate([_unit(f"c{i}", 3, 0) for i in range(5)])
    assert every["pass_rate_interval"]["high"] == 1.0
    assert every["pass_rate"] == 1.0
    none = aggregate_pass_rate([_unit(f"c{i}", 0, 3) for i in range(5)])
    assert none["pass_rate_interval"]["low"] == 0.0
    assert none["pass_rate"] == 0.0


def test_a_suite_with_cases_carries_the_clustered_interval() -> None:
    suite = synthetic_suite(
        [
            ("refunds", "a", "t", "PP"),
            ("refunds", "b", "t", "PF"),
            ("refunds", "c", "t", "FF"),
            ("refunds", "d", "t", "PP"),
            ("plain", None, "t", "PPF"),
        ]
    )
    entries = {w["name"]: w for w in suite["workflows"]}
    assert entries["refunds"]["pass_rate"] == 0.625
    assert entries["refunds"]["pass_rate_interval"]["method"] == "cluster-robust"
    assert entries["plain"]["pass_rate_interval"]["method"] == "wilson"


def test_a_hand_edited_clustered_rate_is_refused() -> None:
    suite = synthetic_suite([("w", "a", "t", "PPP"), ("w", "b", "t", "F")])
    assert suite["workflows"][0]["pass_rate"] == 1 / 2
    suite["workflows"][0]["pass_rate"] = 3 / 4  # the pooled rate, not the mean
    with pytest.raises(WorkflowError, match="mean of its units' pass rates"):
        validate_suite_record(suite)


def test_units_that_do_not_sum_to_their_workflow_are_refused() -> None:
    suite = synthetic_suite([("w", "a", "t", "PP"), ("w", "b", "t", "PF")])
    suite["units"][0]["passed"] = 1
    suite["units"][0]["failed"] = 1
    suite["units"][0]["pass_rate"] = 0.5  # the unit agrees with itself
    with pytest.raises(WorkflowError, match="is not the sum of its units'"):
        validate_suite_record(suite)


def test_a_lower_bound_gate_with_cases_uses_the_clustered_interval() -> None:
    suite = synthetic_suite(
        [("w", f"c{i}", "t", "P" if i else "F") for i in range(10)]  # 9 of 10 cases
    )
    record = suite_record_from_dict(suite)
    (entry,) = record.workflows
    interval = suite["workflows"][0]["pass_rate_interval"]
    assert interval["method"] == "cluster-robust"
    units = record.units
    assert gated_rate(entry, "lower-bound", units) == Fraction(interval["low"])
    assert gated_rate(entry, "point", units) == Fraction(9, 10)
    # the clustered lower bound is below 0.8, the point rate above it
    assert Fraction(interval["low"]) < Fraction(8, 10)
    rates = [gated_rate(entry, "lower-bound", units)]
    assert suite_exit_code("completed", [], rates, 0.8) == 8
    assert suite_exit_code("completed", [], [Fraction(9, 10)], 0.8) == 0


def test_the_point_gate_with_cases_is_the_exact_mean_of_unit_rates() -> None:
    record = suite_record_from_dict(
        synthetic_suite(
            [("w", "a", "t", "PPF"), ("w", "b", "t", "P"), ("w", "c", "t", "F")]
        )
    )
    (entry,) = record.workflows
    units = record.units
    assert (
        gated_rate(entry, "point", units)
        == (Fraction(2, 3) + Fraction(1) + Fraction(0)) / 3
    )
    assert gated_rate(entry, "point") == Fraction(3, 5)


def test_a_wide_clustered_interval_is_cut_at_zero_and_one() -> None:
    # Two cases passing 1/1 and 1/2: a Student's t with one degree of freedom
    # reaches far past both ends.
    result = aggregate_pass_rate([_unit("a", 1, 0), _unit("b", 1, 1)])
    interval = result["pass_rate_interval"]
    assert result["pass_rate"] == 0.75
    assert (interval["low"], interval["high"], interval["method"]) == (
        0.0,
        1.0,
        "cluster-robust",
    )


def test_workflows_sharing_a_case_id_are_different_clusters() -> None:
    # A target's aggregate over two workflows without cases: two clusters,
    # although both units have the case None.
    units = [_unit(None, 1, 1, workflow="a"), _unit(None, 2, 0, workflow="b")]
    result = aggregate_pass_rate(units)
    assert result["pass_rate"] == 0.75
    assert result["pass_rate_interval"]["method"] == "cluster-robust"
    assert aggregate_rate_exact(units) == Fraction(3, 4)


def test_a_workflow_with_nothing_judged_has_no_gated_rate() -> None:
    # Every run errored or unavailable: no interval, so no lower bound to judge.
    record = suite_record_from_dict(synthetic_suite([("w", None, "t", "EU")]))
    (entry,) = record.workflows
    assert entry.pass_rate_interval is None
    assert gated_rate(entry, "lower-bound") is None
    assert gated_rate(entry, "lower-bound", record.units) is None
    assert gated_rate(entry, "point") is None
