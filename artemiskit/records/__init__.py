"""Records: the bounded, metadata-only evidence of a run and of a suite.

Also the cassettes of record and replay (SPEC 22): `Cassette` and its schema,
read with `load_cassette`; the targets that record and replay them are in
`artemiskit.providers`.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit._common._atomic import (
        write_atomically as write_atomically,
    )
    from artemiskit.records._cassette import (
        CASSETTE_SCHEMA as CASSETTE_SCHEMA,
        CASSETTE_SCHEMA_VERSION as CASSETTE_SCHEMA_VERSION,
        Cassette as Cassette,
        CassetteExchange as CassetteExchange,
        CassetteHeader as CassetteHeader,
        cassette_schema as cassette_schema,
        load_cassette as load_cassette,
    )
    from artemiskit.records._io import (
        record_from_dict as record_from_dict,
        record_schema as record_schema,
        record_to_dict as record_to_dict,
    )
    from artemiskit.records._record import (
        RECORD_SCHEMA as RECORD_SCHEMA,
        RECORD_SCHEMA_VERSION as RECORD_SCHEMA_VERSION,
        BudgetInfo as BudgetInfo,
        BudgetUsed as BudgetUsed,
        CaseInfo as CaseInfo,
        CassetteInfo as CassetteInfo,
        CleanupInfo as CleanupInfo,
        EventInfo as EventInfo,
        ExecutionInfo as ExecutionInfo,
        ExecutionRecord as ExecutionRecord,
        FaultInfo as FaultInfo,
        FaultKindInfo as FaultKindInfo,
        JudgeInfo as JudgeInfo,
        McpInfo as McpInfo,
        McpServerInfo as McpServerInfo,
        McpToolInfo as McpToolInfo,
        OperationEntry as OperationEntry,
        OperationSummary as OperationSummary,
        PolicyInfo as PolicyInfo,
        PreflightInfo as PreflightInfo,
        RecoveryInfo as RecoveryInfo,
        ReplayInfo as ReplayInfo,
        StateChangeInfo as StateChangeInfo,
        TargetInfo as TargetInfo,
        TelemetryInfo as TelemetryInfo,
        TimelineInfo as TimelineInfo,
        ToolSummary as ToolSummary,
        WorkflowInfo as WorkflowInfo,
    )
    from artemiskit.records._suite import (
        BudgetUseInfo as BudgetUseInfo,
        CaseSelectionInfo as CaseSelectionInfo,
        CauseCount as CauseCount,
        PassRateInterval as PassRateInterval,
        PassRateRange as PassRateRange,
        RequirementCounts as RequirementCounts,
        SuiteRecord as SuiteRecord,
        SuiteRunInfo as SuiteRunInfo,
        SuiteSettingsInfo as SuiteSettingsInfo,
        SuiteStatus as SuiteStatus,
        SuiteTargetInfo as SuiteTargetInfo,
        SuiteTotals as SuiteTotals,
        SuiteUnitInfo as SuiteUnitInfo,
        SuiteWorkflowInfo as SuiteWorkflowInfo,
        UsePercentiles as UsePercentiles,
    )
    from artemiskit.records._suite_io import (
        encode_suite_record as encode_suite_record,
        suite_record_to_dict as suite_record_to_dict,
    )
    from artemiskit.records._verdict import (
        Cause as Cause,
        RunVerdict as RunVerdict,
        VerdictStatus as VerdictStatus,
    )
    from artemiskit.records._verification import (
        JudgeEntry as JudgeEntry,
        JudgeScores as JudgeScores,
        RequirementResult as RequirementResult,
        ScorerEntry as ScorerEntry,
        StateChange as StateChange,
        TaskVerification as TaskVerification,
        Verdict as Verdict,
    )

_exports.export_lazily(
    globals(),
    deprecated={
        "BudgetLimits": _exports.Deprecated(
            module="artemiskit._common._budgets",
            attribute="Budgets",
            message=(
                "artemiskit.records.BudgetLimits is deprecated; the record's limits "
                "are artemiskit.workflow.Budgets, the caps the workflow declared"
            ),
        ),
        **_exports.retired(
            "artemiskit.records",
            {"artemiskit.records._verdict": ("verdict_status",)},
            "read record.verdict.status, which the record carries",
        ),
    },
)
