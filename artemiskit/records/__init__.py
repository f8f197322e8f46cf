"""Execution records: the bounded, metadata-only evidence of a run."""

from __future__ import annotations

from artemiskit.records._io import record_from_dict, record_schema, record_to_dict
from artemiskit.records._record import (
    RECORD_SCHEMA,
    RECORD_SCHEMA_VERSION,
    BudgetInfo,
    BudgetLimits,
    BudgetUsed,
    CleanupInfo,
    EventInfo,
    ExecutionInfo,
    ExecutionRecord,
    FaultInfo,
    FaultKindInfo,
    JudgeInfo,
    OperationSummary,
    PolicyInfo,
    PreflightInfo,
    RecoveryInfo,
    StateChangeInfo,
    TargetInfo,
    ToolSummary,
    WorkflowInfo,
)
from artemiskit.records._verification import (
    RequirementResult,
    StateChange,
    TaskVerification,
    Verdict,
)

__all__ = [
    "BudgetInfo",
    "BudgetLimits",
    "BudgetUsed",
    "CleanupInfo",
    "EventInfo",
    "ExecutionInfo",
    "ExecutionRecord",
    "FaultInfo",
    "FaultKindInfo",
    "JudgeInfo",
    "OperationSummary",
    "PolicyInfo",
    "PreflightInfo",
    "RECORD_SCHEMA",
    "RECORD_SCHEMA_VERSION",
    "RecoveryInfo",
    "RequirementResult",
    "StateChange",
    "StateChangeInfo",
    "TargetInfo",
    "TaskVerification",
    "ToolSummary",
    "Verdict",
    "WorkflowInfo",
    "record_from_dict",
    "record_schema",
    "record_to_dict",
]
