"""The suite record (``suite.json``, SPEC 13, 26) as typed, frozen data.

Every part is the exact shape ``suite.json`` version 2 has on disk, field for
field and in order, so unstructuring a record with the project's converter and
encoding it gives the bytes a suite writes. Optional keys that a suite leaves
out when unused (a run's ``case`` and ``target``, the chosen ``targets`` and the
``gate`` of the settings, the ``telemetry`` totals, a bootstrap's ``seed``, the
suite's ``targets``) are omitted when ``None``. Metadata only: names, digests,
identities, statuses, reason codes, counters and statistics.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from artemiskit._common._converter import CONVERTER
from artemiskit.records._record import TelemetryInfo
from artemiskit.records._verdict import Cause, VerdictStatus

__all__ = [
    "SUITE_SCHEMA",
    "SUITE_SCHEMA_VERSION",
    "BudgetUseInfo",
    "CaseSelectionInfo",
    "CauseCount",
    "PassRateInterval",
    "PassRateRange",
    "RequirementCounts",
    "SuiteRecord",
    "SuiteRunInfo",
    "SuiteSettingsInfo",
    "SuiteStatus",
    "SuiteTargetInfo",
    "SuiteTotals",
    "SuiteUnitInfo",
    "SuiteWorkflowInfo",
    "UsePercentiles",
]

SUITE_SCHEMA = "artemiskit.suite-record"
SUITE_SCHEMA_VERSION = 2

SuiteStatus = Literal["completed", "cancelled", "budget_exhausted", "failed_fast"]
"""How a suite ended (SPEC 13)."""


@attrs.frozen(kw_only=True)
class CaseSelectionInfo:
    """Which cases ran (SPEC 19): ``--case`` ids, or a seeded ``--sample``.

    Attributes:
        ids: The chosen case ids; ``None`` when a sample was drawn.
        sample: How many cases were sampled; ``None`` for chosen ids.
        seed: The sample's seed; ``None`` for chosen ids.
    """

    ids: tuple[str, ...] | None
    sample: int | None
    seed: int | None


@attrs.frozen(kw_only=True)
class SuiteSettingsInfo:
    """What the suite was asked to do.

    Attributes:
        repeat: Runs per unit.
        concurrency: Runs in flight at most.
        executor: Where runs executed (``local``, ``ray``, ...).
        min_pass_rate: The gate every workflow had to reach.
        max_suite_tokens: The suite's token budget; ``None`` without one.
        max_errored: Errored runs tolerated before exit 7.
        gate: What ``min_pass_rate`` judged (``point`` or ``lower-bound``);
            ``None`` in suites written before gates.
        cases: Which cases ran; ``None`` when every case ran.
        targets: The targets chosen to replace every workflow's own, in order;
            ``None`` when each workflow ran its own.
    """

    repeat: int
    concurrency: int
    executor: str
    min_pass_rate: int | float  # as given: 0 stays 0, and 0.0 stays 0.0
    max_suite_tokens: int | None
    max_errored: int
    gate: Literal["point", "lower-bound"] | None = None
    cases: CaseSelectionInfo | None = None
    targets: tuple[str, ...] | None = None


@attrs.frozen(kw_only=True)
class SuiteTotals:
    """The suite's totals over every finished run.

    Attributes:
        runs_planned: Units times repetitions.
        runs_finished: Runs that finished (lost ones included).
        runs_not_started: Planned runs never started.
        runs_lost: Runs whose executor could not say what happened.
        passed: Runs that passed.
        failed: Runs that failed.
        errored: Runs that errored (lost ones included).
        unavailable: Runs that could not be judged.
        input_tokens: Measured input tokens; ``None`` when any run's usage was
            unmeasured.
        output_tokens: Measured output tokens; ``None`` likewise.
        usage_measurement: ``complete``, ``partial`` or ``unavailable``.
        model_requests: Model requests made.
        tool_calls: Tool calls made.
        duration_ms: The suite's wall time.
        telemetry: OpenTelemetry spans exported and dropped; ``None`` when
            export was not asked for.
    """

    runs_planned: int
    runs_finished: int
    runs_not_started: int
    runs_lost: int
    passed: int
    failed: int
    errored: int
    unavailable: int
    input_tokens: int | None
    output_tokens: int | None
    usage_measurement: Literal["complete", "partial", "unavailable"]
    model_requests: int
    tool_calls: int
    duration_ms: int
    telemetry: TelemetryInfo | None = None


@attrs.frozen(kw_only=True)
class PassRateInterval:
    """A pass rate's 95% interval.

    Attributes:
        low: The lower bound.
        high: The upper bound.
        method: ``wilson`` (pooled runs), ``cluster-robust`` (the mean of unit
            rates with cases as clusters) or ``cluster-bootstrap``.
        confidence: 0.95.
        seed: A cluster bootstrap's seed; ``None`` otherwise.
    """

    low: float
    high: float
    method: Literal["wilson", "cluster-robust", "cluster-bootstrap"]
    confidence: float
    seed: int | None = None


@attrs.frozen(kw_only=True)
class PassRateRange:
    """The pass rate if every errored and unavailable run had failed / passed."""

    low: float
    high: float


@attrs.frozen(kw_only=True)
class SuiteUnitInfo:
    """One (workflow, case, target) of a suite and its pass-rate statistics.

    Attributes:
        workflow: The workflow's name.
        case: The case id; ``None`` for a workflow without cases.
        target: The target's id (``default`` in a version-1 suite).
        runs: Finished runs of the unit.
        passed: Runs that passed.
        failed: Runs that failed.
        errored: Runs that errored.
        unavailable: Runs that could not be judged.
        pass_rate: passed / (passed + failed); ``None`` when nothing was judged.
        pass_rate_interval: Its Wilson interval; ``None`` likewise.
        pass_at_k: pass@k by k (``"1"`` to the judged runs).
        pass_hat_k: pass^k by k.
        pass_rate_range: See `PassRateRange`; ``None`` when no run finished.
    """

    workflow: str
    case: str | None
    target: str
    runs: int
    passed: int
    failed: int
    errored: int
    unavailable: int
    pass_rate: float | None
    pass_rate_interval: PassRateInterval | None
    pass_at_k: dict[str, float]
    pass_hat_k: dict[str, float]
    pass_rate_range: PassRateRange | None


@attrs.frozen(kw_only=True)
class SuiteRunInfo:
    """One finished run as ``suite.json`` lists it.

    Attributes:
        repetition: The repetition, from 1.
        case: The case the run is of; ``None`` (and absent) without cases.
        run_id: The run's id; ``None`` for a lost run.
        record: The record file relative to the output folder, when kept.
        execution_status: The record's execution status (``None``: lost).
        execution_reason: Its reason code (``None``: lost).
        verification: Task verification's status (``None``: lost).
        exit_code: The run's exit code (7 for a lost run).
        duration_ms: The run's wall time as the suite saw it.
        input_tokens: Measured input tokens (``None``: unmeasured or lost).
        output_tokens: Measured output tokens (likewise).
        lost: Whether the run was lost.
        lost_reason: Why a lost run was lost; ``None`` otherwise.
        verdict: ``passed``, ``failed``, ``errored`` or ``unavailable``.
        why: The run's first decisive cause; ``None`` for a pass or when it was
            never recorded.
        target: The target the run ran on, when its workflow ran on several
            (``None`` and absent otherwise).
    """

    repetition: int
    case: str | None = None
    run_id: str | None
    record: str | None
    execution_status: str | None
    execution_reason: str | None
    verification: Literal["passed", "failed", "unavailable"] | None
    exit_code: int
    duration_ms: int
    input_tokens: int | None
    output_tokens: int | None
    lost: bool
    lost_reason: str | None = None
    verdict: VerdictStatus
    why: Cause | None
    target: str | None = None


@attrs.frozen(kw_only=True)
class RequirementCounts:
    """How one requirement fared over a workflow's runs."""

    id: str
    passed: int
    failed: int
    unavailable: int


@attrs.frozen(kw_only=True)
class CauseCount:
    """One cause of runs that did not pass, with how many runs it decided."""

    kind: Literal["requirement", "stop", "infrastructure"]
    id: str | None
    reason: str
    runs: int

    @property
    def text(self) -> str:
        """``<id or reason> (<reason code>)``, as `Cause.text`."""
        return Cause(kind=self.kind, id=self.id, reason=self.reason).text


@attrs.frozen(kw_only=True)
class UsePercentiles:
    """Budget use as fractions of the declared limit: median, p95, maximum."""

    p50: float
    p95: float
    max: float


@attrs.frozen(kw_only=True)
class BudgetUseInfo:
    """A workflow's budget use per dimension; ``None`` where no limit was declared."""

    actions: UsePercentiles | None
    model_requests: UsePercentiles | None
    tool_calls: UsePercentiles | None
    tokens: UsePercentiles | None


@attrs.frozen(kw_only=True)
class SuiteWorkflowInfo:
    """One workflow's entry: its runs and their statistics.

    Attributes:
        name: The workflow's name.
        digest: The digest of its contract.
        target: The target it ran on; ``None`` when it ran on several.
        runs: Its finished runs, by case, target and repetition.
        passed: Runs that passed.
        failed: Runs that failed.
        errored: Runs that errored.
        unavailable: Runs that could not be judged.
        pass_rate: passed / (passed + failed), or with cases the mean of its
            units' rates; ``None`` when nothing was judged.
        pass_rate_interval: Wilson, or clustered with cases (SPEC 23).
        pass_at_k: pass@k by k over its runs.
        pass_hat_k: pass^k by k over its runs.
        pass_rate_range: See `PassRateRange`.
        requirements: Each requirement's counts, in first-seen order.
        failure_reasons: Reason codes of runs that did not pass, with counts.
        causes: The causes of runs that did not pass, most frequent first.
        budget_use: Budget use per dimension.
    """

    name: str
    digest: str
    target: str | None
    runs: tuple[SuiteRunInfo, ...]
    passed: int
    failed: int
    errored: int
    unavailable: int
    pass_rate: float | None
    pass_rate_interval: PassRateInterval | None
    pass_at_k: dict[str, float]
    pass_hat_k: dict[str, float]
    pass_rate_range: PassRateRange | None
    requirements: tuple[RequirementCounts, ...]
    failure_reasons: dict[str, int]
    causes: tuple[CauseCount, ...]
    budget_use: BudgetUseInfo


@attrs.frozen(kw_only=True)
class SuiteTargetInfo:
    """One target's units together: counts, mean rate and clustered interval."""

    target: str
    units: int
    passed: int
    failed: int
    errored: int
    unavailable: int
    pass_rate: float | None
    pass_rate_interval: PassRateInterval | None


@attrs.frozen(kw_only=True)
class SuiteRecord:
    """``suite.json`` (SPEC 13, 26): what a suite did, metadata only.

    Attributes:
        schema: ``artemiskit.suite-record``.
        schema_version: 2 (a version-1 file is read into this shape).
        suite_id: The suite's id.
        started_at: When it started (ISO 8601, UTC).
        finished_at: When it finished; ``None`` while it runs.
        status: ``completed``, ``cancelled``, ``budget_exhausted`` or
            ``failed_fast``.
        reason: Why it ended so (a reason code).
        settings: What it was asked to do.
        totals: Its totals.
        exit_code: Its exit code; ``None`` while it runs.
        units: Every (workflow, case, target) with its statistics.
        workflows: Every workflow with its runs, in suite order.
        targets: Each target's aggregate; ``None`` in suites written before
            target matrices.
    """

    schema: str = SUITE_SCHEMA
    schema_version: int = SUITE_SCHEMA_VERSION
    suite_id: str
    started_at: str
    finished_at: str | None
    status: SuiteStatus
    reason: str
    settings: SuiteSettingsInfo
    totals: SuiteTotals
    exit_code: int | None
    units: tuple[SuiteUnitInfo, ...]
    workflows: tuple[SuiteWorkflowInfo, ...]
    targets: tuple[SuiteTargetInfo, ...] | None = None

    def workflow(self, name: str) -> SuiteWorkflowInfo | None:
        """The workflow entry named ``name``, if any."""
        return next((w for w in self.workflows if w.name == name), None)


def _omitting_none(cls: type[Any], *names: str) -> None:
    """Unstructure ``cls`` without the keys ``names`` when their value is ``None``.

    The keys that stay keep their order (the file's field order).
    """
    hook = CONVERTER.get_unstructure_hook(cls)

    def unstructure(value: Any) -> dict[str, Any]:
        document: dict[str, Any] = hook(value)
        for name in names:
            if document.get(name, 0) is None:
                del document[name]
        return document

    CONVERTER.register_unstructure_hook(cls, unstructure)


_omitting_none(SuiteSettingsInfo, "gate", "targets")
_omitting_none(SuiteTotals, "telemetry")
_omitting_none(PassRateInterval, "seed")
_omitting_none(SuiteRunInfo, "case", "target")
_omitting_none(SuiteRecord, "targets")
