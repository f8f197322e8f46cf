"""Task verification (SPEC 3.3): evaluate declared outcomes against the final state.

Evaluation runs only after a completed execution. Each requirement is passed,
failed or unavailable (with a reason code); overall is failed if any failed, else
unavailable if any unavailable (or none were declared), else passed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

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
    StateOutcome,
    ToolCalledOutcome,
    ToolNotCalledOutcome,
)

if TYPE_CHECKING:
    from artemiskit.engine._state import TraceEntry

__all__ = [
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
    JudgeOutcome: "judge",
}


def outcome_kind(outcome: Outcome) -> str:
    """The requirement kind of ``outcome`` (``file``, ``record``, ...)."""
    return _KINDS[type(outcome)]


def _verdict(ok: bool, failed_reason: str) -> tuple[Verdict, str]:
    return ("passed", "satisfied") if ok else ("failed", failed_reason)


def _text_checks(
    text: str, contains: Sequence[str], equals: str | None, matches: str | None
) -> tuple[Verdict, str]:
    if any(piece not in text for piece in contains):
        return "failed", "missing_content"
    if equals is not None and text != equals:
        return "failed", "content_differs"
    if matches is not None and re.search(matches, text) is None:
        return "failed", "pattern_not_matched"
    return "passed", "satisfied"


def _file(outcome: FileOutcome, files: Mapping[str, str]) -> tuple[Verdict, str]:
    path = "/".join(s for s in outcome.file.split("/") if s not in ("", "."))
    content = files.get(path)
    if outcome.absent:
        return _verdict(content is None, "file_present")
    if content is None:
        return "failed", "file_missing"
    return _text_checks(content, outcome.contains, outcome.equals, outcome.matches)


def _lookup(state: Any, dotted: str) -> tuple[bool, Any]:
    value = state
    for part in dotted.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return False, None
    return True, value


def _evaluate(
    outcome: Outcome,
    final_state: Mapping[str, Any],
    trace: Sequence[TraceEntry],
    final_response: str | None,
    trace_complete: bool,
) -> tuple[Verdict, str]:
    if isinstance(outcome, FileOutcome):
        return _file(outcome, final_state["files"])
    if isinstance(outcome, RecordOutcome):
        table = final_state["records"].get(outcome.record.table, {})
        fields = table.get(outcome.record.id)
        if fields is None:
            return "failed", "record_missing"
        differs = any(fields.get(k) != v for k, v in outcome.fields.items())
        return _verdict(not differs, "fields_differ")
    if isinstance(outcome, StateOutcome):
        found, value = _lookup(final_state, outcome.state)
        if not found:
            return "failed", "state_path_missing"
        return _verdict(value == outcome.equals, "state_differs")
    if isinstance(outcome, ToolCalledOutcome | ToolNotCalledOutcome):
        if not trace_complete:
            return "unavailable", "trace_truncated"
        if isinstance(outcome, ToolNotCalledOutcome):
            ran = any(
                e.tool == outcome.tool_not_called and e.status != "denied"
                for e in trace
            )
            return _verdict(not ran, "tool_called")
        calls = sum(
            1
            for e in trace
            if e.tool == outcome.tool_called and e.status == "succeeded"
        )
        low = (
            outcome.min
            if outcome.min is not None
            else (1 if outcome.max is None else 0)
        )
        if calls < low:
            return "failed", "too_few_calls"
        if outcome.max is not None and calls > outcome.max:
            return "failed", "too_many_calls"
        return "passed", "satisfied"
    if isinstance(outcome, FinalResponseOutcome):
        if final_response is None:
            return "failed", "no_final_response"
        check = outcome.final_response
        return _text_checks(final_response, check.contains, None, check.matches)
    return "unavailable", "judge_not_configured"


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
    trace: Sequence[TraceEntry],
    final_response: str | None,
    trace_complete: bool,
    judged: Mapping[str, tuple[Verdict, str]] | None = None,
) -> TaskVerification:
    """Evaluate every outcome of a completed execution.

    Args:
        outcomes: The workflow's declared outcomes.
        final_state: The final state in the SPEC 3.1 layout.
        trace: The logical tool calls.
        final_response: The model's last text answer.
        trace_complete: False when the event ledger was truncated; trace
            assertions are then unavailable rather than inferred.
        judged: Verdicts of ``judge`` requirements by outcome id, when a judge
            ran; missing ones are unavailable.

    Returns:
        The task verification.
    """
    results = []
    for outcome in outcomes:
        if isinstance(outcome, JudgeOutcome) and judged and outcome.id in judged:
            status, reason = judged[outcome.id]
        else:
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
