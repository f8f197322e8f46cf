"""The suite record (``suite.json``) built run by run: tallies, units, the exit.

The record is metadata only: names, digests, identities, statuses, reason codes,
counters and statistics. It is validated against the shipped JSON Schema on write
and on read, and every write replaces the file atomically, so a reader (or a suite
killed mid-write) only ever sees a whole, valid file.
"""

from __future__ import annotations

import bisect
import copy
import functools
from array import array
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Protocol, overload

import attrs
import fastjsonschema

from artemiskit._common._converter import CONVERTER
from artemiskit._common._statistics import (
    CONFIDENCE,
    exact_rate,
    exact_threshold,
    pass_at_k,
    pass_hat_k,
    percentile,
    wilson_interval,
)
from artemiskit._errors import WorkflowError
from artemiskit._exit_codes import ExitCode
from artemiskit.records import Cause, ExecutionRecord, RunVerdict
from artemiskit.records._suite import (
    BudgetUseInfo,
    CauseCount,
    PassRateInterval,
    PassRateRange,
    RequirementCounts,
    SuiteRecord,
    SuiteRunInfo,
    SuiteStatus,
    SuiteTargetInfo,
    SuiteTotals,
    SuiteUnitInfo,
    SuiteWorkflowInfo,
    UsePercentiles,
)
from artemiskit.records._suite_io import suite_record_schema
from artemiskit.records._verdict import lost_run_verdict
from artemiskit.suites._aggregate import aggregate_pass_rate, aggregate_rate_exact

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "CauseKey",
    "PassStatistics",
    "RunOutcome",
    "SuiteTally",
    "UnitCounts",
    "WorkflowTally",
    "aggregate_rate",
    "cause_counts",
    "cause_text",
    "check_suite_record",
    "check_unit_entry",
    "check_whole_suite_record",
    "check_workflow_entry",
    "exact_units_rate",
    "gated_rate",
    "make_unit",
    "pass_rate_range",
    "suite_exit_code",
    "summarize_workflow",
    "target_aggregates",
    "target_id",
    "totals",
    "unit_counts",
    "unit_of",
    "validate_run_entry",
    "with_workflow_aggregates",
]


_LIMITS = {
    "actions": "max_actions",
    "model_requests": "max_model_requests",
    "tool_calls": "max_tool_calls",
    "tokens": "max_tokens",
}


@attrs.frozen(kw_only=True)
class RunOutcome:
    """One finished run of a suite.

    Attributes:
        workflow: The workflow's name.
        repetition: The repetition, from 1.
        record: The run's execution record; ``None`` when the run was lost (the
            executor could not say what happened to it).
        record_file: The record's path relative to the output folder, when kept.
        duration_ms: The run's wall time as the suite saw it.
        lost_reason: Why a lost run was lost (``worker_died``, ``node_died``,
            ``task_cancelled``, ``run_error``, ...); ``None`` otherwise.
        target: The id of the target the run ran on (SPEC 19); ``None`` where
            it is not known (record files given loose to a report).
        case: The dataset case the run is of (SPEC 19); ``None`` for a
            workflow without cases.
    """

    workflow: str
    repetition: int
    record: ExecutionRecord | None
    record_file: str | None
    duration_ms: int
    lost_reason: str | None = None
    target: str | None = None
    case: str | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        """Where the run sorts within its workflow: case, target, repetition."""
        return (self.case or "", self.target or "", self.repetition)

    @property
    def lost(self) -> bool:
        """Whether the run was lost (no record)."""
        return self.record is None

    @property
    def exit_code(self) -> int:
        """The run's SPEC 9 exit code; `ExitCode.RUNTIME_FAILURE` (7) for a lost run."""
        return (
            ExitCode.RUNTIME_FAILURE if self.record is None else self.record.exit_code
        )

    @property
    def verdict(self) -> RunVerdict:
        """What the run amounts to (SPEC 20); a lost run is errored (``run_lost``)."""
        record = self.record
        if record is None:
            return lost_run_verdict(self.lost_reason or "run_error")
        return record.verdict

    def failure_reasons(self) -> list[str]:
        """The reason code of a run that did not pass (its cause's; ``run_lost``)."""
        record = self.record
        if record is None:
            return ["run_lost"]
        verdict = record.verdict
        if verdict.status == "passed":
            return []
        if verdict.why is not None:
            return [verdict.why.reason]
        if record.execution.status != "completed":
            return [record.execution.reason]
        failed = [
            r.reason
            for r in record.task_verification.requirements
            if r.status != "passed"
        ]
        return failed or [record.task_verification.reason]

    def entry(self, *, named: bool = True) -> SuiteRunInfo:
        """The run's entry in ``suite.json``.

        Args:
            named: Name the run's target (a workflow run on several targets);
                else the workflow's entry names it.
        """
        record = self.record
        verdict = self.verdict
        target = self.target if named else None
        if record is None:
            return SuiteRunInfo(
                repetition=self.repetition,
                case=self.case,
                run_id=None,
                record=self.record_file,
                execution_status=None,
                execution_reason=None,
                verification=None,
                exit_code=self.exit_code,
                duration_ms=self.duration_ms,
                input_tokens=None,
                output_tokens=None,
                lost=True,
                lost_reason=self.lost_reason or "run_error",
                verdict=verdict.status,
                why=verdict.why,
                target=target,
            )
        used = record.budget.used
        return SuiteRunInfo(
            repetition=self.repetition,
            case=self.case,
            run_id=record.run_id,
            record=self.record_file,
            execution_status=record.execution.status,
            execution_reason=record.execution.reason,
            verification=record.task_verification.status,
            exit_code=record.exit_code,
            duration_ms=self.duration_ms,
            input_tokens=used.input_tokens,
            output_tokens=used.output_tokens,
            lost=False,
            lost_reason=None,
            verdict=verdict.status,
            why=verdict.why,
            target=target,
        )


def cause_text(cause: Cause | CauseCount | Mapping[str, Any] | None) -> str:
    """A run's or a workflow's cause, shown as every view shows it.

    ``<id or reason> (<reason code>)``, as `Cause.text`; ``not recorded`` for a
    run whose cause was never recorded (a record from before schema version 4).
    A cause as plain ``suite.json`` data is shown the same way.
    """
    if cause is None:
        return "not recorded"
    if isinstance(cause, Cause | CauseCount):
        return cause.text
    return Cause(kind=cause["kind"], id=cause["id"], reason=cause["reason"]).text


CauseKey = tuple[Literal["requirement", "stop", "infrastructure"], str | None, str]
"""A cause as counted: its kind, id and reason code."""


def cause_counts(causes: Counter[CauseKey]) -> tuple[CauseCount, ...]:
    """A workflow's ``causes``: each cause with its runs, most frequent first."""
    return tuple(
        CauseCount(kind=kind, id=cid, reason=reason, runs=runs)
        for (kind, cid, reason), runs in sorted(
            causes.items(), key=lambda item: (-item[1], item[0][1] or "", item[0][2])
        )
    )


def target_id(provider: str, model: str) -> str:
    """The id of a workflow's target in ``suite.json``: ``PROVIDER:MODEL``."""
    return f"{provider}:{model}"


def pass_rate_range(
    passed: int, failed: int, errored: int, unavailable: int
) -> PassRateRange | None:
    """The pass rate if every errored and unavailable run had failed / passed.

    ``None`` when no run finished.
    """
    total = passed + failed + errored + unavailable
    if total == 0:
        return None
    return PassRateRange(
        low=passed / total, high=(passed + errored + unavailable) / total
    )


@attrs.frozen(kw_only=True)
class PassStatistics:
    """The counts and pass-rate statistics every unit and workflow entry carries.

    Attributes:
        passed: Runs that passed.
        failed: Runs that failed.
        errored: Runs that errored.
        unavailable: Runs that could not be judged.
        pass_rate: passed / (passed + failed); ``None`` when nothing was judged.
        pass_rate_interval: Its Wilson interval; ``None`` likewise.
        pass_at_k: pass@k by k.
        pass_hat_k: pass^k by k.
        pass_rate_range: See `pass_rate_range`.
    """

    passed: int
    failed: int
    errored: int
    unavailable: int
    pass_rate: float | None
    pass_rate_interval: PassRateInterval | None
    pass_at_k: dict[str, float]
    pass_hat_k: dict[str, float]
    pass_rate_range: PassRateRange | None

    @classmethod
    def of(
        cls, passed: int, failed: int, errored: int, unavailable: int
    ) -> PassStatistics:
        """The statistics of runs with these verdicts."""
        judged = passed + failed
        interval = wilson_interval(passed, judged)
        return cls(
            passed=passed,
            failed=failed,
            errored=errored,
            unavailable=unavailable,
            pass_rate=None if judged == 0 else passed / judged,
            pass_rate_interval=None
            if interval is None
            else PassRateInterval(
                low=interval.low,
                high=interval.high,
                method="wilson",
                confidence=CONFIDENCE,
            ),
            pass_at_k=pass_at_k(passed, judged),
            pass_hat_k=pass_hat_k(passed, judged),
            pass_rate_range=pass_rate_range(passed, failed, errored, unavailable),
        )

    @classmethod
    def of_verdicts(cls, verdicts: Counter[str]) -> PassStatistics:
        """The statistics of runs counted by verdict."""
        return cls.of(
            verdicts["passed"],
            verdicts["failed"],
            verdicts["errored"],
            verdicts["unavailable"],
        )


def unit_counts(
    passed: int, failed: int, errored: int, unavailable: int
) -> dict[str, Any]:
    """`PassStatistics.of` as plain ``suite.json`` data (for views that build it)."""
    data: dict[str, Any] = CONVERTER.unstructure(
        PassStatistics.of(passed, failed, errored, unavailable)
    )
    return data


def make_unit(
    workflow: str, case: str | None, target: str, runs: int, stats: PassStatistics
) -> SuiteUnitInfo:
    """The unit (SPEC 26) of ``runs`` runs of (workflow, case, target)."""
    return SuiteUnitInfo(
        workflow=workflow,
        case=case,
        target=target,
        runs=runs,
        passed=stats.passed,
        failed=stats.failed,
        errored=stats.errored,
        unavailable=stats.unavailable,
        pass_rate=stats.pass_rate,
        pass_rate_interval=stats.pass_rate_interval,
        pass_at_k=stats.pass_at_k,
        pass_hat_k=stats.pass_hat_k,
        pass_rate_range=stats.pass_rate_range,
    )


def unit_of(workflow: SuiteWorkflowInfo) -> SuiteUnitInfo:
    """The unit (SPEC 26) a tally of one (workflow, target)'s runs amounts to.

    A version-1 suite's workflow entry is one unit the same way.
    """
    return SuiteUnitInfo(
        workflow=workflow.name,
        case=None,
        target=workflow.target or "default",
        runs=len(workflow.runs),
        passed=workflow.passed,
        failed=workflow.failed,
        errored=workflow.errored,
        unavailable=workflow.unavailable,
        pass_rate=workflow.pass_rate,
        pass_rate_interval=workflow.pass_rate_interval,
        pass_at_k=workflow.pass_at_k,
        pass_hat_k=workflow.pass_hat_k,
        pass_rate_range=workflow.pass_rate_range,
    )


class UnitCounts(Protocol):
    """What aggregates read of a unit: a `SuiteUnitInfo`, or a unit being counted."""

    @property
    def workflow(self) -> str:
        """The workflow's name."""

    @property
    def case(self) -> str | None:
        """The case id, if any."""

    @property
    def target(self) -> str:
        """The target's id."""

    @property
    def passed(self) -> int:
        """Runs that passed."""

    @property
    def failed(self) -> int:
        """Runs that failed."""

    @property
    def errored(self) -> int:
        """Runs that errored."""

    @property
    def unavailable(self) -> int:
        """Runs that could not be judged."""


def _counted(units: Sequence[UnitCounts]) -> list[dict[str, Any]]:
    """What `artemiskit.suites._aggregate` reads of each judged unit.

    Units without a judged run change no aggregate: they are left out here.
    """
    return [
        {
            "workflow": u.workflow,
            "case": u.case,
            "passed": u.passed,
            "failed": u.failed,
        }
        for u in units
        if u.passed or u.failed
    ]


def aggregate_rate(
    units: Sequence[UnitCounts],
) -> tuple[float | None, PassRateInterval | None]:
    """Several units' pass rate and interval (`aggregate_pass_rate`), typed."""
    found = aggregate_pass_rate(_counted(units))
    interval = found["pass_rate_interval"]
    return found["pass_rate"], (
        None if interval is None else PassRateInterval(**interval)
    )


def exact_units_rate(units: Sequence[UnitCounts]) -> Fraction | None:
    """Several units' pass rate as an exact fraction (`aggregate_rate_exact`)."""
    return aggregate_rate_exact(_counted(units))


def target_aggregates(units: Sequence[UnitCounts]) -> tuple[SuiteTargetInfo, ...]:
    """``suite.json``'s ``targets``: each target's units together, in order.

    The rate and interval are `aggregate_pass_rate`'s: the mean of the unit
    rates with the cluster-robust interval, each (workflow, case) a cluster, or
    the pooled Wilson figures when the units are one case (the runs of one case
    on several targets, or its repetitions, are never independent evidence).
    """
    order = dict.fromkeys(unit.target for unit in units)
    found = []
    for target in order:
        mine = [unit for unit in units if unit.target == target]
        rate, interval = aggregate_rate(mine)
        found.append(
            SuiteTargetInfo(
                target=target,
                units=len(mine),
                passed=sum(u.passed for u in mine),
                failed=sum(u.failed for u in mine),
                errored=sum(u.errored for u in mine),
                unavailable=sum(u.unavailable for u in mine),
                pass_rate=rate,
                pass_rate_interval=interval,
            )
        )
    return tuple(found)


def with_workflow_aggregates(
    workflows: Sequence[SuiteWorkflowInfo], units: Sequence[UnitCounts]
) -> tuple[SuiteWorkflowInfo, ...]:
    """The ``workflows[]`` entries with their aggregate rate and interval from units.

    An entry whose judged units fall in several clusters (cases) gets the mean
    of its units' rates and the clustered interval (SPEC 23, 26); others keep
    the pooled Wilson figures they have (the same numbers).
    """
    by_workflow: dict[str, list[UnitCounts]] = {}
    for unit in units:
        by_workflow.setdefault(unit.workflow, []).append(unit)
    result = []
    for entry in workflows:
        mine = by_workflow.get(entry.name, [])
        judged = {(u.workflow, u.case) for u in mine if u.passed + u.failed > 0}
        if len(judged) > 1:
            rate, interval = aggregate_rate(mine)
            entry = attrs.evolve(entry, pass_rate=rate, pass_rate_interval=interval)
        result.append(entry)
    return tuple(result)


class _Distribution(Sequence[float]):
    """Values in ascending order, kept as each distinct value with its count.

    Runs of a workflow mostly repeat the same budget use (a count over a fixed
    limit): the distribution costs what its distinct values cost, not a slot
    per run. As a sequence it is the sorted values (for `percentile`).
    """

    __slots__ = ("_counts", "_size", "_values")

    def __init__(self) -> None:
        self._values = array("d")
        self._counts = array("q")
        self._size = 0

    def add(self, value: float) -> None:
        """Add one value."""
        at = bisect.bisect_left(self._values, value)
        if at < len(self._values) and self._values[at] == value:
            self._counts[at] += 1
        else:
            self._values.insert(at, value)
            self._counts.insert(at, 1)
        self._size += 1

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> float: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[float]: ...

    def __getitem__(self, index: int | slice) -> float | Sequence[float]:
        if isinstance(index, slice):
            return list(self)[index]
        rank = index + self._size if index < 0 else index
        if not 0 <= rank < self._size:
            raise IndexError(index)
        for value, count in zip(self._values, self._counts, strict=True):
            if rank < count:
                return value
            rank -= count
        raise IndexError(index)  # pragma: no cover - the counts add up to the size

    def __iter__(self) -> Iterator[float]:
        for value, count in zip(self._values, self._counts, strict=True):
            for _ in range(count):
                yield value


def _use(values: _Distribution) -> UsePercentiles | None:
    if not values:
        return None
    return UsePercentiles(
        p50=percentile(values, 50, presorted=True) or 0.0,
        p95=percentile(values, 95, presorted=True) or 0.0,
        max=values[-1],
    )


def _fractions(record: ExecutionRecord) -> dict[str, float]:
    """The record's budget use per dimension, as fractions of each declared limit."""
    limits = record.budget.limits
    used = record.budget.used
    measured: dict[str, int | None] = {
        "actions": used.actions,
        "model_requests": used.model_requests,
        "tool_calls": used.tool_calls,
        "tokens": None
        if used.input_tokens is None or used.output_tokens is None
        else used.input_tokens + used.output_tokens,
    }
    fractions = {}
    for key, limit_name in _LIMITS.items():
        limit = getattr(limits, limit_name)
        value = measured[key]
        if limit and value is not None:
            fractions[key] = value / limit
    return fractions


class WorkflowTally:
    """One workflow's entry in ``suite.json``, kept up to date run by run.

    Adding a run updates counters in place: verdicts, requirements, reasons,
    causes and the budget use (as a distribution of its distinct values). Its
    run entry is built and checked once and handed back to the caller; the
    tally keeps it only with ``keep_runs`` (a suite with an output folder keeps
    its runs' lines on disk instead: `artemiskit.suites._run_spool`).

    Args:
        name: The workflow's name.
        digest: The digest of its contract.
        target: The id of the target it runs (``ENTRY:MODEL`` or an agent's
            name); ``None`` when it runs on several (its units say which).
        check_runs: Check each run's entry against the suite record schema when
            it is added. A report of loose record files builds an entry that is
            never written as ``suite.json`` (its runs name record files given
            anywhere, not ``runs/...``) and passes ``False``.
        keep_runs: Keep each run's entry, in order, for `entry`; without, the
            entry lists no runs.
    """

    def __init__(
        self,
        name: str,
        digest: str,
        target: str | None,
        *,
        check_runs: bool = True,
        keep_runs: bool = True,
    ) -> None:
        self.name = name
        self.digest = digest
        self.target = target
        self._check_runs = check_runs
        self._keep_runs = keep_runs
        self.runs: list[SuiteRunInfo] = []
        self._keys: list[tuple[str, str, int]] = []
        self._verdicts: Counter[str] = Counter()
        self._requirements: dict[str, Counter[str]] = {}
        self._reasons: Counter[str] = Counter()
        self._causes: Counter[CauseKey] = Counter()
        self._use = {key: _Distribution() for key in _LIMITS}

    def add(self, outcome: RunOutcome) -> dict[str, Any]:
        """Count one finished run; its entry in ``suite.json``, as plain data."""
        # One target: the entry names it; runs name theirs only when the
        # workflow ran on several (SPEC 19).
        run = outcome.entry(named=self.target is None)
        data: dict[str, Any] = CONVERTER.unstructure(run)
        if self._check_runs:
            validate_run_entry(data)
        if self._keep_runs:
            at = bisect.bisect(self._keys, outcome.key)
            self._keys.insert(at, outcome.key)
            self.runs.insert(at, run)
        verdict = outcome.verdict
        self._verdicts[verdict.status] += 1
        reasons = outcome.failure_reasons()
        if reasons:
            self._reasons.update(reasons)
        why = verdict.why
        if why is not None:
            self._causes[(why.kind, why.id, why.reason)] += 1
        record = outcome.record
        if record is None:
            return data
        for requirement in record.task_verification.requirements:
            counts = self._requirements.get(requirement.id)
            if counts is None:
                counts = self._requirements[requirement.id] = Counter()
            counts[requirement.status] += 1
        for key, fraction in _fractions(record).items():
            self._use[key].add(fraction)
        return data

    def entry(self) -> SuiteWorkflowInfo:
        """The workflow's entry as of the runs added so far."""
        stats = PassStatistics.of_verdicts(self._verdicts)
        use = {key: _use(values) for key, values in self._use.items()}
        return SuiteWorkflowInfo(
            name=self.name,
            digest=self.digest,
            target=self.target,
            runs=tuple(self.runs),
            passed=stats.passed,
            failed=stats.failed,
            errored=stats.errored,
            unavailable=stats.unavailable,
            pass_rate=stats.pass_rate,
            pass_rate_interval=stats.pass_rate_interval,
            pass_at_k=stats.pass_at_k,
            pass_hat_k=stats.pass_hat_k,
            pass_rate_range=stats.pass_rate_range,
            requirements=tuple(
                RequirementCounts(
                    id=rid,
                    passed=counts["passed"],
                    failed=counts["failed"],
                    unavailable=counts["unavailable"],
                )
                for rid, counts in self._requirements.items()
            ),
            failure_reasons=dict(sorted(self._reasons.items())),
            causes=cause_counts(self._causes),
            budget_use=BudgetUseInfo(
                actions=use["actions"],
                model_requests=use["model_requests"],
                tool_calls=use["tool_calls"],
                tokens=use["tokens"],
            ),
        )


def summarize_workflow(
    name: str,
    digest: str,
    target: str,
    outcomes: Sequence[RunOutcome],
    *,
    check_runs: bool = True,
) -> SuiteWorkflowInfo:
    """The workflow's entry in ``suite.json``: its runs and their statistics.

    ``check_runs=False``: see `WorkflowTally`.
    """
    tally = WorkflowTally(name, digest, target, check_runs=check_runs)
    for outcome in sorted(outcomes, key=lambda o: o.key):
        tally.add(outcome)
    return tally.entry()


def gated_rate(
    workflow: SuiteWorkflowInfo,
    gate: Literal["point", "lower-bound"],
    units: Sequence[SuiteUnitInfo] = (),
) -> Fraction | None:
    """What ``--min-pass-rate`` judges for a workflow entry (SPEC 23).

    ``point``: its pass rate, exactly (with units in several clusters, the exact
    mean of their rates; `aggregate_rate_exact`). ``lower-bound``: the lower
    bound of its 95% interval (Wilson; the clustered interval when its units are
    cases), as the fraction the stored float is; ``None`` when nothing was
    judged.

    Args:
        workflow: The workflow's entry in ``suite.json``.
        gate: ``point`` or ``lower-bound``.
        units: The workflow's units (optional: without them, the pooled rate).
    """
    if gate == "point":
        if units:
            return exact_units_rate(units)
        return exact_rate(workflow.passed, workflow.passed + workflow.failed)
    interval = workflow.pass_rate_interval
    return None if interval is None else Fraction(interval.low)


def suite_exit_code(
    status: SuiteStatus,
    outcomes: Sequence[RunOutcome] | Mapping[str, int],
    pass_rates: Sequence[Fraction | None],
    min_pass_rate: float,
    max_errored: int = 0,
) -> int:
    """The exit code of a suite (SPEC 20): 130 > 7 > 9 > 8 > 0.

    130 when cancelled; else 7 when more runs errored (a lost run is errored)
    than ``max_errored`` tolerates; else 9 when any run is unavailable; else 8
    when any workflow's pass rate is below ``min_pass_rate`` or null (no run was
    judged); else 0. A run stopped by a denial, a budget or the deadline is a
    failure, so a suite of stopped runs fails the default gate. Pass rates are
    exact fractions and the threshold the decimal it names (`exact_threshold`),
    so 7/10 meets 0.7. ``outcomes`` are the finished runs, or how many of them
    had each verdict (`SuiteTally.verdicts`).
    """
    threshold = exact_threshold(min_pass_rate)
    if status == "cancelled":
        return ExitCode.CANCELLED
    statuses = Counter(
        outcomes
        if isinstance(outcomes, Mapping)
        else (o.verdict.status for o in outcomes)
    )
    if statuses["errored"] > max_errored:
        return ExitCode.RUNTIME_FAILURE
    if statuses["unavailable"]:
        return ExitCode.EVALUATION_UNAVAILABLE
    if any(rate is None or rate < threshold for rate in pass_rates):
        return ExitCode.TASK_FAILED
    return ExitCode.OK


class SuiteTally:
    """The suite's ``totals``, kept up to date run by run."""

    def __init__(self) -> None:
        self._verdicts: Counter[str] = Counter()
        self._measurements: set[str] = set()
        self._finished = 0
        self._lost = 0
        self._unmeasured = False
        self._input_tokens = 0
        self._output_tokens = 0
        self._model_requests = 0
        self._tool_calls = 0

    def add(self, outcome: RunOutcome) -> None:
        """Count one finished run."""
        self._finished += 1
        self._verdicts[outcome.verdict.status] += 1
        record = outcome.record
        if record is None:
            self._lost += 1
            return
        used = record.budget.used
        self._measurements.add(record.budget.usage_measurement)
        if used.input_tokens is None or used.output_tokens is None:
            self._unmeasured = True
        self._input_tokens += used.input_tokens or 0
        self._output_tokens += used.output_tokens or 0
        self._model_requests += used.model_requests
        self._tool_calls += used.tool_calls

    @property
    def finished(self) -> int:
        """How many runs were added."""
        return self._finished

    @property
    def verdicts(self) -> Mapping[str, int]:
        """How many added runs had each verdict."""
        return self._verdicts

    def totals(self, planned: int, duration_ms: int) -> SuiteTotals:
        """The ``totals`` as of the runs added so far."""
        lost = self._lost
        unmeasured = lost > 0 or self._unmeasured
        measurements = self._measurements
        measurement: Literal["complete", "partial", "unavailable"]
        if not measurements:
            measurement = "unavailable" if lost else "complete"
        elif measurements == {"complete"} and not lost:
            measurement = "complete"
        elif measurements == {"unavailable"}:
            measurement = "unavailable"
        else:
            measurement = "partial"
        return SuiteTotals(
            runs_planned=planned,
            runs_finished=self._finished,
            runs_not_started=planned - self._finished,
            runs_lost=lost,
            passed=self._verdicts["passed"],
            failed=self._verdicts["failed"],
            errored=self._verdicts["errored"],
            unavailable=self._verdicts["unavailable"],
            input_tokens=None if unmeasured else self._input_tokens,
            output_tokens=None if unmeasured else self._output_tokens,
            usage_measurement=measurement,
            model_requests=self._model_requests,
            tool_calls=self._tool_calls,
            duration_ms=duration_ms,
        )


def totals(
    outcomes: Sequence[RunOutcome], planned: int, duration_ms: int
) -> SuiteTotals:
    """The suite's ``totals``."""
    tally = SuiteTally()
    for outcome in outcomes:
        tally.add(outcome)
    return tally.totals(planned, duration_ms)


@functools.cache
def _top_validator() -> Callable[[Any], Any]:
    """The suite record schema with each unit and workflow entry checked on its own."""
    schema = copy.deepcopy(suite_record_schema())
    schema["properties"]["workflows"]["items"] = {"type": "object"}
    schema["properties"]["units"]["items"] = {"type": "object"}
    return fastjsonschema.compile(schema)


@functools.cache
def _unit_validator() -> Callable[[Any], Any]:
    return fastjsonschema.compile(suite_record_schema()["properties"]["units"]["items"])


def _workflow_schema() -> dict[str, Any]:
    workflow: dict[str, Any] = suite_record_schema()["properties"]["workflows"]["items"]
    return workflow


@functools.cache
def _workflow_validator() -> Callable[[Any], Any]:
    schema = copy.deepcopy(_workflow_schema())
    schema["properties"]["runs"]["items"] = {"type": "object"}
    return fastjsonschema.compile(schema)


@functools.cache
def _run_validator() -> Callable[[Any], Any]:
    return fastjsonschema.compile(_workflow_schema()["properties"]["runs"]["items"])


def _check(validator: Callable[[Any], Any], data: Any) -> None:
    try:
        validator(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        raise WorkflowError(
            f"invalid suite record: {exc.message}", reason="invalid_suite_record"
        ) from None


def validate_run_entry(run: dict[str, Any]) -> dict[str, Any]:
    """Check one run's entry against its part of the suite record schema.

    Raises:
        WorkflowError: The entry is invalid (``invalid_suite_record``).
    """
    _check(_run_validator(), run)
    return run


def check_unit_entry(unit: dict[str, Any]) -> dict[str, Any]:
    """Check one unit's entry against its part of the suite record schema.

    Raises:
        WorkflowError: The entry is invalid (``invalid_suite_record``).
    """
    _check(_unit_validator(), unit)
    return unit


def check_workflow_entry(entry: SuiteWorkflowInfo) -> SuiteWorkflowInfo:
    """Check a workflow's entry, less its runs (each checked when it was added).

    Raises:
        WorkflowError: The entry is invalid (``invalid_suite_record``).
    """
    _check(_workflow_validator(), CONVERTER.unstructure(attrs.evolve(entry, runs=())))
    return entry


def check_suite_record(record: SuiteRecord) -> SuiteRecord:
    """Check a suite record being written, less its units and workflow entries.

    Each unit is checked when its names or its counts are first encoded
    (`artemiskit.suites._units`), each workflow entry when it changes
    (`check_workflow_entry`) and each run when it is added (`WorkflowTally`):
    a rewrite checks what changed, never the whole suite again.

    Raises:
        WorkflowError: The record is invalid (``invalid_suite_record``).
    """
    _check(
        _top_validator(),
        CONVERTER.unstructure(attrs.evolve(record, units=(), workflows=())),
    )
    return record


@functools.cache
def _whole_validator() -> Callable[[Any], Any]:
    return fastjsonschema.compile(suite_record_schema())


def check_whole_suite_record(record: SuiteRecord) -> SuiteRecord:
    """Check a suite record whole: units, workflows and runs included.

    For a record made once (a suite that writes nothing), not streamed.

    Raises:
        WorkflowError: The record is invalid (``invalid_suite_record``).
    """
    _check(_whole_validator(), CONVERTER.unstructure(record))
    return record
