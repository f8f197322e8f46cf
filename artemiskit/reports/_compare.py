"""Comparing two suites, or two targets of one suite (SPEC 14, 19, 23, 26).

Units, one per (workflow, case, target), are matched across the sides: by
(workflow, case, target), or by (workflow, case) when each side holds exactly one
target (so "model X last week against model Y today" pairs up), or, for two
targets of one suite, by (workflow, case). A version-1 suite's workflows are units
with no case on the default target.

Each workflow gets a row, and when it has several units, each matched unit a row
too. A workflow row pairs its units when they are cases seen on both sides:
McNemar's exact test when every unit has one judged run a side, otherwise the
paired t-test on unit pass rates with cases as clusters; a workflow that is one
unit a side, or whose units do not pair, compares its runs as independent
(Fisher's exact test, Newcombe's interval), as a unit row does. Regressions are
decided by Holm's step-down over every row whose candidate is lower.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import attrs

from artemiskit._common._converter import CONVERTER
from artemiskit._common._decisions import holm_adjust, mcnemar_exact, paired_difference
from artemiskit._common._statistics import (
    Interval,
    exact_rate,
    exact_threshold,
    fisher_exact_share,
    fisher_smallest_share,
    newcombe_interval,
    newcombe_paired_interval,
)
from artemiskit._errors import WorkflowError
from artemiskit._exit_codes import ExitCode
from artemiskit.records import SuiteWorkflowInfo
from artemiskit.suites._record import unit_of

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from artemiskit.reports._inputs import ReportInput

__all__ = [
    "BUDGET_DIMENSIONS",
    "Comparison",
    "ComparisonRow",
    "compare_reports",
    "compare_targets",
    "comparison_dict",
]

BUDGET_DIMENSIONS = ("actions", "model_requests", "tool_calls", "tokens")
#: The default family-wise significance level (SPEC 23: ``--alpha``).
DEFAULT_ALPHA = 0.05
COMPARISON_SCHEMA = "artemiskit.comparison"

Test = Literal["mcnemar-exact", "paired-t", "paired-bootstrap", "fisher"]
"""The test of a row (SPEC 26)."""
Pairing = Literal["workflow-case-target", "workflow-case", "targets"]
"""How units were matched: by (workflow, case, target); by (workflow, case), each
side holding one target; or two targets of one suite, by (workflow, case)."""

_UnitKey = tuple[str | None, str | None]
_FISHER_WHY = "its runs are independent: Fisher's exact test"


@attrs.frozen(kw_only=True)
class ComparisonRow:
    """One compared row: a workflow, or one unit of a workflow with several.

    Rates are exact where they can be: a row of independent runs shows passed /
    judged; a paired workflow row shows the mean of its paired units' rates on
    each side (cases weigh the same, as in the clustered aggregate).

    Attributes:
        kind: ``workflow`` or ``unit``.
        name: The workflow's name.
        case: The unit's case id (``None`` for a workflow row or no dataset).
        baseline_target: The unit's baseline target id; for a workflow row,
            its one baseline target (``None`` when it ran on several).
        candidate_target: The same on the candidate side.
        baseline_passed: Passed runs on the baseline side (of the paired units,
            for a paired row).
        baseline_judged: Passed and failed runs on the baseline side.
        candidate_passed: Passed runs on the candidate side.
        candidate_judged: Passed and failed runs on the candidate side.
        baseline_rate: The baseline pass rate (``None``: nothing judged).
        candidate_rate: The candidate pass rate.
        difference: Candidate minus baseline rate.
        interval: The difference's 95% interval.
        interval_method: ``newcombe`` (independent runs), ``newcombe-paired``
            (Newcombe's interval for paired verdicts, with McNemar's test) or
            ``paired-t`` (the t interval of the mean paired difference, cases as
            clusters).
        test: ``fisher``, ``mcnemar-exact`` or ``paired-t`` (``None`` when a
            side judged nothing).
        why: Why the row used its test, in words (shown on every view).
        pairs: The units paired (paired rows; else 0).
        p_value: The two-sided p-value of ``test``.
        p_adjusted: ``p_value`` adjusted by Holm's step-down over every tested
            row; ``None`` when the row was not tested (its candidate is not
            lower: improvements are shown, not tested; or its test cannot
            reach the significance level with so few runs).
        tested: Whether the row is in Holm's family.
        regressed: Lower in the candidate and ``p_adjusted`` < alpha, or (a
            workflow row) a drop over ``max_drop``.
        contract_changed: The workflow's contract digest differs.
        target_changed: The targets (their identities) differ.
        unpaired_units: Units of the workflow on one side only.
        budget_medians: Per budget dimension, the baseline and candidate
            median use (workflow rows of two suites; else empty).
    """

    kind: Literal["workflow", "unit"]
    name: str
    case: str | None = None
    baseline_target: str | None = None
    candidate_target: str | None = None
    baseline_passed: int
    baseline_judged: int
    candidate_passed: int
    candidate_judged: int
    baseline_rate: float | None
    candidate_rate: float | None
    difference: float | None
    interval: Interval | None
    interval_method: Literal["newcombe", "newcombe-paired", "paired-t"] | None
    test: Test | None
    why: str
    pairs: int = 0
    p_value: float | None
    p_adjusted: float | None = None
    tested: bool = False
    regressed: bool = False
    contract_changed: bool = False
    target_changed: bool = False
    unpaired_units: int = 0
    budget_medians: dict[str, tuple[float | None, float | None]] = attrs.field(
        factory=dict
    )

    @property
    def label(self) -> str:
        """The row as views name it: ``workflow``, or ``workflow / case @ target``."""
        if self.kind == "workflow":
            return self.name
        text = self.name if self.case is None else f"{self.name} / {self.case}"
        if self.baseline_target == self.candidate_target:
            return f"{text} @ {self.baseline_target}"
        return text


@attrs.frozen(kw_only=True)
class Comparison:
    """Two suites, or two targets of one suite, compared row by row (SPEC 14, 23).

    The viewer, the page and the Markdown render this: every field is computed
    here, nothing is left for a view to decide.

    Attributes:
        baseline: The baseline suite record.
        candidate: The candidate suite record (the same one for ``--targets``).
        workflows: One row per workflow on both sides, by name.
        units: One row per matched unit of each workflow with several units.
        only_in_baseline: Workflows the candidate lacks.
        only_in_candidate: Workflows the baseline lacks.
        max_drop: The largest workflow pass-rate drop tolerated, if given.
        alpha: The family-wise significance level of the regression decision.
        pairing: How units were matched (`Pairing`).
        baseline_label: What the baseline side is (``baseline``, or a target id).
        candidate_label: What the candidate side is.
        same_contract_and_target: Every workflow kept its contract and its
            targets: the two sides differ by chance alone (an A/A compare)
            unless a row says otherwise.
        beyond_chance: The rows (labels) whose difference, either way, is
            significant after Holm's step-down over every row that can be:
            what an A/A compare names.
    """

    baseline: dict[str, Any]
    candidate: dict[str, Any]
    workflows: tuple[ComparisonRow, ...]
    units: tuple[ComparisonRow, ...] = ()
    only_in_baseline: tuple[str, ...] = ()
    only_in_candidate: tuple[str, ...] = ()
    max_drop: float | None = None
    alpha: float = DEFAULT_ALPHA
    pairing: Pairing = "workflow-case"
    baseline_label: str = "baseline"
    candidate_label: str = "candidate"
    same_contract_and_target: bool = False
    beyond_chance: tuple[str, ...] = ()

    @property
    def rows(self) -> tuple[ComparisonRow, ...]:
        """Every row: the workflows, then the units."""
        return self.workflows + self.units

    @property
    def regressed(self) -> tuple[str, ...]:
        """The labels of the rows that regressed."""
        return tuple(row.label for row in self.rows if row.regressed)

    @property
    def exit_code(self) -> int:
        """`ExitCode.TASK_FAILED` (8) when any row regressed, else 0."""
        return ExitCode.TASK_FAILED if self.regressed else ExitCode.OK


@attrs.frozen(kw_only=True)
class _Draft:
    """A row before the decision, with what the decision needs exactly."""

    row: ComparisonRow
    share: Fraction | None
    smallest: Fraction | None
    base: Fraction | None
    cand: Fraction | None

    @property
    def lower(self) -> bool:
        return self.base is not None and self.cand is not None and self.cand < self.base


def _target(unit: Mapping[str, Any]) -> str:
    target = unit.get("target")
    if isinstance(target, dict):
        return str(target["id"])
    return str(target)


def _units(suite: Mapping[str, Any]) -> list[dict[str, Any]]:
    units = suite.get("units")
    if units is None:
        # Several suites shown together: each workflow one unit (as version 1).
        units = CONVERTER.unstructure(
            [
                unit_of(CONVERTER.structure(w, SuiteWorkflowInfo))
                for w in suite["workflows"]
            ]
        )
    return list(units)


def _judged(unit: Mapping[str, Any]) -> int:
    return int(unit["passed"]) + int(unit["failed"])


def _float(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def _median(workflow: Mapping[str, Any], dimension: str) -> float | None:
    use = workflow.get("budget_use", {}).get(dimension)
    return None if use is None else float(use["p50"])


def _one(values: set[str]) -> str | None:
    return next(iter(values)) if len(values) == 1 else None


@attrs.frozen(kw_only=True)
class _Side:
    """One workflow's units on one side."""

    units: dict[_UnitKey, dict[str, Any]]

    @property
    def targets(self) -> set[str]:
        return {_target(u) for u in self.units.values()}

    def pooled(self, keys: Sequence[_UnitKey] | None = None) -> tuple[int, int]:
        chosen = self.units.values() if keys is None else [self.units[k] for k in keys]
        passed = sum(int(u["passed"]) for u in chosen)
        return passed, passed + sum(int(u["failed"]) for u in chosen)


def _fisher(
    base: tuple[int, int],
    cand: tuple[int, int],
    *,
    why: str,
    fields: dict[str, Any],
) -> _Draft:
    """A row of independent runs: Fisher's exact test and Newcombe's interval."""
    (a, n), (b, m) = base, cand
    base_rate, cand_rate = exact_rate(a, n), exact_rate(b, m)
    share = fisher_exact_share(a, n, b, m)
    difference = (
        None if base_rate is None or cand_rate is None else cand_rate - base_rate
    )
    row = ComparisonRow(
        baseline_passed=a,
        baseline_judged=n,
        candidate_passed=b,
        candidate_judged=m,
        baseline_rate=_float(base_rate),
        candidate_rate=_float(cand_rate),
        difference=_float(difference),
        interval=newcombe_interval(a, n, b, m),
        interval_method=None if share is None else "newcombe",
        test=None if share is None else "fisher",
        why="a side judged no run: nothing to test" if share is None else why,
        p_value=_float(share),
        **fields,
    )
    return _Draft(
        row=row,
        share=share,
        smallest=fisher_smallest_share(a, n, b, m),
        base=base_rate,
        cand=cand_rate,
    )


def _sign_test_smallest(discordant: int) -> Fraction:
    """McNemar's smallest attainable two-sided p with this many discordant units."""
    if discordant > 64:  # far below any significance level anyone uses
        return Fraction(0)
    return min(Fraction(1), Fraction(2, 2**discordant))


def _paired(
    base: _Side, cand: _Side, keys: list[_UnitKey], *, fields: dict[str, Any]
) -> _Draft:
    """A workflow row over its paired units: McNemar's exact test or paired t."""
    base_rates = [
        exact_rate(base.units[k]["passed"], _judged(base.units[k])) for k in keys
    ]
    cand_rates = [
        exact_rate(cand.units[k]["passed"], _judged(cand.units[k])) for k in keys
    ]
    clusters = [key[0] for key in keys]
    differences = [
        float(c - b)
        for b, c in zip(base_rates, cand_rates, strict=True)
        if b is not None and c is not None
    ]
    measured = paired_difference(differences, clusters)
    cases = measured.clusters
    one_run = all(
        _judged(base.units[k]) == 1 and _judged(cand.units[k]) == 1 for k in keys
    )
    if one_run and cases == len(keys):
        baseline_only = sum(
            1 for b, c in zip(base_rates, cand_rates, strict=True) if b == 1 and c == 0
        )
        candidate_only = sum(
            1 for b, c in zip(base_rates, cand_rates, strict=True) if b == 0 and c == 1
        )
        test = mcnemar_exact(baseline_only, candidate_only)
        why = (
            f"{len(keys)} paired units, one run a side each: McNemar's exact test "
            f"on the {test.pairs} whose verdicts differ"
        )
        smallest = _sign_test_smallest(test.pairs)
        both = sum(1 for b, c in zip(base_rates, cand_rates, strict=True) if b and c)
        interval = newcombe_paired_interval(
            both,
            baseline_only,
            candidate_only,
            len(keys) - both - baseline_only - candidate_only,
        )
        method: Literal["newcombe-paired", "paired-t"] = "newcombe-paired"
    else:
        test = measured.test
        if test.test == "mcnemar-exact":
            why = (
                f"{len(keys)} paired units over {cases} cases all moved by the same "
                "amount: no spread for a t-test, McNemar's exact test on the cases' "
                "directions"
            )
            smallest = _sign_test_smallest(test.pairs)
        else:
            why = (
                f"{len(keys)} paired units over {cases} cases, several runs a side: "
                "paired t-test on unit pass rates, cases as clusters"
            )
            smallest = Fraction(0)
        interval = Interval(low=measured.low, high=measured.high)
        method = "paired-t"
    base_mean = sum((r for r in base_rates if r is not None), Fraction(0)) / len(keys)
    cand_mean = sum((r for r in cand_rates if r is not None), Fraction(0)) / len(keys)
    a, n = base.pooled(keys)
    b, m = cand.pooled(keys)
    row = ComparisonRow(
        baseline_passed=a,
        baseline_judged=n,
        candidate_passed=b,
        candidate_judged=m,
        baseline_rate=float(base_mean),
        candidate_rate=float(cand_mean),
        difference=float(cand_mean - base_mean),
        interval=interval,
        interval_method=method,
        test="mcnemar-exact" if test.test == "mcnemar-exact" else "paired-t",
        why=why,
        pairs=len(keys),
        p_value=test.p,
        **fields,
    )
    return _Draft(
        row=row,
        share=Fraction(test.p),
        smallest=min(Fraction(1), smallest),
        base=base_mean,
        cand=cand_mean,
    )


def _sort_key(key: _UnitKey) -> tuple[str, str]:
    return (key[0] or "", key[1] or "")


def _workflow_drafts(
    name: str,
    base: _Side,
    cand: _Side,
    *,
    changes: dict[str, bool],
    budget_medians: dict[str, tuple[float | None, float | None]],
) -> list[_Draft]:
    """The workflow's row and, with several units, a row per matched unit."""
    fields: dict[str, Any] = {
        "kind": "workflow",
        "name": name,
        "baseline_target": _one(base.targets),
        "candidate_target": _one(cand.targets),
        "budget_medians": budget_medians,
        **changes,
    }
    if len(base.units) == 1 and len(cand.units) == 1:
        return [
            _fisher(
                base.pooled(),
                cand.pooled(),
                why=f"one unit a side (no cases): {_FISHER_WHY}",
                fields=fields,
            )
        ]
    matched = sorted(base.units.keys() & cand.units.keys(), key=_sort_key)
    fields["unpaired_units"] = len(base.units.keys() ^ cand.units.keys())
    units = [
        _fisher(
            base.pooled([key]),
            cand.pooled([key]),
            why=f"one unit: {_FISHER_WHY}",
            fields={
                "kind": "unit",
                "name": name,
                "case": key[0],
                "baseline_target": _target(base.units[key]),
                "candidate_target": _target(cand.units[key]),
                **changes,
            },
        )
        for key in matched
    ]
    judged = [k for k in matched if _judged(base.units[k]) and _judged(cand.units[k])]
    if len({key[0] for key in judged}) >= 2:
        workflow = _paired(base, cand, judged, fields=fields)
    else:
        workflow = _fisher(
            base.pooled(),
            cand.pooled(),
            why=(
                f"{len(judged)} unit(s) judged on both sides, fewer than two cases "
                f"to pair: {_FISHER_WHY}"
            ),
            fields=fields,
        )
    return [workflow, *units]


def _reaches(draft: _Draft, threshold: Fraction) -> bool:
    """Whether the row's test could give p below ``threshold`` at all (Tarone)."""
    return (
        draft.share is not None
        and draft.smallest is not None
        and draft.smallest < threshold
    )


def _decide(
    drafts: list[_Draft], *, alpha: float, max_drop: float | None
) -> tuple[list[ComparisonRow], tuple[str, ...]]:
    """Holm's step-down over the lower rows, decided exactly; and the A/A rows.

    Rates, differences and Fisher's p-values are exact fractions, and each
    threshold the decimal it names: 4/5 -> 3/5 drops by exactly 0.2, which
    ``--max-drop 0.2`` tolerates. A row whose test cannot reach ``alpha`` with
    its margins (Tarone, 1990: one run against one run gives p = 1 whatever
    happens) is shown, not tested: it can never be significant, and counting
    it would only weaken every other row.
    """
    threshold = exact_threshold(alpha)
    tested = [
        index
        for index, draft in enumerate(drafts)
        if draft.lower and _reaches(draft, threshold)
    ]
    shares = [drafts[index].share for index in tested]
    adjusted = holm_adjust([share for share in shares if share is not None])
    rows = [draft.row for draft in drafts]
    for index, share in zip(tested, adjusted, strict=True):
        rows[index] = attrs.evolve(
            rows[index],
            p_adjusted=float(share),
            tested=True,
            regressed=share < threshold,
        )
    for index, draft in enumerate(drafts):
        if draft.lower and not _reaches(draft, threshold) and draft.share is not None:
            rows[index] = attrs.evolve(
                rows[index],
                why=f"{rows[index].why}; too few runs to reach p < {alpha:g}: "
                "shown, not tested",
            )
    if max_drop is not None:
        drop = exact_threshold(max_drop)
        for index, draft in enumerate(drafts):
            if (
                draft.row.kind == "workflow"
                and draft.base is not None
                and draft.cand is not None
                and draft.base - draft.cand > drop
            ):
                rows[index] = attrs.evolve(rows[index], regressed=True)
    either = [i for i, d in enumerate(drafts) if _reaches(d, threshold)]
    both = holm_adjust([d for i in either if (d := drafts[i].share) is not None])
    beyond = tuple(
        drafts[i].row.label
        for i, share in zip(either, both, strict=True)
        if share < threshold
    )
    return rows, beyond


def _by_workflow(
    units: Sequence[dict[str, Any]], *, with_target: bool
) -> dict[str, _Side]:
    found: dict[str, dict[_UnitKey, dict[str, Any]]] = {}
    for unit in units:
        key = (unit.get("case"), _target(unit) if with_target else None)
        found.setdefault(str(unit["workflow"]), {})[key] = unit
    return {name: _Side(units=mine) for name, mine in found.items()}


def _identities(suite: Mapping[str, Any]) -> dict[str, str]:
    """Each target id's identity: its digest when ``targets[]`` records one."""
    found = {}
    for entry in suite.get("targets") or ():
        identity = entry.get("id") or entry.get("target")
        if identity is not None and entry.get("digest") is not None:
            found[str(identity)] = str(entry["digest"])
    return found


def _build(
    baseline: dict[str, Any],
    candidate: dict[str, Any],
    drafts: list[_Draft],
    *,
    alpha: float,
    max_drop: float | None,
    **fields: Any,
) -> Comparison:
    rows, beyond = _decide(drafts, alpha=alpha, max_drop=max_drop)
    workflows = tuple(row for row in rows if row.kind == "workflow")
    return Comparison(
        baseline=baseline,
        candidate=candidate,
        workflows=workflows,
        units=tuple(row for row in rows if row.kind == "unit"),
        max_drop=max_drop,
        alpha=alpha,
        same_contract_and_target=bool(workflows)
        and not any(row.contract_changed or row.target_changed for row in workflows),
        beyond_chance=beyond,
        **fields,
    )


def _check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise ValueError("alpha must be in (0, 1)")


def compare_reports(
    baseline: ReportInput,
    candidate: ReportInput,
    *,
    max_drop: float | None = None,
    alpha: float = DEFAULT_ALPHA,
) -> Comparison:
    """Compare two suites (or record sets), pairing their units where they can.

    Units are matched by (workflow, case, target), or by (workflow, case) when
    each side holds exactly one target. A row regressed when its candidate is
    lower and its p-value, adjusted by Holm's step-down over every row whose
    candidate is lower, is below ``alpha``; a workflow row also when its drop
    exceeds ``max_drop``.

    Args:
        baseline: The evidence compared against.
        candidate: The new evidence.
        max_drop: The largest workflow pass-rate drop (0..1) tolerated without a
            significant difference.
        alpha: The family-wise significance level (0..1, default 0.05).

    Returns:
        The comparison.

    Raises:
        ValueError: ``alpha`` is not in (0, 1).
    """
    _check_alpha(alpha)
    base_units, cand_units = _units(baseline.suite), _units(candidate.suite)
    one_each = (
        len({_target(u) for u in base_units}) == 1
        and len({_target(u) for u in cand_units}) == 1
    )
    base_sides = _by_workflow(base_units, with_target=not one_each)
    cand_sides = _by_workflow(cand_units, with_target=not one_each)
    base_entries = {w["name"]: w for w in baseline.suite["workflows"]}
    cand_entries = {w["name"]: w for w in candidate.suite["workflows"]}
    base_identity = _identities(baseline.suite)
    cand_identity = _identities(candidate.suite)
    drafts: list[_Draft] = []
    for name in sorted(base_entries.keys() & cand_entries.keys()):
        base = base_sides.get(name, _Side(units={}))
        cand = cand_sides.get(name, _Side(units={}))
        changes = {
            "contract_changed": base_entries[name]["digest"]
            != cand_entries[name]["digest"],
            "target_changed": {base_identity.get(t, t) for t in base.targets}
            != {cand_identity.get(t, t) for t in cand.targets},
        }
        medians = {
            d: (_median(base_entries[name], d), _median(cand_entries[name], d))
            for d in BUDGET_DIMENSIONS
        }
        drafts += _workflow_drafts(
            name, base, cand, changes=changes, budget_medians=medians
        )
    return _build(
        baseline.suite,
        candidate.suite,
        drafts,
        alpha=alpha,
        max_drop=max_drop,
        only_in_baseline=tuple(sorted(base_entries.keys() - cand_entries.keys())),
        only_in_candidate=tuple(sorted(cand_entries.keys() - base_entries.keys())),
        pairing="workflow-case" if one_each else "workflow-case-target",
    )


def compare_targets(
    suite: ReportInput,
    baseline_target: str,
    candidate_target: str,
    *,
    max_drop: float | None = None,
    alpha: float = DEFAULT_ALPHA,
) -> Comparison:
    """Compare two targets of one suite, unit by unit (``--targets A B``).

    The units of ``baseline_target`` and ``candidate_target`` are matched by
    (workflow, case); the decision is `compare_reports`'. The contract is the
    same on both sides (one suite); the targets differ, so this is never an
    A/A compare.

    Raises:
        ValueError: ``alpha`` is not in (0, 1).
        WorkflowError: A target ran no unit of the suite, or both are the same
            (``unknown_target``, exit 2).
    """
    _check_alpha(alpha)
    units = _units(suite.suite)
    known = sorted({_target(u) for u in units})
    if baseline_target == candidate_target:
        raise WorkflowError(
            "--targets needs two different targets", reason="unknown_target"
        )
    for target in (baseline_target, candidate_target):
        if target not in known:
            raise WorkflowError(
                f"--targets: no unit ran on target {target!r} (targets: "
                + ", ".join(repr(t) for t in known)
                + ")",
                reason="unknown_target",
            )
    base_sides = _by_workflow(
        [u for u in units if _target(u) == baseline_target], with_target=False
    )
    cand_sides = _by_workflow(
        [u for u in units if _target(u) == candidate_target], with_target=False
    )
    drafts: list[_Draft] = []
    for name in sorted(base_sides.keys() & cand_sides.keys()):
        drafts += _workflow_drafts(
            name,
            base_sides[name],
            cand_sides[name],
            changes={"contract_changed": False, "target_changed": True},
            budget_medians={},
        )
    return _build(
        suite.suite,
        suite.suite,
        drafts,
        alpha=alpha,
        max_drop=max_drop,
        only_in_baseline=tuple(sorted(base_sides.keys() - cand_sides.keys())),
        only_in_candidate=tuple(sorted(cand_sides.keys() - base_sides.keys())),
        pairing="targets",
        baseline_label=baseline_target,
        candidate_label=candidate_target,
    )


def _row_dict(row: ComparisonRow) -> dict[str, Any]:
    data = attrs.asdict(row, recurse=True)
    data["p"] = data.pop("p_value")  # SPEC 26 names the row's p-value ``p``
    data["label"] = row.label
    data["budget_medians"] = {
        key: {"baseline": pair[0], "candidate": pair[1]}
        for key, pair in row.budget_medians.items()
    }
    return data


def comparison_dict(comparison: Comparison) -> dict[str, Any]:
    """The comparison as JSON-ready data (``akit report compare --json``).

    Metadata only: names, case and target ids, counts, rates, tests, p-values
    and decisions; each row says which test it used and why. A row's fields are
    `ComparisonRow`'s, with ``p`` for ``p_value`` (SPEC 26) and its ``label``.
    """
    return {
        "schema": COMPARISON_SCHEMA,
        "schema_version": 1,
        "baseline": {
            "label": comparison.baseline_label,
            "suite_id": comparison.baseline.get("suite_id"),
        },
        "candidate": {
            "label": comparison.candidate_label,
            "suite_id": comparison.candidate.get("suite_id"),
        },
        "pairing": comparison.pairing,
        "alpha": comparison.alpha,
        "max_drop": comparison.max_drop,
        "regressed": list(comparison.regressed),
        "exit_code": int(comparison.exit_code),
        "same_contract_and_target": comparison.same_contract_and_target,
        "beyond_chance": list(comparison.beyond_chance),
        "only_in_baseline": list(comparison.only_in_baseline),
        "only_in_candidate": list(comparison.only_in_candidate),
        "workflows": [_row_dict(row) for row in comparison.workflows],
        "units": [_row_dict(row) for row in comparison.units],
    }
