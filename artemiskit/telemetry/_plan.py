"""A run's spans, planned from its record and events: names, times, attributes.

Pure data, no OpenTelemetry import: the exporter turns the plan into SDK spans.
Names and attributes follow the OpenTelemetry GenAI semantic conventions
(``invoke_agent``, ``chat``, ``execute_tool``) plus ``artemiskit.*`` metadata.
Nothing here ever holds a prompt, a completion, a tool argument or a result: the
plan is made from the record and the engine's metadata events only.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.records._record import ExecutionRecord
    from artemiskit.telemetry._recorder import RecordedEvent

__all__ = [
    "MAX_SPANS_PER_RUN",
    "AttributeValue",
    "PlannedSpan",
    "TracePosition",
    "plan_run",
    "span_id_for",
    "trace_id_for",
    "verdict_of",
]

#: Spans exported per attempt at most; the rest are counted as dropped.
MAX_SPANS_PER_RUN = 10_000
#: Failing requirement ids named on a run span at most.
_MAX_NAMED_REQUIREMENTS = 32

AttributeValue = str | int | float | bool | tuple[str, ...]


@attrs.frozen(kw_only=True)
class PlannedSpan:
    """One span to export: ids are 64-bit integers within the position's trace."""

    name: str
    span_id: int
    parent_id: int | None
    start_ns: int
    end_ns: int
    client: bool
    attributes: Mapping[str, AttributeValue]
    error: str | None = None
    links: tuple[int, ...] = ()


@attrs.frozen(kw_only=True)
class TracePosition:
    """Where a run's spans go: its trace, and the suite span above it (if any)."""

    trace_id: int
    parent_id: int | None = None


def trace_id_for(key: str) -> int:
    """A stable 128-bit trace id for a run or suite id (never zero)."""
    return _digest_int("trace", key, 16)


def span_id_for(key: str) -> int:
    """A stable 64-bit span id for an attempt or suite id (never zero)."""
    return _digest_int("span", key, 8)


def _digest_int(kind: str, key: str, size: int) -> int:
    digest = hashlib.sha256(f"artemiskit/{kind}\0{key}".encode()).digest()
    return int.from_bytes(digest[:size], "big") or 1


def _new_span_id() -> int:
    return secrets.randbits(64) or 1


def verdict_of(record: ExecutionRecord) -> str:
    """The run's verdict (SPEC 20): passed, failed, errored or unavailable."""
    return record.verdict.status


def plan_run(
    record: ExecutionRecord,
    events: Sequence[RecordedEvent],
    position: TracePosition,
) -> tuple[list[PlannedSpan], int]:
    """The spans of one attempt and how many were left out by the per-run cap.

    Args:
        record: The attempt's record (identities, counters, statuses).
        events: The attempt's engine events, in order, with their times.
        position: The trace the spans belong to.

    Returns:
        The planned spans (the run span first) and the count over the cap.
    """
    run_span_id = span_id_for(record.attempt_id)
    start = events[0].at_ns if events else 0
    end = events[-1].at_ns if events else 0
    children = _ChildSpans(record, run_span_id, end)
    for event in events:
        children.see(event)
    planned = children.finish()
    over = max(0, len(planned) + 1 - MAX_SPANS_PER_RUN)
    if over:
        planned = planned[: MAX_SPANS_PER_RUN - 1]
    previous = record.recovery.resumed_from_attempt
    run_span = PlannedSpan(
        name=f"invoke_agent {record.workflow.name}",
        span_id=run_span_id,
        parent_id=position.parent_id,
        start_ns=start,
        end_ns=max(end, start),
        client=False,
        attributes=_run_attributes(record),
        error=None if verdict_of(record) == "passed" else record.execution.reason,
        links=() if previous is None else (span_id_for(previous),),
    )
    return [run_span, *planned], over


def _run_attributes(record: ExecutionRecord) -> dict[str, AttributeValue]:
    used = record.budget.used
    limits = record.budget.limits
    failed = tuple(
        requirement.id
        for requirement in record.task_verification.requirements
        if requirement.status == "failed"
    )[:_MAX_NAMED_REQUIREMENTS]
    attributes: dict[str, AttributeValue] = {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": record.workflow.name,
        "gen_ai.provider.name": record.target.provider,
        "gen_ai.request.model": record.target.model,
        "artemiskit.run_id": record.run_id,
        "artemiskit.attempt_id": record.attempt_id,
        "artemiskit.workflow.name": record.workflow.name,
        "artemiskit.workflow.digest": record.workflow.digest,
        "artemiskit.verdict": verdict_of(record),
        "artemiskit.execution.status": record.execution.status,
        "artemiskit.execution.reason": record.execution.reason,
        "artemiskit.exit_code": record.exit_code,
        "artemiskit.verification.status": record.task_verification.status,
        "artemiskit.budget.actions": used.actions,
        "artemiskit.budget.actions.limit": limits.max_actions,
        "artemiskit.budget.model_requests": used.model_requests,
        "artemiskit.budget.tool_calls": used.tool_calls,
        "artemiskit.budget.usage_measurement": record.budget.usage_measurement,
        "artemiskit.policy.denials": record.policy.denials,
        "artemiskit.faults.injected": record.faults.injected,
        "artemiskit.retries": record.faults.retries,
        "artemiskit.cleanup.status": record.cleanup.status,
        "artemiskit.attempt_number": record.recovery.attempt_number,
    }
    if used.input_tokens is not None:
        attributes["gen_ai.usage.input_tokens"] = used.input_tokens
    if used.output_tokens is not None:
        attributes["gen_ai.usage.output_tokens"] = used.output_tokens
    if limits.max_tokens is not None:
        attributes["artemiskit.budget.tokens.limit"] = limits.max_tokens
    if failed:
        attributes["artemiskit.requirements.failed"] = failed
    if record.execution.status != "completed":
        attributes["error.type"] = record.execution.reason
    return attributes


@attrs.define
class _Open:
    span_id: int
    start_ns: int
    name: str
    client: bool
    attributes: dict[str, AttributeValue]


class _ChildSpans:
    """Folds the event stream into model-request and tool-attempt spans."""

    def __init__(self, record: ExecutionRecord, run_span_id: int, end_ns: int) -> None:
        self._provider = record.target.provider
        self._model = record.target.model
        self._run_span_id = run_span_id
        self._end_ns = end_ns
        self._open: dict[str, _Open] = {}
        self._done: list[PlannedSpan] = []
        self._last_attempt: dict[str, int] = {}
        self._retry_attempt: dict[str, int] = {}

    def see(self, event: RecordedEvent) -> None:
        fields = event.fields
        operation = fields.get("operation_id")
        if event.type == "operation_admitted" and isinstance(operation, str):
            self._admit(event, operation)
        elif event.type == "operation_settled" and isinstance(operation, str):
            self._settle(event, operation)
        elif event.type == "fault_injected" and isinstance(operation, str):
            opened = self._open.get(operation)
            if opened is not None and isinstance(fields.get("reason"), str):
                opened.attributes["artemiskit.fault"] = str(fields["reason"])
        elif event.type == "retry_scheduled" and isinstance(fields.get("tool"), str):
            tool = str(fields["tool"])
            self._retry_attempt[tool] = self._last_attempt.get(tool, 1) + 1
        elif event.type == "tool_denied":
            self._deny(event)

    def _admit(self, event: RecordedEvent, operation: str) -> None:
        fields = event.fields
        tool = fields.get("tool")
        attributes: dict[str, AttributeValue] = {"artemiskit.operation.id": operation}
        if isinstance(tool, str):
            attempt = self._retry_attempt.pop(tool, 1)
            self._last_attempt[tool] = attempt
            attributes |= {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": tool,
                "gen_ai.tool.call.id": operation,
                "artemiskit.retry.attempt": attempt,
            }
            name, client = f"execute_tool {tool}", False
        else:
            attributes |= {
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": self._provider,
                "gen_ai.request.model": self._model,
            }
            for key in ("turn", "step"):
                value = fields.get(key)
                if isinstance(value, int):
                    attributes[f"artemiskit.{key}"] = value
            name, client = f"chat {self._model}", True
        self._open[operation] = _Open(
            span_id=_new_span_id(),
            start_ns=event.at_ns,
            name=name,
            client=client,
            attributes=attributes,
        )

    def _settle(self, event: RecordedEvent, operation: str) -> None:
        opened = self._open.pop(operation, None)
        if opened is None:
            return
        fields = event.fields
        attributes = opened.attributes
        status = fields.get("status")
        for field, key in (
            ("input_tokens", "gen_ai.usage.input_tokens"),
            ("output_tokens", "gen_ai.usage.output_tokens"),
        ):
            value = fields.get(field)
            if isinstance(value, int):
                attributes[key] = value
        if isinstance(status, str):
            attributes["artemiskit.operation.status"] = status
        reason = fields.get("reason")
        error = None
        if status != "succeeded":
            error = reason if isinstance(reason, str) else str(status)
        elif isinstance(reason, str):
            attributes["artemiskit.operation.reason"] = reason
        self._close(opened, event.at_ns, error)

    def _deny(self, event: RecordedEvent) -> None:
        tool = event.fields.get("tool")
        reason = event.fields.get("reason")
        name = tool if isinstance(tool, str) else "undeclared"
        reason_code = reason if isinstance(reason, str) else "denied"
        attributes: dict[str, AttributeValue] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "artemiskit.denial.reason": reason_code,
            "artemiskit.operation.status": "denied",
        }
        opened = _Open(
            span_id=_new_span_id(),
            start_ns=event.at_ns,
            name=f"execute_tool {name}",
            client=False,
            attributes=attributes,
        )
        self._close(opened, event.at_ns, reason_code)

    def _close(self, opened: _Open, end_ns: int, error: str | None) -> None:
        if error is not None:
            opened.attributes["error.type"] = error
        self._done.append(
            PlannedSpan(
                name=opened.name,
                span_id=opened.span_id,
                parent_id=self._run_span_id,
                start_ns=opened.start_ns,
                end_ns=max(end_ns, opened.start_ns),
                client=opened.client,
                attributes=opened.attributes,
                error=error,
            )
        )

    def finish(self) -> list[PlannedSpan]:
        """Close what never settled (interrupted: outcome unknown) and return all."""
        for opened in list(self._open.values()):
            opened.attributes["artemiskit.operation.status"] = "unknown"
            self._close(opened, self._end_ns, "interrupted")
        self._open.clear()
        return sorted(self._done, key=lambda span: span.start_ns)
