"""Compare decides regressions with Holm's step-down at --alpha, and says A/A."""

from __future__ import annotations

from typing import Any

import pytest
from statsmodels.stats.multitest import multipletests

from artemiskit._common._statistics import fisher_exact_p
from artemiskit.reports import compare_reports, comparison_markdown
from artemiskit.reports._inputs import ReportInput


def _workflow(name: str, passed: int, failed: int, digest: str = "d") -> dict[str, Any]:
    return {
        "name": name,
        "digest": digest,
        "passed": passed,
        "failed": failed,
        "budget_use": {},
    }


def _suite(rows: list[dict[str, Any]], target: str = "scripted:agent") -> ReportInput:
    units = [
        {
            "workflow": row["name"],
            "case": None,
            "target": target,
            "passed": row["passed"],
            "failed": row["failed"],
        }
        for row in rows
    ]
    return ReportInput(
        kind="suite", suite={"workflows": rows, "units": units}, records={}
    )


def test_holm_adjusts_over_the_lower_workflows_only() -> None:
    baseline = _suite(
        [_workflow("a", 20, 0), _workflow("b", 20, 0), _workflow("c", 10, 10)]
    )
    candidate = _suite(
        [_workflow("a", 14, 6), _workflow("b", 15, 5), _workflow("c", 20, 0)]
    )
    comparison = compare_reports(baseline, candidate)
    rows = {w.name: w for w in comparison.workflows}
    raw = [fisher_exact_p(20, 20, 14, 20), fisher_exact_p(20, 20, 15, 20)]
    expected = multipletests(raw, method="holm")[1]
    assert rows["a"].p_adjusted == pytest.approx(float(expected[0]), rel=1e-12)
    assert rows["b"].p_adjusted == pytest.approx(float(expected[1]), rel=1e-12)
    assert rows["c"].p_adjusted is None  # an improvement is shown, not tested
    # a alone would be significant (p = 0.02), but not after the adjustment
    assert raw[0] is not None
    assert raw[0] < 0.05
    assert comparison.regressed == tuple(
        name for name, p in zip("ab", expected, strict=True) if p < 0.05
    )


def test_alpha_moves_the_decision() -> None:
    baseline = _suite([_workflow("a", 20, 0)])
    candidate = _suite([_workflow("a", 15, 5)])
    p = fisher_exact_p(20, 20, 15, 20)
    assert p is not None
    assert compare_reports(baseline, candidate, alpha=p * 1.01).regressed == ("a",)
    assert compare_reports(baseline, candidate, alpha=p * 0.99).regressed == ()
    with pytest.raises(ValueError, match="alpha"):
        compare_reports(baseline, candidate, alpha=0)


def test_an_a_a_compare_says_the_differences_are_chance() -> None:
    baseline = _suite([_workflow("a", 18, 2), _workflow("b", 9, 11)])
    candidate = _suite([_workflow("a", 16, 4), _workflow("b", 11, 9)])
    comparison = compare_reports(baseline, candidate)
    assert comparison.same_contract_and_target
    assert comparison.beyond_chance == ()
    assert "every difference is within what chance gives" in comparison_markdown(
        comparison
    )


def test_an_a_a_compare_names_a_difference_beyond_chance() -> None:
    baseline = _suite([_workflow("a", 20, 0), _workflow("b", 10, 10)])
    candidate = _suite([_workflow("a", 0, 20), _workflow("b", 10, 10)])
    comparison = compare_reports(baseline, candidate)
    assert comparison.beyond_chance == ("a",)
    assert "differ more than chance gives (Holm, two-sided): a." in (
        comparison_markdown(comparison)
    )


def test_another_target_or_contract_is_no_a_a_compare() -> None:
    baseline = _suite([_workflow("a", 18, 2)])
    other_model = _suite([_workflow("a", 16, 4)], target="openai:gpt-x")
    assert not compare_reports(baseline, other_model).same_contract_and_target
    changed = _suite([_workflow("a", 16, 4, digest="other")])
    comparison = compare_reports(baseline, changed)
    assert not comparison.same_contract_and_target
    assert "chance" not in comparison_markdown(comparison)
