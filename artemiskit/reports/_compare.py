"""Comparing two suites: pass rates side by side, their difference, regressions."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit.reports._statistics import (
    fisher_exact_p,
    fisher_exact_share,
    newcombe_interval,
)
from artemiskit.suites import Interval
from artemiskit.suites._statistics import exact_rate, exact_threshold

if TYPE_CHECKING:
    from artemiskit.reports._inputs import ReportInput

__all__ = ["BUDGET_DIMENSIONS", "Comparison", "WorkflowComparison", "compare_reports"]

BUDGET_DIMENSIONS = ("actions", "model_requests", "tool_calls", "tokens")
SIGNIFICANCE = Fraction(5, 100)


@attrs.frozen(kw_only=True)
class WorkflowComparison:
    """One workflow in both suites.

    Attributes:
        name: The workflow's name.
        baseline_passed: Passed runs in the baseline.
        baseline_judged: Passed and failed runs in the baseline.
        candidate_passed: Passed runs in the candidate.
        candidate_judged: Passed and failed runs in the candidate.
        difference: Candidate pass rate minus baseline pass rate.
        interval: The difference's 95% interval (Newcombe), when both judged runs.
        p_value: Fisher's exact two-sided p-value, when both judged runs.
        regressed: Lower in the candidate and p < 0.05, or a drop over max_drop.
        contract_changed: The workflow digests differ.
        budget_medians: Per dimension, the baseline and candidate median use.
    """

    name: str
    baseline_passed: int
    baseline_judged: int
    candidate_passed: int
    candidate_judged: int
    difference: float | None
    interval: Interval | None
    p_value: float | None
    regressed: bool
    contract_changed: bool
    budget_medians: dict[str, tuple[float | None, float | None]]

    @property
    def baseline_rate(self) -> float | None:
        """The baseline pass rate; ``None`` when nothing was judged."""
        return _rate(self.baseline_passed, self.baseline_judged)

    @property
    def candidate_rate(self) -> float | None:
        """The candidate pass rate; ``None`` when nothing was judged."""
        return _rate(self.candidate_passed, self.candidate_judged)


@attrs.frozen(kw_only=True)
class Comparison:
    """Two suites compared workflow by workflow (SPEC 14).

    Attributes:
        baseline: The baseline suite record.
        candidate: The candidate suite record.
        workflows: The workflows in both suites, by name.
        only_in_baseline: Workflows the candidate lacks.
        only_in_candidate: Workflows the baseline lacks.
        max_drop: The largest pass-rate drop tolerated, if given.
    """

    baseline: dict[str, Any]
    candidate: dict[str, Any]
    workflows: tuple[WorkflowComparison, ...]
    only_in_baseline: tuple[str, ...]
    only_in_candidate: tuple[str, ...]
    max_drop: float | None

    @property
    def regressed(self) -> tuple[str, ...]:
        """The names of the workflows that regressed."""
        return tuple(w.name for w in self.workflows if w.regressed)

    @property
    def exit_code(self) -> int:
        """8 when any workflow regressed, else 0."""
        return 8 if self.regressed else 0


def _rate(passed: int, judged: int) -> float | None:
    return None if judged == 0 else passed / judged


def _median(workflow: dict[str, Any], dimension: str) -> float | None:
    use = workflow["budget_use"].get(dimension)
    return None if use is None else float(use["p50"])


def _regressed(a: int, n: int, b: int, m: int, max_drop: float | None) -> bool:
    """Lower and significant, or a drop beyond ``max_drop``, decided exactly.

    Rates, their difference and the p-value are exact fractions, and each
    threshold the decimal it names: 4/5 -> 3/5 drops by exactly 0.2, which
    ``--max-drop 0.2`` tolerates (float subtraction says 0.20000000000000007).
    """
    base, cand = exact_rate(a, n), exact_rate(b, m)
    if base is None or cand is None or cand >= base:
        return False
    p_value = fisher_exact_share(a, n, b, m)
    if p_value is not None and p_value < SIGNIFICANCE:
        return True
    return max_drop is not None and base - cand > exact_threshold(max_drop)


def _compare(
    base: dict[str, Any], cand: dict[str, Any], max_drop: float | None
) -> WorkflowComparison:
    a, n = base["passed"], base["passed"] + base["failed"]
    b, m = cand["passed"], cand["passed"] + cand["failed"]
    p_value = fisher_exact_p(a, n, b, m)
    difference = None if n == 0 or m == 0 else float(Fraction(b, m) - Fraction(a, n))
    regressed = _regressed(a, n, b, m, max_drop)
    return WorkflowComparison(
        name=base["name"],
        baseline_passed=a,
        baseline_judged=n,
        candidate_passed=b,
        candidate_judged=m,
        difference=difference,
        interval=newcombe_interval(a, n, b, m),
        p_value=p_value,
        regressed=regressed,
        contract_changed=base["digest"] != cand["digest"],
        budget_medians={
            d: (_median(base, d), _median(cand, d)) for d in BUDGET_DIMENSIONS
        },
    )


def compare_reports(
    baseline: ReportInput, candidate: ReportInput, *, max_drop: float | None = None
) -> Comparison:
    """Compare two suites (or record sets) workflow by workflow.

    A workflow regressed when its candidate pass rate is lower and Fisher's exact
    p < 0.05, or when the drop exceeds ``max_drop``.

    Args:
        baseline: The evidence compared against.
        candidate: The new evidence.
        max_drop: The largest pass-rate drop (0..1) tolerated without a
            significant difference.

    Returns:
        The comparison.
    """
    base = {w["name"]: w for w in baseline.suite["workflows"]}
    cand = {w["name"]: w for w in candidate.suite["workflows"]}
    return Comparison(
        baseline=baseline.suite,
        candidate=candidate.suite,
        workflows=tuple(
            _compare(base[name], cand[name], max_drop)
            for name in sorted(base.keys() & cand.keys())
        ),
        only_in_baseline=tuple(sorted(base.keys() - cand.keys())),
        only_in_candidate=tuple(sorted(cand.keys() - base.keys())),
        max_drop=max_drop,
    )
