"""Task verification (SPEC 3.3): evaluate declared outcomes against the final state.

Evaluation runs only after a completed execution. Each requirement is passed,
failed or unavailable (with a reason code); overall is failed if any failed, else
unavailable if any unavailable (or none were declared), else passed.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from artemiskit.engine._predicates import (
    expected,
    failed_check,
    parse_arguments,
    resolve_path,
)
from artemiskit.records._verification import (
    RequirementResult,
    TaskVerification,
    Verdict,
)
from artemiskit.workflow._model import (
    FileOutcome,
    FinalResponseOutcome,
    JudgeOutcome,
    Outcome,
    RecordOutcome,
    ScorerOutcome,
    StateOutcome,
    ToolCalledOutcome,
    ToolNotCalledOutcome,
    TrajectoryOutcome,
    TrajectoryStep,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from artemiskit.engine._run_evidence import TracedCall

__all__ = [
    "arguments_hold",
    "evaluate_outcomes",
    "outcome_kind",
    "unavailable_verification",
]

_KINDS: dict[type[Any], str] = {
    FileOutcome: "file",
    RecordOutcome: "record",
    StateOutcome: "state",
    ToolCalledOutcome: "tool_called",
    ToolNotCalledOutcome: "tool_not_called",
    FinalResponseOutcome: "final_response",
    TrajectoryOutcome: "trajectory",
    ScorerOutcome: "scorer",
    JudgeOutcome: "judge",
}
#: The reason codes a generic check gets for each kind, where the kind has its own.
_FILE_CODES = {
    "value_missing": "file_missing",
    "value_present": "file_present",
    "value_differs": "content_differs",
}
_STATE_CODES = {"value_missing": "state_path_missing", "value_differs": "state_differs"}
_RECORD_CODES = {"value_missing": "fields_differ", "value_differs": "fields_differ"}
_JSON_CODES = {"value_missing": "json_path_missing"}

Decision = tuple[Verdict, str]


def outcome_kind(outcome: Outcome) -> str:
    """The requirement kind of ``outcome`` (``file``, ``record``, ...)."""
    return _KINDS[type(outcome)]


def _checked(code: str | None, codes: Mapping[str, str]) -> Decision:
    if code is None:
        return "passed", "satisfied"
    return "failed", codes.get(code, code)


def _file(outcome: FileOutcome, files: Mapping[str, str]) -> Decision:
    path = "/".join(s for s in outcome.file.split("/") if s not in ("", "."))
    content = files.get(path)
    predicate = outcome.predicate or {"exists": True}
    return _checked(
        failed_check(predicate, content, present=content is not None), _FILE_CODES
    )


def _record(outcome: RecordOutcome, records: Mapping[str, Any]) -> Decision:
    fields = records.get(outcome.record.table, {}).get(outcome.record.id)
    if fields is None:
        return "failed", "record_missing"
    for name, value in outcome.fields.items():
        code = failed_check(expected(value), fields.get(name), present=name in fields)
        if code is not None:
            return _checked(code, _RECORD_CODES)
    return "passed", "satisfied"


def arguments_hold(arguments: Mapping[str, Any] | None, text: str | None) -> bool:
    """Whether a call's original argument text satisfies every argument predicate.

    Args:
        arguments: Argument name (dotted into objects) → predicate or value.
        text: The model's argument text (JSON).
    """
    if not arguments:
        return True
    parsed = parse_arguments(text)
    if parsed is None:
        return False
    for name, value in arguments.items():
        found, actual = resolve_path(parsed, name)
        if failed_check(expected(value), actual, present=found) is not None:
            return False
    return True


def _count_calls(outcome: ToolCalledOutcome, trace: Sequence[TracedCall]) -> Decision:
    calls = sum(
        1
        for e in trace
        if e.tool == outcome.tool_called
        and e.status == "succeeded"
        and arguments_hold(outcome.arguments, e.arguments)
    )
    low = outcome.min if outcome.min is not None else (1 if outcome.max is None else 0)
    if calls < low:
        return "failed", "too_few_calls"
    if outcome.max is not None and calls > outcome.max:
        return "failed", "too_many_calls"
    return "passed", "satisfied"


def _step_matches(step: TrajectoryStep, entry: TracedCall) -> bool:
    return (
        entry.tool == step.tool
        and (step.status is None or entry.status == step.status)
        and arguments_hold(step.arguments, entry.arguments)
    )


def _trajectory(outcome: TrajectoryOutcome, trace: Sequence[TracedCall]) -> Decision:
    steps = outcome.trajectory.steps
    mode = outcome.trajectory.mode
    if mode == "subsequence":
        # the earliest match of each step leaves the most calls for the next
        cursor = 0
        for entry in trace:
            if cursor < len(steps) and _step_matches(steps[cursor], entry):
                cursor += 1
        held = cursor == len(steps)
    else:
        calls = trace if mode == "exact" else trace[: len(steps)]
        held = len(calls) == len(steps) and all(
            _step_matches(step, entry) for step, entry in zip(steps, calls, strict=True)
        )
    return ("passed", "satisfied") if held else ("failed", "trajectory_not_followed")


def _final_response(outcome: FinalResponseOutcome, text: str | None) -> Decision:
    if text is None:
        return "failed", "no_final_response"
    check = outcome.final_response
    code = failed_check(check.predicate, text) if check.predicate else None
    if code is not None or not check.json:
        return _checked(code, {})
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return "failed", "not_json"
    for path, value in check.json.items():
        found, actual = resolve_path(parsed, path)
        code = failed_check(expected(value), actual, present=found)
        if code is not None:
            return _checked(code, _JSON_CODES)
    return "passed", "satisfied"


def _evaluate(
    outcome: Outcome,
    final_state: Mapping[str, Any],
    trace: Sequence[TracedCall],
    final_response: str | None,
    trace_complete: bool,
) -> Decision:
    if isinstance(outcome, FileOutcome):
        return _file(outcome, final_state["files"])
    if isinstance(outcome, RecordOutcome):
        return _record(outcome, final_state["records"])
    if isinstance(outcome, StateOutcome):
        found, value = resolve_path(final_state, outcome.state)
        return _checked(
            failed_check(outcome.predicate, value, present=found), _STATE_CODES
        )
    if isinstance(outcome, FinalResponseOutcome):
        return _final_response(outcome, final_response)
    if isinstance(outcome, ScorerOutcome):
        return "unavailable", "scorer_not_registered"
    if isinstance(outcome, JudgeOutcome):
        return "unavailable", "judge_not_configured"
    if not trace_complete:
        return "unavailable", "trace_truncated"
    if isinstance(outcome, ToolNotCalledOutcome):
        ran = any(
            e.tool == outcome.tool_not_called
            and e.status != "denied"
            and arguments_hold(outcome.arguments, e.arguments)
            for e in trace
        )
        return ("failed", "tool_called") if ran else ("passed", "satisfied")
    if isinstance(outcome, TrajectoryOutcome):
        return _trajectory(outcome, trace)
    return _count_calls(outcome, trace)


def _overall(results: Sequence[RequirementResult]) -> TaskVerification:
    statuses = {r.status for r in results}
    if not results:
        return TaskVerification(status="unavailable", reason="no_outcomes_declared")
    if "failed" in statuses:
        return TaskVerification(
            status="failed", reason="requirement_failed", requirements=tuple(results)
        )
    if "unavailable" in statuses:
        return TaskVerification(
            status="unavailable",
            reason="requirement_unavailable",
            requirements=tuple(results),
        )
    return TaskVerification(
        status="passed", reason="all_requirements_passed", requirements=tuple(results)
    )


def evaluate_outcomes(
    outcomes: Sequence[Outcome],
    *,
    final_state: Mapping[str, Any],
    trace: Sequence[TracedCall],
    final_response: str | None,
    trace_complete: bool,
    decided: Mapping[str, RequirementResult] | None = None,
) -> TaskVerification:
    """Evaluate every outcome of a completed execution.

    Args:
        outcomes: The workflow's declared outcomes.
        final_state: The final state in the SPEC 3.1 layout.
        trace: The logical tool calls, with their original arguments
            (`traced_calls`).
        final_response: The model's last text answer.
        trace_complete: False when the event ledger was truncated; trace
            assertions are then unavailable rather than inferred.
        decided: Results of ``judge`` and ``scorer`` requirements by outcome
            id, decided before (a judge or a scorer ran); missing ones are
            unavailable.

    Returns:
        The task verification.
    """
    results = []
    for outcome in outcomes:
        if decided and outcome.id in decided:
            results.append(decided[outcome.id])
            continue
        status, reason = _evaluate(
            outcome, final_state, trace, final_response, trace_complete
        )
        results.append(
            RequirementResult(
                id=outcome.id, kind=outcome_kind(outcome), status=status, reason=reason
            )
        )
    return _overall(results)


def unavailable_verification(
    outcomes: Sequence[Outcome], reason: str
) -> TaskVerification:
    """The verification of an execution that did not complete."""
    return TaskVerification(
        status="unavailable",
        reason=reason,
        requirements=tuple(
            RequirementResult(
                id=o.id, kind=outcome_kind(o), status="unavailable", reason=reason
            )
            for o in outcomes
        ),
    )
