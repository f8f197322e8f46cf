"""The suite record (``suite.json``): built, validated and written atomically.

The record is metadata only: names, digests, identities, statuses, reason codes,
counters and statistics. It is validated against the shipped JSON Schema on write
and on read, and every write replaces the file atomically, so a reader (or a suite
killed mid-write) only ever sees a whole, valid file.
"""

from __future__ import annotations

import bisect
import copy
import functools
import json
import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal

import attrs
import fastjsonschema

from artemiskit._common._json import StrictJsonError, load_strict_json
from artemiskit._common._reading import read_text_file_now
from artemiskit._common._statistics import (
    CONFIDENCE,
    exact_rate,
    exact_threshold,
    pass_at_k,
    pass_hat_k,
    wilson_interval,
)
from artemiskit._errors import Problem, WorkflowError
from artemiskit._exit_codes import ExitCode
from artemiskit.records import Cause, ExecutionRecord, RunVerdict
from artemiskit.records._verdict import lost_run_verdict, verdict_status
from artemiskit.suites._aggregate import aggregate_pass_rate, aggregate_rate_exact
from artemiskit.suites._consistency import check_suite_consistency

if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Sequence

__all__ = [
    "SUITE_SCHEMA",
    "SUITE_SCHEMA_VERSION",
    "RunOutcome",
    "SuiteStatus",
    "SuiteTally",
    "WorkflowTally",
    "aggregate_units",
    "CauseKey",
    "encode_suite_record",
    "cause_counts",
    "cause_dict",
    "cause_text",
    "load_suite_record",
    "migrate_suite_record",
    "pass_rate_range",
    "gated_rate",
    "suite_exit_code",
    "suite_record_schema",
    "summarize_workflow",
    "target_aggregates",
    "target_id",
    "unit_counts",
    "unit_of",
    "validate_run_entry",
    "validate_suite_record",
]

SUITE_SCHEMA = "artemiskit.suite-record"
SUITE_SCHEMA_VERSION = 2
_SCHEMA_FILES = {1: "suite-record.v1.schema.json", 2: "suite-record.v2.schema.json"}

SuiteStatus = Literal["completed", "cancelled", "budget_exhausted", "failed_fast"]

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

    def as_dict(self) -> dict[str, Any]:
        """The run's entry in ``suite.json``."""
        record = self.record
        entry: dict[str, Any] = {"repetition": self.repetition}
        if self.case is not None:
            entry["case"] = self.case
        return entry | {
            "run_id": None if record is None else record.run_id,
            "record": self.record_file,
            "execution_status": None if record is None else record.execution.status,
            "execution_reason": None if record is None else record.execution.reason,
            "verification": None if record is None else record.task_verification.status,
            "exit_code": self.exit_code,
            "duration_ms": self.duration_ms,
            "input_tokens": None if record is None else record.budget.used.input_tokens,
            "output_tokens": None
            if record is None
            else record.budget.used.output_tokens,
            "lost": self.lost,
            "lost_reason": (self.lost_reason or "run_error") if self.lost else None,
            "verdict": self.verdict.status,
            "why": cause_dict(self.verdict),
            **({} if self.target is None else {"target": self.target}),
        }


def cause_dict(verdict: RunVerdict) -> dict[str, Any] | None:
    """A verdict's cause as ``suite.json`` keeps it (``None``: passed or unrecorded)."""
    why = verdict.why
    if why is None:
        return None
    return {"kind": why.kind, "id": why.id, "reason": why.reason, "step": why.step}


def cause_text(cause: Mapping[str, Any] | None) -> str:
    """A cause as ``suite.json`` keeps it, shown as every view shows it.

    ``<id or reason> (<reason code>)``, as `Cause.text`; ``not recorded`` for a
    run whose cause was never recorded (a record from before schema version 4).
    """
    if cause is None:
        return "not recorded"
    return Cause(kind=cause["kind"], id=cause["id"], reason=cause["reason"]).text


CauseKey = tuple[str, str | None, str]
"""A cause as counted: its kind, id and reason code."""


def cause_counts(causes: Counter[CauseKey]) -> list[dict[str, Any]]:
    """A workflow's ``causes``: each cause with its runs, most frequent first."""
    return [
        {"kind": kind, "id": cid, "reason": reason, "runs": runs}
        for (kind, cid, reason), runs in sorted(
            causes.items(), key=lambda item: (-item[1], item[0][1] or "", item[0][2])
        )
    ]


def target_id(provider: str, model: str) -> str:
    """The id of a workflow's target in ``suite.json``: ``PROVIDER:MODEL``."""
    return f"{provider}:{model}"


def pass_rate_range(
    passed: int, failed: int, errored: int, unavailable: int
) -> dict[str, float] | None:
    """The pass rate if every errored and unavailable run had failed / passed.

    ``None`` when no run finished.
    """
    total = passed + failed + errored + unavailable
    if total == 0:
        return None
    return {"low": passed / total, "high": (passed + errored + unavailable) / total}


def unit_counts(
    passed: int, failed: int, errored: int, unavailable: int
) -> dict[str, Any]:
    """The counts and pass-rate statistics every unit and workflow entry carries."""
    judged = passed + failed
    interval = wilson_interval(passed, judged)
    return {
        "passed": passed,
        "failed": failed,
        "errored": errored,
        "unavailable": unavailable,
        "pass_rate": None if judged == 0 else passed / judged,
        "pass_rate_interval": None
        if interval is None
        else {
            "low": interval.low,
            "high": interval.high,
            "method": "wilson",
            "confidence": CONFIDENCE,
        },
        "pass_at_k": pass_at_k(passed, judged),
        "pass_hat_k": pass_hat_k(passed, judged),
        "pass_rate_range": pass_rate_range(passed, failed, errored, unavailable),
    }


def unit_of(workflow: Mapping[str, Any]) -> dict[str, Any]:
    """The unit (SPEC 26) a tally of one (workflow, target)'s runs amounts to.

    A version-1 suite's workflow entry is one unit the same way.
    """
    return {
        "workflow": workflow["name"],
        "case": None,
        "target": workflow["target"] or "default",
        "runs": len(workflow["runs"]),
        **{key: workflow[key] for key in _UNIT_STATISTICS},
    }


_UNIT_STATISTICS = (
    "passed",
    "failed",
    "errored",
    "unavailable",
    "pass_rate",
    "pass_rate_interval",
    "pass_at_k",
    "pass_hat_k",
    "pass_rate_range",
)


def aggregate_units(units: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Several units together (SPEC 26): their counts, rate and interval.

    The rate and interval are `aggregate_pass_rate`'s: the mean of the unit
    rates with the cluster-robust interval, each (workflow, case) a cluster, or
    the pooled Wilson figures when the units are one case (the runs of one case
    on several targets, or its repetitions, are never independent evidence).
    """
    counts = {
        key: sum(unit[key] for unit in units)
        for key in ("passed", "failed", "errored", "unavailable")
    }
    return {"units": len(units), **counts, **aggregate_pass_rate(units)}


def target_aggregates(units: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``suite.json``'s ``targets``: each target's units together, in order."""
    order = dict.fromkeys(unit["target"] for unit in units)
    return [
        {
            "target": target,
            **aggregate_units([unit for unit in units if unit["target"] == target]),
        }
        for target in order
    ]


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


_VERDICTS = ("passed", "failed", "errored", "unavailable")


class _Histogram:
    """Values with how often each occurred: percentiles without a value per run.

    Budget-use fractions repeat (each is a whole count over a fixed limit), so
    a workflow keeps one entry per distinct value, not one per run.
    """

    __slots__ = ("_counts", "_total")

    def __init__(self) -> None:
        self._counts: Counter[float] = Counter()
        self._total = 0

    def add(self, value: float) -> None:
        self._counts[value] += 1
        self._total += 1

    def use(self) -> dict[str, float] | None:
        """``{p50, p95, max}`` as `percentile` gives them over every value."""
        if not self._total:
            return None
        ordered = sorted(self._counts.items())
        return {
            "p50": self._percentile(ordered, 50),
            "p95": self._percentile(ordered, 95),
            "max": ordered[-1][0],
        }

    def _percentile(self, ordered: Sequence[tuple[float, int]], q: int) -> float:
        """`percentile`'s linear interpolation, over the values with their counts."""
        position = (self._total - 1) * Fraction(q) / 100
        below = math.floor(position)
        above = min(below + 1, self._total - 1)
        low = _at(ordered, below)
        return float(low + (_at(ordered, above) - low) * (position - below))


def _at(ordered: Sequence[tuple[float, int]], rank: int) -> float:
    """The value at 0-based ``rank`` among the counted, ordered values."""
    seen = 0
    for value, count in ordered:
        seen += count
        if rank < seen:
            return value
    raise IndexError(rank)


class WorkflowTally:
    """One workflow's entry in ``suite.json``, kept up to date run by run.

    Adding a run updates the counters in place; a run's entry is checked and
    encoded once and kept as its compact JSON text only (what ``suite.json``
    lists), so a finished run costs its line of text and nothing else, however
    often the suite record is rewritten (SPEC 19: the driver's memory does not
    grow with what it no longer needs). Budget fractions are kept as counts of
    each distinct value.

    Args:
        name: The workflow's name.
        digest: The digest of its contract.
        target: The id of the target it runs (``ENTRY:MODEL`` or an agent's
            name); ``None`` when it runs on several (its units say which).
        check_runs: Check each run's entry against the suite record schema when
            it is added. A report of loose record files builds an entry that is
            never written as ``suite.json`` (its runs name record files given
            anywhere, not ``runs/...``) and passes ``False``.
    """

    def __init__(
        self, name: str, digest: str, target: str | None, *, check_runs: bool = True
    ) -> None:
        self.name = name
        self.digest = digest
        self.target = target
        self._check_runs = check_runs
        #: Each run's entry as encoded in suite.json, in entry order.
        self._texts: list[str] = []
        self._keys: list[tuple[str, str, int]] = []
        self._verdicts: Counter[str] = Counter()
        #: Verdict counts per (case, target): one unit each, in `_VERDICTS` order.
        self._units: dict[tuple[str | None, str | None], list[int]] = {}
        self._requirements: dict[str, Counter[str]] = {}
        self._reasons: Counter[str] = Counter()
        self._causes: Counter[CauseKey] = Counter()
        self._fractions = {key: _Histogram() for key in _LIMITS}

    @property
    def runs(self) -> list[dict[str, Any]]:
        """Every run's entry, decoded afresh (the tally keeps only their text)."""
        return [json.loads(text) for text in self._texts]

    @property
    def run_texts(self) -> list[str]:
        """Every run's entry as ``suite.json`` lists it (compact JSON), in order."""
        return self._texts

    def add(self, outcome: RunOutcome) -> None:
        """Count one finished run."""
        at = bisect.bisect(self._keys, outcome.key)
        self._keys.insert(at, outcome.key)
        run = outcome.as_dict()
        if self.target is not None:
            # One target: the entry names it; runs name theirs only when
            # the workflow ran on several (SPEC 19).
            run.pop("target", None)
        if self._check_runs:
            validate_run_entry(run)
        self._texts.insert(at, json.dumps(run))
        verdict = outcome.verdict
        self._verdicts[verdict.status] += 1
        unit = (outcome.case, outcome.target)
        counts = self._units.get(unit)
        if counts is None:
            counts = self._units[unit] = [0, 0, 0, 0]
        counts[_VERDICTS.index(verdict.status)] += 1
        self._reasons.update(outcome.failure_reasons())
        if verdict.why is not None:
            why = verdict.why
            self._causes[(why.kind, why.id, why.reason)] += 1
        record = outcome.record
        if record is None:
            return
        for requirement in record.task_verification.requirements:
            requirement_counts = self._requirements.setdefault(
                requirement.id, Counter()
            )
            requirement_counts[requirement.status] += 1
        for key, fraction in _fractions(record).items():
            self._fractions[key].add(fraction)

    def entry(self, *, runs: bool = True) -> dict[str, Any]:
        """The workflow's entry as of the runs added so far.

        Args:
            runs: List the run entries (decoded); ``False`` leaves ``runs``
                empty for a writer that takes them from `run_texts`.
        """
        verdicts = self._verdicts
        return {
            "name": self.name,
            "digest": self.digest,
            "target": self.target,
            "runs": self.runs if runs else [],
            **unit_counts(
                verdicts["passed"],
                verdicts["failed"],
                verdicts["errored"],
                verdicts["unavailable"],
            ),
            "requirements": [
                {
                    "id": rid,
                    "passed": counts["passed"],
                    "failed": counts["failed"],
                    "unavailable": counts["unavailable"],
                }
                for rid, counts in self._requirements.items()
            ],
            "failure_reasons": dict(sorted(self._reasons.items())),
            "causes": cause_counts(self._causes),
            "budget_use": {key: use.use() for key, use in self._fractions.items()},
        }

    def units(
        self,
        cases: Sequence[str | None] = (None,),
        targets: Sequence[str] | None = None,
    ) -> list[dict[str, Any]]:
        """The workflow's units (SPEC 26): one per (case, target), cases first.

        Args:
            cases: The cases the suite plans for this workflow (``None`` for a
                workflow without cases); a unit without finished runs counts 0.
            targets: The ids of the targets it runs on (default: its own).
        """
        counted = self._units
        if not targets:
            # Without targets named, every run of the case counts.
            counted = {}
            for (case, _), counts in self._units.items():
                total = counted.setdefault((case, None), [0, 0, 0, 0])
                for index, count in enumerate(counts):
                    total[index] += count
        none = (0, 0, 0, 0)
        units = []
        for case in cases:
            for target in targets or (self.target,):
                passed, failed, errored, unavailable = counted.get(
                    (case, target if targets else None), none
                )
                units.append(
                    {
                        "workflow": self.name,
                        "case": case,
                        "target": target or "default",
                        "runs": passed + failed + errored + unavailable,
                        **unit_counts(passed, failed, errored, unavailable),
                    }
                )
        return units


def summarize_workflow(
    name: str,
    digest: str,
    target: str,
    outcomes: Sequence[RunOutcome],
    *,
    check_runs: bool = True,
) -> dict[str, Any]:
    """The workflow's entry in ``suite.json``: its runs and their statistics.

    ``check_runs=False``: see `WorkflowTally`.
    """
    tally = WorkflowTally(name, digest, target, check_runs=check_runs)
    for outcome in sorted(outcomes, key=lambda o: o.key):
        tally.add(outcome)
    return tally.entry()


def gated_rate(
    workflow: Mapping[str, Any],
    gate: Literal["point", "lower-bound"],
    units: Sequence[Mapping[str, Any]] = (),
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
            return aggregate_rate_exact(units)
        passed: int = workflow["passed"]
        return exact_rate(passed, passed + int(workflow["failed"]))
    interval = workflow["pass_rate_interval"]
    return None if interval is None else Fraction(interval["low"])


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

    def totals(self, planned: int, duration_ms: int) -> dict[str, Any]:
        """The ``totals`` as of the runs added so far."""
        lost = self._lost
        unmeasured = lost > 0 or self._unmeasured
        measurements = self._measurements
        if not measurements:
            measurement = "unavailable" if lost else "complete"
        elif measurements == {"complete"} and not lost:
            measurement = "complete"
        elif measurements == {"unavailable"}:
            measurement = "unavailable"
        else:
            measurement = "partial"
        return {
            "runs_planned": planned,
            "runs_finished": self._finished,
            "runs_not_started": planned - self._finished,
            "runs_lost": lost,
            "passed": self._verdicts["passed"],
            "failed": self._verdicts["failed"],
            "errored": self._verdicts["errored"],
            "unavailable": self._verdicts["unavailable"],
            "input_tokens": None if unmeasured else self._input_tokens,
            "output_tokens": None if unmeasured else self._output_tokens,
            "usage_measurement": measurement,
            "model_requests": self._model_requests,
            "tool_calls": self._tool_calls,
            "duration_ms": duration_ms,
        }


def totals(
    outcomes: Sequence[RunOutcome], planned: int, duration_ms: int
) -> dict[str, Any]:
    """The suite's ``totals``."""
    tally = SuiteTally()
    for outcome in outcomes:
        tally.add(outcome)
    return tally.totals(planned, duration_ms)


@functools.cache
def suite_record_schema(version: int = SUITE_SCHEMA_VERSION) -> dict[str, Any]:
    """The JSON Schema of ``suite.json`` version ``version`` as shipped."""
    text = (
        resources.files(__package__).joinpath(_SCHEMA_FILES[version]).read_text("utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator(
    workflows: bool = True, version: int = SUITE_SCHEMA_VERSION
) -> Callable[[Any], Any]:
    schema = suite_record_schema(version)
    if not workflows:
        schema = copy.deepcopy(schema)
        schema["properties"]["workflows"]["items"] = {"type": "object"}
    return fastjsonschema.compile(schema)


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


def validate_workflow_entry(
    entry: dict[str, Any], checked_runs: int = 0
) -> dict[str, Any]:
    """Check one workflow's entry against its part of the suite record schema.

    Args:
        entry: The entry `summarize_workflow` built.
        checked_runs: How many of its first runs were already checked (a run's
            entry never changes once it finished).

    Raises:
        WorkflowError: The entry is invalid (``invalid_suite_record``).
    """
    try:
        _workflow_validator()(entry)
        for run in entry["runs"][checked_runs:]:
            _run_validator()(run)
    except fastjsonschema.JsonSchemaValueException as exc:
        raise WorkflowError(
            f"invalid suite record: {exc.message}", reason="invalid_suite_record"
        ) from None
    return entry


def validate_run_entry(run: dict[str, Any]) -> dict[str, Any]:
    """Check one run's entry against its part of the suite record schema.

    Raises:
        WorkflowError: The entry is invalid (``invalid_suite_record``).
    """
    try:
        _run_validator()(run)
    except fastjsonschema.JsonSchemaValueException as exc:
        raise WorkflowError(
            f"invalid suite record: {exc.message}", reason="invalid_suite_record"
        ) from None
    return run


def validate_suite_record(
    data: Mapping[str, Any], *, workflows: bool = True
) -> dict[str, Any]:
    """Check ``data`` against the suite record schema of its version.

    A version-1 record is read into the current shape (`migrate_suite_record`):
    its runs counted by their verdicts. ``workflows=False`` leaves the workflow
    entries to `validate_workflow_entry` (the suite checks each one once, when
    it changes). With the workflows, the numbers
    must also agree with each other (`check_suite_consistency`), as a hand-edited
    file may not.

    Raises:
        WorkflowError: Not a suite record, an unknown version, invalid
            (``invalid_suite_record``) or inconsistent
            (``inconsistent_suite_record``).
    """
    if data.get("schema") != SUITE_SCHEMA:
        raise WorkflowError(
            "not an ArtemisKit suite record", reason="not_a_suite_record"
        )
    version = data.get("schema_version")
    if type(version) is not int or version not in _SCHEMA_FILES:
        raise WorkflowError(
            "unknown suite record schema_version", reason="unknown_suite_version"
        )
    try:
        _validator(workflows, version)(dict(data))
    except fastjsonschema.JsonSchemaValueException as exc:
        raise WorkflowError(
            f"invalid suite record: {exc.message}", reason="invalid_suite_record"
        ) from None
    if workflows and version == SUITE_SCHEMA_VERSION:
        # A version-1 record's counts are recomputed by its migration.
        check_suite_consistency(data)
    if version == 1:
        return migrate_suite_record(data)
    return dict(data)


def migrate_suite_record(data: Mapping[str, Any]) -> dict[str, Any]:
    """A valid version-1 ``suite.json`` in the current shape.

    Version 1 counted a run stopped by a denial, a budget or the deadline as
    unavailable and a lost run as neither: every run is counted again by its
    verdict (SPEC 20), derived from its execution status, exit code and
    verification. Its cause was not recorded (``why`` is null), except a lost
    run's; the target was not recorded either (``default``).
    """
    workflows = [_migrated_workflow(entry) for entry in data["workflows"]]
    units = [unit_of(entry) for entry in workflows]
    statuses: Counter[str] = Counter(
        run["verdict"] for entry in workflows for run in entry["runs"]
    )
    return {
        **data,
        "schema_version": SUITE_SCHEMA_VERSION,
        "settings": {**data["settings"], "max_errored": 0},
        "totals": {
            **data["totals"],
            **{key: statuses[key] for key in ("passed", "failed", "unavailable")},
            "errored": statuses["errored"],
        },
        "units": units,
        "workflows": workflows,
        "targets": target_aggregates(units),
    }


def _migrated_run(run: Mapping[str, Any]) -> dict[str, Any]:
    if run["lost"]:
        verdict = lost_run_verdict(run.get("lost_reason") or "run_error")
    else:
        verdict = RunVerdict(
            status=verdict_status(
                run["execution_status"] or "", run["exit_code"], run["verification"]
            )
        )
    return {**run, "verdict": verdict.status, "why": cause_dict(verdict)}


def _migrated_workflow(entry: Mapping[str, Any]) -> dict[str, Any]:
    runs = [_migrated_run(run) for run in entry["runs"]]
    statuses = Counter(run["verdict"] for run in runs)
    causes: Counter[CauseKey] = Counter(
        (run["why"]["kind"], run["why"]["id"], run["why"]["reason"])
        for run in runs
        if run["why"] is not None
    )
    return {
        **entry,
        "target": "default",
        "runs": runs,
        **unit_counts(
            statuses["passed"],
            statuses["failed"],
            statuses["errored"],
            statuses["unavailable"],
        ),
        "causes": cause_counts(causes),
    }


def encode_suite_record(
    record: Mapping[str, Any],
    runs: Callable[[str], Sequence[str]] | None = None,
) -> bytes:
    """``suite.json``'s bytes: a field per line, and each run on a line of its own.

    Every value is encoded compact by the C encoder (an indented dump goes
    through the pure-Python one and costs more than an instant run per run).

    Args:
        record: The suite record.
        runs: Each workflow's run entries, already encoded, by workflow name
            (`WorkflowTally.run_texts`): they replace the entry's ``runs``,
            so a suite keeps each finished run as one line of text, never as
            objects.
    """
    fields = []
    for key, value in record.items():
        if key == "workflows" and value:
            entries = ",\n".join(_encode_workflow(entry, runs) for entry in value)
            text = f"[\n{entries}\n  ]"
        else:
            text = json.dumps(value)
        fields.append(f"  {json.dumps(key)}: {text}")
    return ("{\n" + ",\n".join(fields) + "\n}\n").encode("utf-8")


def _encode_workflow(
    entry: Mapping[str, Any], runs: Callable[[str], Sequence[str]] | None
) -> str:
    fields = []
    for key, value in entry.items():
        if key == "runs":
            lines = (
                [json.dumps(run) for run in value]
                if runs is None
                else runs(entry["name"])
            )
            text = "[]"
            if lines:
                text = "[\n" + ",\n".join(f"        {line}" for line in lines)
                text += "\n      ]"
        else:
            text = json.dumps(value)
        fields.append(f"      {json.dumps(key)}: {text}")
    return "    {\n" + ",\n".join(fields) + "\n    }"


_MAX_SUITE_RECORD_BYTES = 64 * 1024 * 1024


def _unreadable(problem: Problem) -> WorkflowError:
    return WorkflowError(
        f"invalid suite record: {problem.message}",
        [problem],
        reason="invalid_suite_record",
    )


def load_suite_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read ``suite.json`` and validate it against the shipped schema.

    The file is opened without blocking and must be a regular file of at most
    64 MiB (a FIFO is refused, never waited on).

    Raises:
        FileAccessError: The file cannot be read or is not a regular file (exit 1).
        WorkflowError: It is not strict JSON, not UTF-8, too large, or not a
            valid suite record (exit 2).
    """
    text = read_text_file_now(
        path, what="suite record", limit=_MAX_SUITE_RECORD_BYTES, invalid=_unreadable
    )
    try:
        data = load_strict_json(text)
    except StrictJsonError as exc:
        raise WorkflowError(
            f"invalid suite record: {exc.message}", reason="invalid_suite_record"
        ) from None
    if not isinstance(data, dict):
        raise WorkflowError(
            "not an ArtemisKit suite record", reason="not_a_suite_record"
        )
    return validate_suite_record(data)
