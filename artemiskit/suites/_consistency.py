"""What the schema cannot say about a saved ``suite.json``: its numbers agree.

A hand-edited suite record can be valid for the JSON Schema and still impossible:
a pass rate without an interval, an interval that leaves out its own estimate,
pass^k keys that skip a k, counts larger than the runs listed. Readers (reports)
check these before showing anything, so every view can trust the numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit._errors import WorkflowError
from artemiskit.suites._record import exact_units_rate

if TYPE_CHECKING:
    from artemiskit.records._suite import (
        SuiteRecord,
        SuiteUnitInfo,
        SuiteWorkflowInfo,
    )

__all__ = ["check_suite_consistency"]

# How far a saved bound may miss its estimate: suite records written before the
# interval was pinned to hold its estimate miss it by an ulp (10/10 gave a high
# bound of 0.9999999999999998).
_TOLERANCE = 1e-9


def _refuse(path: str, rule: str) -> WorkflowError:
    return WorkflowError(
        f"invalid suite record: {path}: {rule}", reason="inconsistent_suite_record"
    )


def check_suite_consistency(record: SuiteRecord) -> None:
    """Check that a schema-valid suite record's numbers agree with each other.

    Raises:
        WorkflowError: The first disagreement, with its JSON path
            (``inconsistent_suite_record``, exit 2).
    """
    totals = record.totals
    if (totals.input_tokens is None) != (totals.output_tokens is None):
        raise _refuse("$.totals", "input_tokens and output_tokens must both be null")
    names: set[str] = set()
    units: dict[str, list[SuiteUnitInfo]] = {}
    for unit in record.units:
        units.setdefault(unit.workflow, []).append(unit)
    for number, unit in enumerate(record.units):
        _check_unit(f"$.units[{number}]", unit)
    for number, workflow in enumerate(record.workflows):
        path = f"$.workflows[{number}]"
        if workflow.name in names:
            raise _refuse(f"{path}.name", "repeats an earlier workflow's name")
        names.add(workflow.name)
        _check_workflow(path, workflow, units.get(workflow.name, []))


def _check_workflow(
    path: str, workflow: SuiteWorkflowInfo, units: list[SuiteUnitInfo]
) -> None:
    runs = workflow.runs
    repetitions = [(run.case, run.target, run.repetition) for run in runs]
    if len(set(repetitions)) != len(repetitions):
        raise _refuse(f"{path}.runs", "a repetition (of a case) is listed twice")
    for run in runs:
        if (run.input_tokens is None) != (run.output_tokens is None):
            raise _refuse(
                f"{path}.runs", "input_tokens and output_tokens must both be null"
            )
    passed, failed = workflow.passed, workflow.failed
    if passed + failed + workflow.unavailable > len(runs):
        raise _refuse(path, "counts more runs than it lists")
    for key in ("passed", "failed", "errored", "unavailable"):
        if units and sum(getattr(u, key) for u in units) != getattr(workflow, key):
            raise _refuse(f"{path}.{key}", "is not the sum of its units'")
    judged = passed + failed
    rate, interval = workflow.pass_rate, workflow.pass_rate_interval
    if judged == 0:
        if rate is not None or interval is not None:
            raise _refuse(path, "a pass rate and interval without judged runs")
    else:
        if rate is None or interval is None:
            raise _refuse(path, "judged runs need a pass rate and an interval")
        if interval.method == "wilson":
            if abs(rate - passed / judged) > _TOLERANCE:
                raise _refuse(f"{path}.pass_rate", "is not passed / (passed + failed)")
        else:
            expected_rate = exact_units_rate(units)
            if expected_rate is None or abs(rate - expected_rate) > _TOLERANCE:
                raise _refuse(
                    f"{path}.pass_rate", "is not the mean of its units' pass rates"
                )
        if not interval.low - _TOLERANCE <= rate <= interval.high + _TOLERANCE:
            raise _refuse(f"{path}.pass_rate_interval", "does not hold the pass rate")
    expected = [str(k) for k in range(1, judged + 1)]
    for key, values in (
        ("pass_at_k", workflow.pass_at_k),
        ("pass_hat_k", workflow.pass_hat_k),
    ):
        if set(values) != set(expected):
            raise _refuse(
                f"{path}.{key}", f"keys must be 1 to {judged} (the judged runs)"
            )


def _check_unit(path: str, unit: SuiteUnitInfo) -> None:
    """A unit's counts, pass rate, interval and pass@k agree (SPEC 26)."""
    counted = unit.passed + unit.failed + unit.errored + unit.unavailable
    if counted != unit.runs:
        raise _refuse(path, "its counts do not add up to its runs")
    judged = unit.passed + unit.failed
    rate, interval = unit.pass_rate, unit.pass_rate_interval
    if judged == 0:
        if rate is not None or interval is not None:
            raise _refuse(path, "a pass rate and interval without judged runs")
    else:
        if rate is None or interval is None:
            raise _refuse(path, "judged runs need a pass rate and an interval")
        if abs(rate - unit.passed / judged) > _TOLERANCE:
            raise _refuse(f"{path}.pass_rate", "is not passed / (passed + failed)")
        if not interval.low - _TOLERANCE <= rate <= interval.high + _TOLERANCE:
            raise _refuse(f"{path}.pass_rate_interval", "does not hold the pass rate")
    expected = {str(k) for k in range(1, judged + 1)}
    for key, values in (("pass_at_k", unit.pass_at_k), ("pass_hat_k", unit.pass_hat_k)):
        if set(values) != expected:
            raise _refuse(
                f"{path}.{key}", f"keys must be 1 to {judged} (the judged runs)"
            )
