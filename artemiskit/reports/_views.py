"""What each view shows, computed from the evidence (no rendering here).

A run's timeline is the record's: the preflight, a resume, then every operation
the record kept in order (model requests and tool-call attempts with their status,
retries and reason codes), then denials, faults and retries, each state change in
order, the end or pause, cleanup and verification. A record from before schema
version 3 kept no operation in order: its timeline shows the counts per tool.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit.suites import cause_text, percentile

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.records import ExecutionRecord, OperationEntry
    from artemiskit.reports._inputs import ReportInput

__all__ = [
    "MAX_GRID_CASES",
    "UnitGrid",
    "run_label",
    "unit_grid",
    "CauseGroup",
    "Gauge",
    "TimelineEntry",
    "TranscriptStep",
    "budget_fractions",
    "budget_gauges",
    "cause_groups",
    "durations",
    "run_timeline",
    "shown_ks",
    "transcript_steps",
]

#: pass^k is shown for every k up to this, then at about ten points per decade.
_EVERY_K = 20


@attrs.frozen(kw_only=True)
class TimelineEntry:
    """One step of a run's timeline: what happened, how it ended, the counts."""

    phase: str
    status: str
    detail: str


@attrs.frozen(kw_only=True)
class Gauge:
    """Use of one budget dimension against its declared limit."""

    name: str
    used: int | None
    limit: int | None

    @property
    def fraction(self) -> float | None:
        """``used / limit``; ``None`` without a limit or a measurement."""
        if self.used is None or not self.limit:
            return None
        return self.used / self.limit


@attrs.frozen(kw_only=True)
class TranscriptStep:
    """One message of a transcript (sensitive: shown only with ``--transcripts``)."""

    role: str
    content: str
    tool_calls: tuple[tuple[str, str], ...]
    is_error: bool


@attrs.frozen(kw_only=True)
class CauseGroup:
    """The runs that did not pass for one cause (``why``), most frequent first.

    Attributes:
        text: The cause as every view shows it (``<id or reason> (<reason>)``;
            ``not recorded`` for runs from before record schema version 4).
        kind: ``requirement``, ``stop`` or ``infrastructure`` (``None``: not
            recorded).
        verdicts: The verdicts of its runs (``failed``, ``errored``, ...).
        runs: Its runs, as (label, repetition), in suite order: the label is
            the workflow's name with the run's case and target (`run_label`).
    """

    text: str
    kind: str | None
    verdicts: tuple[str, ...]
    runs: tuple[tuple[str, int], ...]


def run_label(workflow: str, run: Mapping[str, Any]) -> str:
    """A run's workflow with its unit: ``workflow[case][target]`` as they apply."""
    label = workflow
    for part in (run.get("case"), run.get("target")):
        if part is not None:
            label += f"[{part}]"
    return label


@attrs.frozen(kw_only=True)
class UnitGrid:
    """A workflow's units as a cases x targets table of pass rates (SPEC 19).

    Attributes:
        cases: The row labels: case ids in suite order (``None``: no cases).
        targets: The column labels: target ids in suite order.
        cells: Each (case, target)'s unit, if the suite has it.
        more: Cases left out of ``cases`` (the table keeps the first ones).
    """

    cases: tuple[str | None, ...]
    targets: tuple[str, ...]
    cells: dict[tuple[str | None, str], dict[str, Any]]
    more: int = 0


#: The most cases a report lists per workflow.
MAX_GRID_CASES = 200


def unit_grid(suite: Mapping[str, Any], workflow: str) -> UnitGrid | None:
    """The cases x targets table of ``workflow``; ``None`` for a single unit."""
    units = [u for u in suite.get("units") or () if u["workflow"] == workflow]
    if len(units) < 2:
        return None
    cases = tuple(dict.fromkeys(u["case"] for u in units))
    targets = tuple(dict.fromkeys(u["target"] for u in units))
    return UnitGrid(
        cases=cases[:MAX_GRID_CASES],
        targets=targets,
        cells={(u["case"], u["target"]): u for u in units},
        more=max(0, len(cases) - MAX_GRID_CASES),
    )


def cause_groups(suite: dict[str, Any]) -> list[CauseGroup]:
    """Every run that did not pass, grouped by its cause, most frequent first."""
    groups: dict[str, tuple[str | None, list[str], list[tuple[str, int]]]] = {}
    for workflow in suite["workflows"]:
        for run in workflow["runs"]:
            if run["verdict"] == "passed":
                continue
            why = run["why"]
            text = cause_text(why)
            _kind, verdicts, runs = groups.setdefault(
                text, (None if why is None else why["kind"], [], [])
            )
            if run["verdict"] not in verdicts:
                verdicts.append(run["verdict"])
            runs.append((run_label(workflow["name"], run), run["repetition"]))
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1][2]), item[0]))
    return [
        CauseGroup(text=text, kind=kind, verdicts=tuple(verdicts), runs=tuple(runs))
        for text, (kind, verdicts, runs) in ordered
    ]


def shown_ks(judged: int) -> list[int]:
    """The values of k a page shows pass^k and pass@k for, of 1 to ``judged``.

    Every k up to 20, then about ten per tenfold, and always the last: a workflow
    of 10,000 runs gets a table (and a curve) of about 50 rows, not 10,000.
    """
    found = list(range(1, min(judged, _EVERY_K) + 1))
    k = float(_EVERY_K)
    while True:
        k *= 10**0.1
        if round(k) >= judged:
            break
        if round(k) > found[-1]:
            found.append(round(k))
    if judged > _EVERY_K:
        found.append(judged)
    return found


def _counts(**counts: int) -> str:
    return ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in counts.items())


def run_timeline(record: ExecutionRecord) -> list[TimelineEntry]:
    """The phases of a run in order, from its record."""
    found: list[TimelineEntry] = []
    preflight = record.preflight
    if preflight.mode != "off":
        found.append(
            TimelineEntry(
                phase="preflight",
                status=preflight.status,
                detail=_counts(
                    model_requests=preflight.model_requests,
                    tool_calls=preflight.tool_calls,
                ),
            )
        )
    recovery = record.recovery
    if recovery.resumed_from_attempt is not None:
        found.append(
            TimelineEntry(
                phase="resume",
                status="resumed",
                detail=f"attempt {recovery.attempt_number}, resumed from attempt "
                f"{recovery.resumed_from_attempt}; the operations below include "
                "those before the pause",
            )
        )
    timeline = record.timeline
    if timeline.entries:
        if timeline.omitted:
            found.append(
                TimelineEntry(
                    phase="earlier operations",
                    status="omitted",
                    detail=f"{timeline.omitted} not kept in the record",
                )
            )
        found += [_operation(entry) for entry in timeline.entries]
    else:
        found += _operation_counts(record)
    for reason, count in sorted(record.policy.denial_reasons.items()):
        found.append(
            TimelineEntry(phase="denial", status=reason, detail=_counts(times=count))
        )
    faults = record.faults
    for kind, info in sorted(faults.by_kind.items()):
        found.append(
            TimelineEntry(
                phase=f"fault {kind}",
                status="injected" if info.injected else "not reached",
                detail=_counts(declared=info.declared, injected=info.injected),
            )
        )
    if faults.retries or faults.recovered_calls or faults.exhausted_calls:
        found.append(
            TimelineEntry(
                phase="retries",
                status="exhausted" if faults.exhausted_calls else "recovered",
                detail=_counts(
                    retries=faults.retries,
                    recovered_calls=faults.recovered_calls,
                    exhausted_calls=faults.exhausted_calls,
                ),
            )
        )
    for number, change in enumerate(record.state_changes.entries, start=1):
        found.append(
            TimelineEntry(
                phase=f"state change {number}",
                status=f"{change.tool} {change.resource}",
                detail=f"{_short(change.before)} → {_short(change.after)}",
            )
        )
    if record.state_changes.omitted:
        found.append(
            TimelineEntry(
                phase="state changes",
                status="omitted",
                detail=f"{record.state_changes.omitted} more not kept in the record",
            )
        )
    found.append(
        TimelineEntry(
            phase="paused" if record.execution.status == "paused" else "end",
            status=record.execution.status,
            detail=record.execution.reason,
        )
    )
    cleanup = record.cleanup
    found.append(
        TimelineEntry(
            phase="cleanup",
            status=cleanup.status,
            detail=cleanup.reason or _counts(unresolved=cleanup.unresolved),
        )
    )
    verification = record.task_verification
    found.append(
        TimelineEntry(
            phase="verification", status=verification.status, detail=verification.reason
        )
    )
    return found


def _operation(entry: OperationEntry) -> TimelineEntry:
    """One operation the record kept, as a timeline step."""
    if entry.kind == "model_request":
        what = f"#{entry.number} model request"
    else:
        what = f"#{entry.number} tool call {entry.tool}"
        if entry.attempt > 1:
            what += f" (retry, attempt {entry.attempt})"
    status = "interrupted" if entry.status == "admitted" else entry.status
    return TimelineEntry(phase=what, status=status, detail=entry.reason or "")


def _operation_counts(record: ExecutionRecord) -> list[TimelineEntry]:
    """The operations of a record that kept none in order: counts per tool."""
    used = record.budget.used
    found = [
        TimelineEntry(
            phase="model requests",
            status=record.budget.usage_measurement,
            detail=_counts(requests=used.model_requests, actions=used.actions),
        )
    ]
    for tool in record.tools:
        status = "failed" if tool.failed else "denied" if tool.denied else "succeeded"
        found.append(
            TimelineEntry(
                phase=f"tool {tool.tool}",
                status=status,
                detail=_counts(
                    calls=tool.calls,
                    succeeded=tool.succeeded,
                    failed=tool.failed,
                    denied=tool.denied,
                    attempts=tool.attempts,
                ),
            )
        )
    return found


def _short(digest: str | None) -> str:
    if digest is None:
        return "absent"
    algorithm, _, value = digest.partition(":")
    return f"{algorithm}:{value[:12]}" if value else digest[:19]


def budget_gauges(record: ExecutionRecord) -> list[Gauge]:
    """Each budget dimension's use against its limit."""
    limits = record.budget.limits
    used = record.budget.used
    tokens = (
        None
        if used.input_tokens is None or used.output_tokens is None
        else used.input_tokens + used.output_tokens
    )
    return [
        Gauge(name="actions", used=used.actions, limit=limits.max_actions),
        Gauge(
            name="model requests",
            used=used.model_requests,
            limit=limits.max_model_requests,
        ),
        Gauge(name="tool calls", used=used.tool_calls, limit=limits.max_tool_calls),
        Gauge(name="tokens", used=tokens, limit=limits.max_tokens),
    ]


def budget_fractions(evidence: ReportInput, workflow: str) -> dict[str, list[float]]:
    """Per budget dimension, every run's use as a fraction of its limit."""
    found: dict[str, list[float]] = {}
    ordered = sorted(
        evidence.records.items(),
        key=lambda item: tuple("" if part is None else part for part in item[0]),
    )
    for (name, *_), record in ordered:
        if name != workflow:
            continue
        for gauge in budget_gauges(record):
            if gauge.fraction is not None:
                found.setdefault(gauge.name, []).append(gauge.fraction)
    return found


def durations(values: list[int]) -> dict[str, float | None]:
    """The median, 95th percentile and maximum of run durations (ms)."""
    return {
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
        "max": float(max(values)) if values else None,
    }


def transcript_steps(transcript: dict[str, Any]) -> list[TranscriptStep]:
    """A transcript's messages, in order, as plain strings."""
    steps = []
    for message in transcript.get("messages", []):
        if not isinstance(message, dict):
            continue
        calls = message.get("tool_calls") or []
        steps.append(
            TranscriptStep(
                role=str(message.get("role", "")),
                content=""
                if message.get("content") is None
                else str(message["content"]),
                tool_calls=tuple(
                    (str(call.get("name", "")), _arguments(call.get("arguments")))
                    for call in calls
                    if isinstance(call, dict)
                ),
                is_error=message.get("is_error") is True,
            )
        )
    return steps


def _arguments(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
