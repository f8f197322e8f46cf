"""Reading a saved ``suite.json``: the one typed loader of suite records.

A file is read bounded and without blocking, parsed as strict JSON, validated
against the shipped schema of its version, brought to the current shape (a
version-1 file's runs are counted again by their verdicts), structured into a
`SuiteRecord`, and its numbers checked against each other
(`check_suite_consistency`). Every refusal is a `WorkflowError` (exit 2) whose
message says what is wrong; the CLI shows it as ``FILE: message``.
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from typing import TYPE_CHECKING, Any

import attrs
import cattrs
import fastjsonschema

from artemiskit._common._converter import CONVERTER
from artemiskit._common._json import StrictJsonError, load_strict_json
from artemiskit._common._reading import read_text_file_now
from artemiskit._errors import Problem, WorkflowError
from artemiskit.records import RunVerdict
from artemiskit.records._suite import (
    SUITE_SCHEMA,
    BudgetUseInfo,
    RequirementCounts,
    SuiteRecord,
    SuiteRunInfo,
    SuiteSettingsInfo,
    SuiteTotals,
    SuiteWorkflowInfo,
)
from artemiskit.records._suite_io import SUITE_SCHEMA_FILES, suite_record_schema
from artemiskit.records._verdict import lost_run_verdict, verdict_status
from artemiskit.suites._consistency import check_suite_consistency
from artemiskit.suites._record import (
    CauseKey,
    PassStatistics,
    cause_counts,
    target_aggregates,
    unit_of,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = [
    "load_suite_record",
    "migrate_suite_record",
    "read_suite_record",
    "suite_record_from_dict",
    "validate_suite_record",
]

_MAX_SUITE_RECORD_BYTES = 64 * 1024 * 1024


@functools.cache
def _validator(version: int) -> Callable[[Any], Any]:
    return fastjsonschema.compile(suite_record_schema(version))


def _invalid(message: str) -> WorkflowError:
    return WorkflowError(
        f"invalid suite record: {message}", reason="invalid_suite_record"
    )


def suite_record_from_dict(data: Mapping[str, Any]) -> SuiteRecord:
    """A saved suite record's data, validated and typed (version 1 migrated).

    Raises:
        WorkflowError: Not a suite record (``not_a_suite_record``), an unknown
            version (``unknown_suite_version``), invalid for the schema of its
            version (``invalid_suite_record``) or with numbers that disagree
            (``inconsistent_suite_record``); exit 2.
    """
    if data.get("schema") != SUITE_SCHEMA:
        raise WorkflowError(
            "not an ArtemisKit suite record", reason="not_a_suite_record"
        )
    version = data.get("schema_version")
    # bool is an int in Python; `true` is no schema version.
    if type(version) is not int or version not in SUITE_SCHEMA_FILES:
        raise WorkflowError(
            "unknown suite record schema_version", reason="unknown_suite_version"
        )
    try:
        _validator(version)(dict(data))
    except fastjsonschema.JsonSchemaValueException as exc:
        raise _invalid(exc.message) from None
    try:
        if version == 1:
            # A version-1 record's counts are recomputed by its migration.
            return migrate_suite_record(data)
        record = CONVERTER.structure(data, SuiteRecord)
    except cattrs.BaseValidationError as exc:  # the schema lets no such file pass
        raise _invalid(f"{exc}") from None
    check_suite_consistency(record)
    return record


def validate_suite_record(data: Mapping[str, Any]) -> dict[str, Any]:
    """`suite_record_from_dict`, as plain data of the current version.

    Raises:
        WorkflowError: As `suite_record_from_dict` (exit 2).
    """
    found: dict[str, Any] = CONVERTER.unstructure(suite_record_from_dict(data))
    return found


def migrate_suite_record(data: Mapping[str, Any]) -> SuiteRecord:
    """A valid version-1 ``suite.json`` in the current shape.

    Version 1 counted a run stopped by a denial, a budget or the deadline as
    unavailable and a lost run as neither: every run is counted again by its
    verdict (SPEC 20), derived from its execution status, exit code and
    verification. Its cause was not recorded (``why`` is null), except a lost
    run's; the target was not recorded either (``default``).
    """
    workflows = tuple(_migrated_workflow(entry) for entry in data["workflows"])
    units = tuple(unit_of(entry) for entry in workflows)
    statuses: Counter[str] = Counter(
        run.verdict for entry in workflows for run in entry.runs
    )
    totals = {
        **data["totals"],
        **{key: statuses[key] for key in ("passed", "failed", "unavailable")},
        "errored": statuses["errored"],
    }
    return SuiteRecord(
        suite_id=data["suite_id"],
        started_at=data["started_at"],
        finished_at=data["finished_at"],
        status=data["status"],
        reason=data["reason"],
        settings=CONVERTER.structure(
            {**data["settings"], "max_errored": 0}, SuiteSettingsInfo
        ),
        totals=CONVERTER.structure(totals, SuiteTotals),
        exit_code=data["exit_code"],
        units=units,
        workflows=workflows,
        targets=target_aggregates(units),
    )


def _migrated_run(run: Mapping[str, Any]) -> SuiteRunInfo:
    if run["lost"]:
        verdict = lost_run_verdict(run.get("lost_reason") or "run_error")
    else:
        verdict = RunVerdict(
            status=verdict_status(
                run["execution_status"] or "", run["exit_code"], run["verification"]
            )
        )
    entry: SuiteRunInfo = CONVERTER.structure(
        {**run, "verdict": verdict.status, "why": None}, SuiteRunInfo
    )
    return attrs.evolve(entry, why=verdict.why)


def _migrated_workflow(entry: Mapping[str, Any]) -> SuiteWorkflowInfo:
    runs = tuple(_migrated_run(run) for run in entry["runs"])
    stats = PassStatistics.of_verdicts(Counter(run.verdict for run in runs))
    causes: Counter[CauseKey] = Counter(
        (run.why.kind, run.why.id, run.why.reason)
        for run in runs
        if run.why is not None
    )
    return SuiteWorkflowInfo(
        name=entry["name"],
        digest=entry["digest"],
        target="default",
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
        requirements=CONVERTER.structure(
            entry["requirements"], tuple[RequirementCounts, ...]
        ),
        failure_reasons=dict(entry["failure_reasons"]),
        causes=cause_counts(causes),
        budget_use=CONVERTER.structure(entry["budget_use"], BudgetUseInfo),
    )


def _unreadable(problem: Problem) -> WorkflowError:
    return WorkflowError(
        f"invalid suite record: {problem.message}",
        [problem],
        reason="invalid_suite_record",
    )


def read_suite_record(path: str | os.PathLike[str]) -> SuiteRecord:
    """Read ``suite.json`` as a typed `SuiteRecord` (version 1 migrated).

    The one reader of saved suite records: the file is opened without
    blocking and must be a regular file of at most 64 MiB (a FIFO is refused,
    never waited on), strict JSON, and a valid, consistent suite record
    (`suite_record_from_dict`).

    Raises:
        FileAccessError: The file cannot be read or is not a regular file (exit 1).
        WorkflowError: It is not strict JSON, not UTF-8, too large, or not a
            valid suite record (exit 2); the message says what is wrong.
    """
    text = read_text_file_now(
        path, what="suite record", limit=_MAX_SUITE_RECORD_BYTES, invalid=_unreadable
    )
    shown = os.fspath(path)
    try:
        data = load_strict_json(text)
    except StrictJsonError as exc:
        raise WorkflowError(
            f"invalid suite record: {exc.message}",
            [
                Problem(
                    message=exc.message, source=shown, line=exc.line, column=exc.column
                )
            ],
            reason="invalid_suite_record",
        ) from None
    try:
        if not isinstance(data, dict):
            raise WorkflowError(
                "not an ArtemisKit suite record", reason="not_a_suite_record"
            )
        return suite_record_from_dict(data)
    except WorkflowError as exc:
        # Say which file: the CLI prints ``FILE: message``.
        raise WorkflowError(
            exc.message,
            [Problem(message=exc.message, source=shown)],
            reason=exc.reason,
        ) from None


def load_suite_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """`read_suite_record`, as plain data of the current version.

    Raises:
        FileAccessError: The file cannot be read or is not a regular file (exit 1).
        WorkflowError: It is not strict JSON, not UTF-8, too large, or not a
            valid suite record (exit 2).
    """
    data: dict[str, Any] = CONVERTER.unstructure(read_suite_record(path))
    return data
