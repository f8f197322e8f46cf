"""Turn a finished session state into the final state export and the record."""

from __future__ import annotations

import json
import operator
import re
from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._budgets import Budgets
from artemiskit._common._converter import CONVERTER
from artemiskit._common._digests import json_digest
from artemiskit._exit_codes import ExitCode
from artemiskit.engine._judge import JudgeSettings, JudgeUsage
from artemiskit.records._record import (
    BudgetInfo,
    BudgetUsed,
    CassetteInfo,
    CleanupInfo,
    EventInfo,
    ExecutionInfo,
    ExecutionRecord,
    FaultInfo,
    FaultKindInfo,
    JudgeInfo,
    McpInfo,
    OperationSummary,
    PolicyInfo,
    PreflightInfo,
    RecoveryInfo,
    ReplayInfo,
    StateChangeInfo,
    TimelineInfo,
    ToolSummary,
    WorkflowInfo,
    new_operation_entry,
    new_tool_summary,
)
from artemiskit.records._verdict import decide_verdict

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from artemiskit.engine._faults import FaultSchedule
    from artemiskit.engine._plan import SessionPlan
    from artemiskit.engine._preflight import PreflightMode, PreflightSummary
    from artemiskit.engine._state import LocalState, SessionState, Stop
    from artemiskit.records._verification import TaskVerification
    from artemiskit.workflow._model import Workflow

__all__ = [
    "build_record",
    "contract_digest",
    "exit_code_for",
    "final_state",
    "utc_timestamp",
    "workflow_digest",
]


def utc_timestamp(moment: datetime) -> str:
    """An ISO 8601 UTC timestamp with milliseconds."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def workflow_digest(workflow: Workflow) -> str:
    """A digest of the canonical JSON of the whole validated workflow.

    The target section included: a checkpoint binds to it, so that a paused run
    never resumes on another model (SPEC 19). A workflow is frozen, so the
    digest of one that many sessions share (1000 sessions of one file) is
    computed once and remembered for that object.
    """
    return _remembered(workflow, "workflow", _whole_digest)


def contract_digest(workflow: Workflow) -> str:
    """A digest of the workflow's contract: everything but its ``target`` section.

    Records and suites carry this one (SPEC 19): the same contract run on
    another model keeps its digest, and the target has an identity of its own
    (the record's ``target.id``). Remembered per workflow object like
    `workflow_digest`.
    """
    return _remembered(workflow, "contract", _contract_digest)


def _whole_digest(workflow: Workflow) -> str:
    return json_digest(CONVERTER.unstructure(workflow))


def _contract_digest(workflow: Workflow) -> str:
    document = CONVERTER.unstructure(workflow)
    document.pop("target", None)
    return json_digest(document)


def _remembered(
    workflow: Workflow, kind: str, compute: Callable[[Workflow], str]
) -> str:
    key = (id(workflow), kind)
    cached = _DIGESTS.get(key)
    if cached is not None and cached[0] is workflow:
        return cached[1]
    digest = compute(workflow)
    if len(_DIGESTS) >= _DIGESTS_KEPT:
        _DIGESTS.clear()
    _DIGESTS[key] = (workflow, digest)
    return digest


#: Digests of recent workflows by object id and kind; the entry keeps its
#: workflow alive, so the id cannot be reused by another object while it is
#: remembered.
_DIGESTS: dict[tuple[int, str], tuple[Workflow, str]] = {}
_DIGESTS_KEPT = 512


def final_state(files: Mapping[str, str], local: LocalState) -> dict[str, Any]:
    """The final state in the SPEC 3.1 layout (sensitive working data)."""
    return {
        "files": dict(sorted(files.items())),
        "documents": {
            doc_id: {"title": doc.title, "content": doc.content}
            for doc_id, doc in local.documents.items()
        },
        "records": {
            table: {rid: dict(fields) for rid, fields in rows.items()}
            for table, rows in local.records.items()
        },
        "drafts": [attrs.asdict(d) for d in local.drafts],
        "approvals": [attrs.asdict(a) for a in local.approvals],
        "delegations": [attrs.asdict(d) for d in local.delegations],
        **_sections(local),
    }


def _sections(local: LocalState) -> dict[str, Any]:
    """Each tool's own section under ``tools.<name>``; absent when no tool has one."""
    if not local.sections:
        return {}
    sections = {name: local.sections[name] for name in sorted(local.sections)}
    return {"tools": json.loads(json.dumps(sections))}


_VERIFICATION_EXIT_CODES = {
    "passed": ExitCode.OK,
    "failed": ExitCode.TASK_FAILED,
    "unavailable": ExitCode.EVALUATION_UNAVAILABLE,
}


def exit_code_for(
    stop: Stop | None,
    verification: TaskVerification,
    cleanup: CleanupInfo,
    *,
    evaluation_cancelled: bool = False,
) -> int:
    """The SPEC 9 exit code of an attempt."""
    if stop is not None:
        # A pause whose cleanup failed is no confirmed safe pause (SPEC 9).
        confirmed = (ExitCode.OK, ExitCode.PAUSED)
        if stop.exit_code in confirmed and cleanup.status == "unresolved":
            return ExitCode.RUNTIME_FAILURE
        return stop.exit_code
    if evaluation_cancelled:
        return ExitCode.CANCELLED
    code = _VERIFICATION_EXIT_CODES[verification.status]
    if cleanup.status == "unresolved":
        return ExitCode.RUNTIME_FAILURE
    return code


#: Where `_tool_summaries` counts each trace status: calls, then these.
_TALLY_SLOTS = {"succeeded": 1, "failed": 2, "denied": 3}
_tool_summary = new_tool_summary
_operation_entry = new_operation_entry
_STATUS = operator.attrgetter("status")


def _tool_summaries(state: SessionState) -> tuple[ToolSummary, ...]:
    # per tool: calls, succeeded, failed, denied, attempts (one pass, no Counter)
    tallies: dict[str, list[int]] = {}
    for entry in state.trace:
        tool = entry.tool
        if tool == "undeclared":
            continue
        tally = tallies.get(tool)
        if tally is None:
            tally = tallies[tool] = [0, 0, 0, 0, 0]
        tally[0] += 1
        slot = _TALLY_SLOTS.get(entry.status)
        if slot is not None:
            tally[slot] += 1
        if entry.status != "denied":
            tally[4] += entry.attempts
    return tuple(_tool_summary(tool, *tally) for tool, tally in sorted(tallies.items()))


def build_record(
    plan: SessionPlan,
    *,
    run_id: str,
    attempt_id: str,
    state: SessionState,
    verification: TaskVerification,
    cleanup: CleanupInfo,
    events: EventInfo,
    started: datetime,
    finished: datetime,
    judge_usage: JudgeUsage | None = None,
    evaluation_cancelled: bool = False,
    recovery: RecoveryInfo | None = None,
    mcp: McpInfo | None = None,
    replay: ReplayInfo | None = None,
    cassette: CassetteInfo | None = None,
) -> ExecutionRecord:
    """Assemble the metadata-only record of one attempt of ``plan``."""
    workflow = plan.workflow
    target = plan.target_info
    stop = state.stop
    counters = state.counters
    complete = counters.usage_measurement == "complete"
    status_counts = Counter(map(_STATUS, state.ledger))
    budgets = workflow.budgets
    status = stop.status if stop else "completed"
    reason = stop.reason if stop else "all_turns_completed"
    exit_code = exit_code_for(
        stop, verification, cleanup, evaluation_cancelled=evaluation_cancelled
    )
    return ExecutionRecord(
        run_id=run_id,
        attempt_id=attempt_id,
        workflow=WorkflowInfo(name=workflow.name, digest=contract_digest(workflow)),
        target=target
        if target.provider_retries == counters.provider_retries
        else attrs.evolve(target, provider_retries=counters.provider_retries),
        environment_kind=workflow.environment.kind,
        execution=ExecutionInfo(
            status=status,
            reason=reason,
            started_at=utc_timestamp(started),
            finished_at=utc_timestamp(finished),
            duration_ms=max(int((finished - started).total_seconds() * 1000), 0),
        ),
        exit_code=exit_code,
        budget=BudgetInfo(
            limits=Budgets(
                max_actions=budgets.max_actions,
                timeout_ms=budgets.timeout_ms,
                max_model_requests=budgets.max_model_requests,
                max_tool_calls=budgets.max_tool_calls,
                max_tokens=budgets.max_tokens,
            ),
            used=BudgetUsed(
                actions=counters.actions,
                model_requests=counters.model_requests,
                tool_calls=counters.tool_calls,
                input_tokens=counters.measured_input_tokens if complete else None,
                output_tokens=counters.measured_output_tokens if complete else None,
            ),
            usage_measurement=counters.usage_measurement,
            measured_input_tokens=counters.measured_input_tokens,
            measured_output_tokens=counters.measured_output_tokens,
            unmeasured_responses=counters.unmeasured_responses,
            overshoot_tokens=state.overshoot_tokens,
        ),
        policy=PolicyInfo(
            on_denial=workflow.policy.on_denial,
            denials=len(state.denials),
            denial_reasons=dict(
                sorted(Counter(d.reason for d in state.denials).items())
            ),
        ),
        tools=_tool_summaries(state),
        operations=OperationSummary(
            total=len(state.ledger) + state.ledger_omitted,
            succeeded=status_counts["succeeded"],
            failed=status_counts["failed"],
            unknown=status_counts["unknown"],
            pending=status_counts["admitted"],
            omitted=state.ledger_omitted,
        ),
        state_changes=StateChangeInfo(
            count=len(state.changes) + state.changes_omitted,
            entries=state.changes,
            omitted=state.changes_omitted,
        ),
        events=events,
        cleanup=cleanup,
        preflight=_preflight_info(plan.preflight, state.preflight),
        judge=_judge_info(plan.judge, judge_usage),
        faults=_fault_info(state.faults, workflow.retry.max_attempts),
        recovery=recovery or RecoveryInfo(),
        task_verification=verification,
        verdict=decide_verdict(
            execution_status=status,
            execution_reason=reason,
            exit_code=exit_code,
            verification=verification,
            cleanup_status=cleanup.status,
            cleanup_reason=cleanup.reason,
            step=_last_step(state),
        ),
        timeline=_timeline(state),
        mcp=mcp,
        case=plan.case,
        replay=replay,
        cassette=cassette,
    )


#: The record keeps this many of the newest operations in order (SPEC 14 timeline).
MAX_TIMELINE = 256
_REASON_CODE = re.compile(r"[a-z0-9_]{1,64}")


def _timeline(state: SessionState) -> TimelineInfo:
    """The newest operations of the ledger, in order, as metadata only."""
    ledger = state.ledger
    kept = ledger if len(ledger) <= MAX_TIMELINE else ledger[-MAX_TIMELINE:]
    return TimelineInfo(
        entries=tuple(
            _operation_entry(
                int(op.id.rpartition("-")[2]),
                op.kind,
                op.status,
                op.tool,
                op.attempt,
                op.reason
                if op.reason is not None and _REASON_CODE.fullmatch(op.reason)
                else None,
            )
            for op in kept
        ),
        omitted=len(ledger) + state.ledger_omitted - len(kept),
    )


def _last_step(state: SessionState) -> int | None:
    """The number of the run's last operation; ``None`` when none was admitted."""
    ledger = state.ledger
    if not ledger:
        return None
    return int(ledger[-1].id.rpartition("-")[2])


def _preflight_info(
    mode: PreflightMode, summary: PreflightSummary | None
) -> PreflightInfo:
    if summary is None:
        return _NOT_RUN[mode]
    return PreflightInfo(mode=mode, **attrs.asdict(summary))


#: The preflight part of a record without a probe, per mode (frozen: shared).
_NOT_RUN: dict[str, PreflightInfo] = {
    mode: PreflightInfo(
        mode=mode,
        status="not_run",
        reason=None,
        model_requests=0,
        tool_calls=0,
        input_tokens=0,
        output_tokens=0,
        unmeasured_responses=0,
    )
    for mode in ("off", "probe", "only")
}
#: The judge part of a record without a judge (frozen: shared).
_NO_JUDGE = JudgeInfo(configured=False)


def _judge_info(judge: JudgeSettings | None, usage: JudgeUsage | None) -> JudgeInfo:
    if judge is None:
        return _NO_JUDGE
    usage = usage or JudgeUsage()
    return JudgeInfo(
        configured=True,
        provider=judge.provider,
        model=judge.model,
        transport_digest=judge.transport_digest,
        max_requests=judge.max_requests,
        max_tokens=judge.max_tokens,
        timeout_ms=judge.timeout_ms,
        requests=usage.requests,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        usage_measurement=usage.usage_measurement,
    )


def _fault_info(schedule: FaultSchedule, max_attempts: int) -> FaultInfo:
    declared = Counter(f.kind for f in schedule.faults)
    injected = sum(1 for f in schedule.faults if f.consumed)
    return FaultInfo(
        declared=len(schedule.faults),
        injected=injected,
        unconsumed=len(schedule.faults) - injected,
        by_kind={
            kind: FaultKindInfo(
                declared=declared[kind], injected=schedule.injected.get(kind, 0)
            )
            for kind in sorted(declared)
        },
        max_attempts=max_attempts,
        retries=schedule.retries,
        recovered_calls=schedule.recovered,
        exhausted_calls=schedule.exhausted,
        attempts_per_call=dict(sorted(schedule.attempts.items())),
    )
