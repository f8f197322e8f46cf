"""Comparing two suites: pass rates side by side, their difference, regressions."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._decisions import holm_adjust
from artemiskit._exit_codes import ExitCode
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
#: The default family-wise significance level (SPEC 23: ``--alpha``).
DEFAULT_ALPHA = 0.05


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
        p_adjusted: ``p_value`` adjusted by Holm's step-down over every compared
            workflow whose candidate is lower (``None`` for the others:
            improvements are shown, not tested).
        test: The test of the row (``fisher``: the sides are independent runs).
        regressed: Lower in the candidate and ``p_adjusted`` < alpha, or a drop
            over max_drop.
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
    p_adjusted: float | None = None
    test: str = "fisher"
    target_changed: bool = False

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
        alpha: The family-wise significance level of the regression decision.
    """

    baseline: dict[str, Any]
    candidate: dict[str, Any]
    workflows: tuple[WorkflowComparison, ...]
    only_in_baseline: tuple[str, ...]
    only_in_candidate: tuple[str, ...]
    max_drop: float | None
    alpha: float = DEFAULT_ALPHA

    @property
    def same_contract_and_target(self) -> bool:
        """Whether every compared workflow kept its contract and its target.

        Two such suites differ by chance alone (an A/A comparison), unless a row
        says otherwise.
        """
        return bool(self.workflows) and not any(
            w.contract_changed or w.target_changed for w in self.workflows
        )

    @property
    def beyond_chance(self) -> tuple[str, ...]:
        """Workflows whose difference is significant after Holm, either way.

        With the same contract and target on both sides these are the rows an
        A/A comparison names: more than chance gives at ``alpha``.
        """
        threshold = exact_threshold(self.alpha)
        shares = _two_sided_holm(self.workflows)
        return tuple(
            w.name
            for w, share in zip(self.workflows, shares, strict=True)
            if share is not None and share < threshold
        )

    @property
    def regressed(self) -> tuple[str, ...]:
        """The names of the workflows that regressed."""
        return tuple(w.name for w in self.workflows if w.regressed)

    @property
    def exit_code(self) -> int:
        """`ExitCode.TASK_FAILED` (8) when any workflow regressed, else 0."""
        return ExitCode.TASK_FAILED if self.regressed else ExitCode.OK


def _rate(passed: int, judged: int) -> float | None:
    return None if judged == 0 else passed / judged


def _median(workflow: dict[str, Any], dimension: str) -> float | None:
    use = workflow["budget_use"].get(dimension)
    return None if use is None else float(use["p50"])


def _lower(w: WorkflowComparison) -> bool:
    base = exact_rate(w.baseline_passed, w.baseline_judged)
    cand = exact_rate(w.candidate_passed, w.candidate_judged)
    return base is not None and cand is not None and cand < base


def _share(w: WorkflowComparison) -> Fraction | None:
    return fisher_exact_share(
        w.baseline_passed, w.baseline_judged, w.candidate_passed, w.candidate_judged
    )


def _two_sided_holm(
    workflows: tuple[WorkflowComparison, ...],
) -> list[Fraction | None]:
    """Holm over every row with a p-value, whichever way it moved (A/A checks)."""
    shares = [_share(w) for w in workflows]
    tested = [share for share in shares if share is not None]
    adjusted = iter(holm_adjust(tested))
    return [None if share is None else next(adjusted) for share in shares]


def _decide(
    rows: list[WorkflowComparison], *, alpha: float, max_drop: float | None
) -> list[WorkflowComparison]:
    """Holm's step-down over the rows whose candidate is lower, decided exactly.

    Rates, differences and p-values are exact fractions, and each threshold the
    decimal it names: 4/5 -> 3/5 drops by exactly 0.2, which ``--max-drop 0.2``
    tolerates (float subtraction says 0.20000000000000007).
    """
    tested = [
        index for index, w in enumerate(rows) if _lower(w) and _share(w) is not None
    ]
    shares = [_share(rows[index]) for index in tested]
    adjusted = holm_adjust([share for share in shares if share is not None])
    threshold = exact_threshold(alpha)
    decided = list(rows)
    for index, share in zip(tested, adjusted, strict=True):
        decided[index] = attrs.evolve(
            rows[index], p_adjusted=float(share), regressed=share < threshold
        )
    if max_drop is not None:
        drop = exact_threshold(max_drop)
        for index, w in enumerate(decided):
            base = exact_rate(w.baseline_passed, w.baseline_judged)
            cand = exact_rate(w.candidate_passed, w.candidate_judged)
            if base is not None and cand is not None and base - cand > drop:
                decided[index] = attrs.evolve(w, regressed=True)
    return decided


def _targets(workflow: dict[str, Any], suite: dict[str, Any]) -> frozenset[str]:
    return frozenset(
        str(unit.get("target"))
        for unit in suite.get("units", ())
        if unit.get("workflow") == workflow["name"]
    )


def _compare(
    base: dict[str, Any],
    cand: dict[str, Any],
    *,
    target_changed: bool,
) -> WorkflowComparison:
    a, n = base["passed"], base["passed"] + base["failed"]
    b, m = cand["passed"], cand["passed"] + cand["failed"]
    difference = None if n == 0 or m == 0 else float(Fraction(b, m) - Fraction(a, n))
    return WorkflowComparison(
        name=base["name"],
        baseline_passed=a,
        baseline_judged=n,
        candidate_passed=b,
        candidate_judged=m,
        difference=difference,
        interval=newcombe_interval(a, n, b, m),
        p_value=fisher_exact_p(a, n, b, m),
        regressed=False,
        contract_changed=base["digest"] != cand["digest"],
        target_changed=target_changed,
        budget_medians={
            d: (_median(base, d), _median(cand, d)) for d in BUDGET_DIMENSIONS
        },
    )


def compare_reports(
    baseline: ReportInput,
    candidate: ReportInput,
    *,
    max_drop: float | None = None,
    alpha: float = DEFAULT_ALPHA,
) -> Comparison:
    """Compare two suites (or record sets) workflow by workflow.

    A workflow regressed when its candidate pass rate is lower and Fisher's exact
    p-value, adjusted by Holm's step-down over every workflow whose candidate is
    lower, is below ``alpha``; or when the drop exceeds ``max_drop``.

    Args:
        baseline: The evidence compared against.
        candidate: The new evidence.
        max_drop: The largest pass-rate drop (0..1) tolerated without a
            significant difference.
        alpha: The family-wise significance level (0..1, default 0.05).

    Returns:
        The comparison.

    Raises:
        ValueError: ``alpha`` is not in (0, 1).
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError("alpha must be in (0, 1)")
    base = {w["name"]: w for w in baseline.suite["workflows"]}
    cand = {w["name"]: w for w in candidate.suite["workflows"]}
    rows = [
        _compare(
            base[name],
            cand[name],
            target_changed=_targets(base[name], baseline.suite)
            != _targets(cand[name], candidate.suite),
        )
        for name in sorted(base.keys() & cand.keys())
    ]
    return Comparison(
        baseline=baseline.suite,
        candidate=candidate.suite,
        workflows=tuple(_decide(rows, alpha=alpha, max_drop=max_drop)),
        only_in_baseline=tuple(sorted(base.keys() - cand.keys())),
        only_in_candidate=tuple(sorted(cand.keys() - base.keys())),
        max_drop=max_drop,
        alpha=alpha,
    )
