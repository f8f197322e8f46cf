"""The execution record (SPEC 7): metadata-only evidence of one run attempt.

A record holds identities, digests, counters, statuses and reason codes. It never
holds prompts, model text, tool arguments, file contents, paths, secrets or
checkpoint locations; bounded lists say how many entries they omitted.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from artemiskit._common._budgets import Budgets
from artemiskit._common._converter import CONVERTER
from artemiskit._common._slots import slot_builder
from artemiskit.records._verdict import RunVerdict
from artemiskit.records._verification import StateChange, TaskVerification

__all__ = [
    "new_operation_entry",
    "new_tool_summary",
    "BudgetInfo",
    "BudgetUsed",
    "CaseInfo",
    "CleanupInfo",
    "EventInfo",
    "ExecutionInfo",
    "ExecutionRecord",
    "FaultInfo",
    "FaultKindInfo",
    "JudgeInfo",
    "McpInfo",
    "McpServerInfo",
    "McpToolInfo",
    "OperationEntry",
    "OperationSummary",
    "PolicyInfo",
    "PreflightInfo",
    "RECORD_SCHEMA",
    "RECORD_SCHEMA_VERSION",
    "RecoveryInfo",
    "StateChangeInfo",
    "TargetInfo",
    "TelemetryInfo",
    "TimelineInfo",
    "ToolSummary",
    "WorkflowInfo",
]

RECORD_SCHEMA = "artemiskit.workflow-record"
RECORD_SCHEMA_VERSION = 4


@attrs.frozen(kw_only=True)
class WorkflowInfo:
    """Which workflow ran: its name and the digest of its validated contract."""

    name: str
    digest: str
    version: int = 1


@attrs.frozen(kw_only=True)
class CaseInfo:
    """Which dataset case ran (SPEC 19): its id and its values' digest, never them."""

    id: str
    digest: str


@attrs.frozen(kw_only=True)
class TargetInfo:
    """Which target ran; the transport digest binds the effective configuration.

    Attributes:
        provider: The provider entry, or ``agent`` for an agent of your own.
        model: The model, or the agent's name.
        transport_digest: A digest of the effective transport configuration.
        provider_retries: Accounted provider retries made (SPEC 16); each is
            also a model request.
        id: The target's identity (SPEC 19): ``ENTRY:MODEL`` for a provider
            entry, the agent's name for an agent. Records read from before
            target identities get ``PROVIDER:MODEL``.
        version: An agent's optional version (absent when it has none).
    """

    provider: str
    model: str
    transport_digest: str | None = None
    provider_retries: int = 0
    id: str | None = None
    version: str | None = None


@attrs.frozen(kw_only=True)
class ExecutionInfo:
    """How the execution ended and when."""

    status: str
    reason: str
    started_at: str
    finished_at: str
    duration_ms: int


@attrs.frozen(kw_only=True)
class BudgetUsed:
    """What the run consumed; token totals are ``None`` unless fully measured."""

    actions: int
    model_requests: int
    tool_calls: int
    input_tokens: int | None
    output_tokens: int | None


@attrs.frozen(kw_only=True)
class BudgetInfo:
    """Budget limits, use, measurement quality and overshoot."""

    limits: Budgets
    used: BudgetUsed
    usage_measurement: Literal["complete", "partial", "unavailable"]
    measured_input_tokens: int
    measured_output_tokens: int
    unmeasured_responses: int
    overshoot_tokens: int


@attrs.frozen(kw_only=True)
class PolicyInfo:
    """Policy denials by count and reason code."""

    on_denial: str
    denials: int
    denial_reasons: dict[str, int]


@attrs.frozen(kw_only=True)
class ToolSummary:
    """Per catalogue tool: logical calls and how they ended."""

    tool: str
    calls: int
    succeeded: int
    failed: int
    denied: int
    attempts: int


#: `ToolSummary` from its fields, in order (record building; `_common._slots`).
new_tool_summary = slot_builder(ToolSummary)


@attrs.frozen(kw_only=True)
class OperationSummary:
    """The operation ledger by status; ``omitted`` counts truncated entries."""

    total: int
    succeeded: int
    failed: int
    unknown: int
    pending: int
    omitted: int


@attrs.frozen(kw_only=True)
class OperationEntry:
    """One operation of the run's timeline: a model request or a tool-call attempt.

    Attributes:
        number: The operation's place in the run, from 1.
        kind: ``model_request`` or ``tool_call``.
        status: ``succeeded``, ``failed``, ``unknown`` (the outcome could not be
            confirmed) or ``admitted`` (the run stopped during it).
        tool: The catalogue tool of a tool call.
        attempt: The attempt of a tool call (above 1 for a retry).
        reason: The reason code of a failure or an unknown outcome.
    """

    number: int
    kind: Literal["model_request", "tool_call"]
    status: Literal["admitted", "succeeded", "failed", "unknown"]
    tool: str | None = None
    attempt: int = 1
    reason: str | None = None


#: `OperationEntry` from its fields, in order (up to 256 per record).
new_operation_entry = slot_builder(OperationEntry)


@attrs.frozen(kw_only=True)
class TimelineInfo:
    """The newest operations in order, bounded; ``omitted`` counts older ones."""

    entries: tuple[OperationEntry, ...] = ()
    omitted: int = 0


@attrs.frozen(kw_only=True)
class StateChangeInfo:
    """Before/after digests of successful changes, bounded."""

    count: int
    entries: tuple[StateChange, ...]
    omitted: int


@attrs.frozen(kw_only=True)
class EventInfo:
    """How many events were emitted and how many a slow reader dropped."""

    emitted: int
    dropped: int
    readers: int


@attrs.frozen(kw_only=True)
class CleanupInfo:
    """Whether everything the run owned is confirmed released."""

    status: Literal["complete", "unresolved", "not_needed"]
    reason: str | None
    timeout_ms: int
    unresolved: int = 0


@attrs.frozen(kw_only=True)
class PreflightInfo:
    """The capability probe: selection, result, and what it consumed."""

    mode: Literal["off", "probe", "only"]
    status: Literal["passed", "failed", "not_run"]
    reason: str | None
    model_requests: int
    tool_calls: int
    input_tokens: int
    output_tokens: int
    unmeasured_responses: int


@attrs.frozen(kw_only=True)
class JudgeInfo:
    """The explicitly configured judge, its limits and its own usage."""

    configured: bool
    provider: str | None = None
    model: str | None = None
    transport_digest: str | None = None
    max_requests: int | None = None
    max_tokens: int | None = None
    timeout_ms: int | None = None
    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    usage_measurement: Literal["complete", "partial", "unavailable"] = "complete"


@attrs.frozen(kw_only=True)
class FaultKindInfo:
    """Declarations and injections of one fault kind."""

    declared: int
    injected: int


@attrs.frozen(kw_only=True)
class FaultInfo:
    """Declared faults and retries: counts only, never fixtures or instructions.

    Attributes:
        declared: Declarations in the workflow.
        injected: Declarations injected (each at most once).
        unconsumed: Declarations never reached.
        by_kind: Declared and injected counts per kind.
        max_attempts: The workflow's ``retry.max_attempts``.
        retries: Automatic retries made.
        recovered_calls: Logical calls that failed, were retried and succeeded.
        exhausted_calls: Logical calls that met a fault and ended failed.
        attempts_per_call: For calls that met a fault: attempts → calls.
    """

    declared: int
    injected: int
    unconsumed: int
    by_kind: dict[str, FaultKindInfo]
    max_attempts: int
    retries: int
    recovered_calls: int
    exhausted_calls: int
    attempts_per_call: dict[str, int]


@attrs.frozen(kw_only=True)
class RecoveryInfo:
    """Checkpointing and resume: which attempt this is and whether it can resume.

    Attributes:
        checkpointing: Whether the run wrote a checkpoint.
        attempt_number: 1 for a fresh run, +1 for every resume.
        resumed_from_attempt: The attempt this one resumed, if any.
        checkpoint_status: ``none``, ``resumable`` (a confirmed pause),
            ``terminal``, ``not_resumable`` (interrupted) or ``active``.
        resumable: Whether the checkpoint can be resumed.
        pause_after_actions: The pause threshold of this attempt, if any.
    """

    checkpointing: bool = False
    attempt_number: int = 1
    resumed_from_attempt: str | None = None
    checkpoint_status: Literal[
        "none", "resumable", "terminal", "not_resumable", "active"
    ] = "none"
    resumable: bool = False
    pause_after_actions: int | None = None


@attrs.frozen(kw_only=True)
class TelemetryInfo:
    """What OpenTelemetry export did for this attempt (SPEC 25).

    Attributes:
        exported: Spans the collector accepted.
        dropped: Spans not exported: refused, unanswered within the 1 s flush
            bound, or over the per-run cap.
    """

    exported: int
    dropped: int


@attrs.frozen(kw_only=True)
class ReplayInfo:
    """How a replayed run was answered (SPEC 22): a digest, never content.

    Attributes:
        cassette_digest: The digest of the cassette file the run replayed.
        mode: ``strict`` (each request checked against the recorded one) or
            ``lenient`` (position only).
        fork_at: After how many replayed model responses the live target took
            over (``--replay-until K``), or ``None`` when every response came
            from the cassette.
    """

    cassette_digest: str
    mode: Literal["strict", "lenient"]
    fork_at: int | None = None


@attrs.frozen(kw_only=True)
class CassetteInfo:
    """The cassette a recorded run kept (SPEC 22): its digest, never content."""

    digest: str


@attrs.frozen(kw_only=True)
class McpServerInfo:
    """An MCP server a run used: its entry name, transport and lifetime.

    ``lifetime`` is ``suite`` when the server was shared by a suite's runs.
    """

    name: str
    transport: Literal["stdio", "streamable_http"]
    lifetime: Literal["run", "suite"]


@attrs.frozen(kw_only=True)
class McpToolInfo:
    """An MCP tool a run declared: its name, server and schema digest."""

    name: str
    server: str
    schema_digest: str


@attrs.frozen(kw_only=True)
class McpInfo:
    """The MCP servers and tools of a run (SPEC 24); absent without any."""

    servers: tuple[McpServerInfo, ...] = ()
    tools: tuple[McpToolInfo, ...] = ()


@attrs.frozen(kw_only=True)
class ExecutionRecord:
    """The bounded, metadata-only record of one run attempt (schema version 4).

    ``verdict`` says what the run amounts to (SPEC 20) and why when it did not pass.
    """

    run_id: str
    attempt_id: str
    workflow: WorkflowInfo
    target: TargetInfo
    environment_kind: str
    execution: ExecutionInfo
    exit_code: int
    budget: BudgetInfo
    policy: PolicyInfo
    tools: tuple[ToolSummary, ...]
    operations: OperationSummary
    state_changes: StateChangeInfo
    events: EventInfo
    cleanup: CleanupInfo
    preflight: PreflightInfo
    judge: JudgeInfo
    faults: FaultInfo
    recovery: RecoveryInfo
    task_verification: TaskVerification
    verdict: RunVerdict
    timeline: TimelineInfo = attrs.field(factory=TimelineInfo)
    #: ``None`` when telemetry export was not asked for.
    telemetry: TelemetryInfo | None = None
    mcp: McpInfo | None = None
    #: The dataset case the run is of; ``None`` (and absent) without cases.
    case: CaseInfo | None = None
    #: ``None`` unless the run was replayed from a cassette.
    replay: ReplayInfo | None = None
    #: ``None`` unless the run's model exchanges were recorded to a cassette.
    cassette: CassetteInfo | None = None
    schema: str = RECORD_SCHEMA
    schema_version: int = RECORD_SCHEMA_VERSION


_OPTIONAL_PARTS = ("mcp", "case", "replay", "cassette")


def _omit_absent_mcp(hook: Any) -> Any:
    """Wrap ExecutionRecord's unstructure hook: no key for an absent option.

    ``mcp``, ``case``, ``replay`` and ``cassette`` appear only when the run used
    them, so records of runs without them stay as they were.
    """

    def unstructure(record: ExecutionRecord) -> dict[str, Any]:
        document: dict[str, Any] = hook(record)
        for key in _OPTIONAL_PARTS:
            if document.get(key) is None:
                document.pop(key, None)
        return document

    return unstructure


def _omit_absent_identity(hook: Any) -> Any:
    """Wrap TargetInfo's unstructure hook: no ``id``/``version`` key when unset."""

    def unstructure(target: TargetInfo) -> dict[str, Any]:
        document: dict[str, Any] = hook(target)
        for key in ("id", "version"):
            if document.get(key) is None:
                document.pop(key, None)
        return document

    return unstructure


CONVERTER.register_unstructure_hook(
    TargetInfo, _omit_absent_identity(CONVERTER.get_unstructure_hook(TargetInfo))
)
CONVERTER.register_unstructure_hook(
    ExecutionRecord,
    _omit_absent_mcp(CONVERTER.get_unstructure_hook(ExecutionRecord)),
)
