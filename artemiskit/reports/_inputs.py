"""What a report reads: a suite folder, a ``suite.json`` or record files (SPEC 14).

Every file is read bounded and validated; records of every schema version are
migrated to the current shape. Anything that is not workflow evidence is refused
with a message saying what the file is.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import anyio.to_thread
import attrs

from artemiskit._common._converter import CONVERTER
from artemiskit._common._json import StrictJsonError, load_strict_json
from artemiskit._common._kinds import is_manifest
from artemiskit._common._reading import read_text_file
from artemiskit._errors import FileAccessError, Problem, WorkflowError
from artemiskit.records import RECORD_SCHEMA, ExecutionRecord, record_from_dict
from artemiskit.reports._merge import SuiteSource, merge_suites
from artemiskit.suites import SUITE_SCHEMA, TRANSCRIPT_SCHEMA, suite_record_from_dict
from artemiskit.suites._record import (
    RunOutcome,
    summarize_workflow,
    target_id,
    totals,
    unit_of,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "ReportInput",
    "RunKey",
    "load_report_input",
    "load_transcripts",
    "run_key",
]

RunKey = tuple[str, str | None, str | None, int]
"""A run's workflow name, case, target and repetition (SPEC 19: the unit and the
repetition; case and target are ``None`` where the suite does not name them)."""


def run_key(workflow: str, run: Mapping[str, Any]) -> RunKey:
    """The key of a run entry of ``workflow`` in ``suite.json``."""
    return (workflow, run.get("case"), run.get("target"), run["repetition"])


_MAX_EVIDENCE_BYTES = 64 * 1024 * 1024
_MAX_SHOWN = 60


@attrs.frozen(kw_only=True)
class ReportInput:
    """The evidence a report shows, read and validated.

    Attributes:
        kind: ``suite`` (a ``suite.json``), ``suites`` (several, shown together)
            or ``records`` (record files only).
        suite: The suite record; for record files, one built the way a suite
            builds it, and for several suites their workflows together with
            summed totals (``suite_id``, ``status`` and ``exit_code`` are then
            ``None``).
        records: Every run's execution record that could be read, by run.
        missing: Runs whose record ``suite.json`` lists but that is absent.
        transcripts: Transcripts by run id (only with ``--transcripts``).
        sources: For several suites, each one's id, status and exit code.
    """

    kind: Literal["suite", "suites", "records"]
    suite: dict[str, Any]
    records: dict[RunKey, ExecutionRecord]
    missing: frozenset[RunKey] = frozenset()
    transcripts: dict[str, dict[str, Any]] | None = None
    sources: tuple[SuiteSource, ...] = ()


_WHAT_IS_READ = "a report reads a suite folder, a suite.json or workflow record files"


def _refuse(path: str, message: str, reason: str) -> WorkflowError:
    return WorkflowError(
        _WHAT_IS_READ,
        [Problem(message=message, source=path)],
        reason=reason,
    )


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


def _invalid_file(problem: Problem) -> WorkflowError:
    return WorkflowError(_WHAT_IS_READ, [problem], reason="unreadable_evidence")


async def _read_json(path: str) -> Any:
    text = await read_text_file(
        path, what="evidence", limit=_MAX_EVIDENCE_BYTES, invalid=_invalid_file
    )
    try:
        return load_strict_json(text)
    except StrictJsonError as exc:
        raise WorkflowError(
            _WHAT_IS_READ,
            [
                Problem(
                    message=exc.message, source=path, line=exc.line, column=exc.column
                )
            ],
            reason="not_json",
        ) from None


def _kind(path: str, data: Any) -> Literal["suite", "record"]:
    """Say what ``data`` is; refuse anything that is not workflow evidence."""
    if not isinstance(data, dict):
        kind = type(data).__name__.replace("dict", "object").replace("list", "array")
        raise _refuse(
            path, f"a JSON {kind}, not ArtemisKit workflow evidence", "not_evidence"
        )
    schema = data.get("schema")
    if schema == SUITE_SCHEMA:
        return "suite"
    if schema == RECORD_SCHEMA:
        return "record"
    if schema == TRANSCRIPT_SCHEMA:
        raise _refuse(
            path,
            "a transcript (sensitive working data), not a record; "
            "give its folder with --transcripts DIR",
            "transcript_given",
        )
    if is_manifest(data):
        raise _refuse(
            path,
            "a prompt-response run manifest (SPEC 17), not workflow evidence; "
            "report it alone: `akit report MANIFEST`",
            "prompt_response_manifest",
        )
    if schema is None:
        message = "a JSON object without a `schema` field, not ArtemisKit evidence"
    else:
        message = (
            f"a JSON file of schema {_shown(schema)}, not ArtemisKit workflow evidence"
        )
    raise _refuse(path, message, "not_evidence")


def _record(path: str, data: dict[str, Any]) -> ExecutionRecord:
    try:
        return record_from_dict(data)
    except WorkflowError as exc:
        raise _refuse(path, exc.message, exc.reason) from None


async def load_report_input(
    paths: list[str], *, transcripts: str | None = None
) -> ReportInput:
    """Read the evidence at ``paths``: one suite (folder or suite.json) or records.

    Args:
        paths: A suite folder, a ``suite.json``, or workflow record files.
        transcripts: A folder of transcripts (``--transcripts``) to show.

    Returns:
        The validated evidence.

    Raises:
        WorkflowError: A file is not workflow evidence, is invalid, or the paths
            mix kinds (exit 2).
        FileAccessError: A file or folder cannot be read (exit 1).
    """
    if not paths:
        raise WorkflowError("give a suite folder, a suite.json or record files")
    suites: list[tuple[str, dict[str, Any]]] = []
    records: list[tuple[str, ExecutionRecord]] = []
    for given in paths:
        path = await anyio.to_thread.run_sync(_evidence_file, given)
        data = await _read_json(path)
        if _kind(path, data) == "suite":
            try:
                typed = suite_record_from_dict(data)
            except WorkflowError as exc:
                raise _refuse(path, exc.message, exc.reason) from None
            # The views read the record as plain data: a report also shows
            # loose record files and several suites, which no suite record is.
            suites.append((path, CONVERTER.unstructure(typed)))
        else:
            record = _record(path, data)
            for other, seen in records:
                if seen.attempt_id == record.attempt_id:
                    raise _refuse(
                        path, f"the same run attempt as {other}", "record_given_twice"
                    )
            records.append((path, record))
    if suites and records:
        raise WorkflowError(
            "give suites (folders or suite.json files), or record files, not both "
            "(`akit report compare` compares two suites)",
            reason="mixed_evidence",
        )
    shown = None if transcripts is None else await load_transcripts(transcripts)
    if not suites:
        return _from_records(records, shown)
    suite = suites[0][1]
    sources: tuple[SuiteSource, ...] = ()
    if len(suites) > 1:
        suite, sources = merge_suites(suites)
    found: dict[RunKey, ExecutionRecord] = {}
    missing: list[RunKey] = []
    for path, one in suites:
        more, absent = await _suite_records(Path(path).parent, one)
        found.update(more)
        missing += absent
    return ReportInput(
        kind="suites" if sources else "suite",
        suite=suite,
        records=found,
        missing=frozenset(missing),
        transcripts=shown,
        sources=sources,
    )


def _exists(path: str) -> bool:
    """Whether ``path`` leads to something; a symbolic link loop is refused.

    Raises:
        WorkflowError: ``path`` is (or passes through) a symbolic link loop.
    """
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _refuse(
                path, "a symbolic link loop, not a file", "symlink_loop"
            ) from None
        return False
    return True


def _evidence_file(given: str) -> str:
    """The file to read for ``given``: itself, or a suite folder's suite.json."""
    _exists(given)
    if not os.path.isdir(given):
        return given
    path = os.path.join(given, "suite.json")
    if not os.path.lexists(path):
        raise _refuse(
            given,
            "a folder without suite.json, so not a suite folder",
            "not_a_suite_folder",
        )
    _exists(path)
    return path


def _record_file(folder: Path, name: str) -> str | None:
    """The path of a record ``suite.json`` lists; ``None`` when it is absent."""
    path = os.fspath(folder / name)
    found = _exists(path)
    if not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder)):
        raise _refuse(
            os.fspath(folder / "suite.json"),
            f"a run's record {_shown(name)} lies outside the suite folder",
            "record_outside_suite",
        )
    return path if found else None


async def _suite_records(
    folder: Path, suite: dict[str, Any]
) -> tuple[dict[RunKey, ExecutionRecord], list[RunKey]]:
    found: dict[RunKey, ExecutionRecord] = {}
    missing: list[RunKey] = []
    for workflow in suite["workflows"]:
        for run in workflow["runs"]:
            key = run_key(workflow["name"], run)
            if run["record"] is None:
                continue
            shown = await anyio.to_thread.run_sync(_record_file, folder, run["record"])
            if shown is None:
                missing.append(key)
                continue
            data = await _read_json(shown)
            if _kind(shown, data) != "record":
                raise _refuse(shown, "a suite record, not a run record", "not_a_record")
            found[key] = _record(shown, data)
    return found, missing


def _latest_attempts(
    given: list[tuple[str, ExecutionRecord]],
) -> list[tuple[str, ExecutionRecord]]:
    """The records given, less every attempt that another one resumed.

    A resume continues the same logical run (same ``run_id``, a new attempt that
    names the one it resumed) and its record's counters include every attempt
    before it, so a paused attempt given beside its resumption is not another
    run: only the latest attempt counts.
    """
    resumed = {record.recovery.resumed_from_attempt for _, record in given}
    return [
        (path, record) for path, record in given if record.attempt_id not in resumed
    ]


def _from_records(
    given: list[tuple[str, ExecutionRecord]],
    transcripts: dict[str, dict[str, Any]] | None,
) -> ReportInput:
    given = _latest_attempts(given)
    by_workflow: dict[str, list[tuple[str, ExecutionRecord]]] = {}
    for path, record in given:
        by_workflow.setdefault(record.workflow.name, []).append((path, record))
    workflows = []
    outcomes: list[RunOutcome] = []
    found: dict[RunKey, ExecutionRecord] = {}
    for name in sorted(by_workflow):
        runs = sorted(by_workflow[name], key=lambda item: item[1].execution.started_at)
        mine = [
            RunOutcome(
                workflow=name,
                repetition=number,
                record=record,
                record_file=Path(path).name,
                duration_ms=record.execution.duration_ms,
            )
            for number, (path, record) in enumerate(runs, start=1)
        ]
        found.update(
            {
                (name, None, None, o.repetition): r
                for o, (_, r) in zip(mine, runs, strict=True)
            }
        )
        outcomes += mine
        # Record files given anywhere: the entry is a view, never a suite.json.
        first = runs[0][1]
        workflows.append(
            summarize_workflow(
                name,
                first.workflow.digest,
                first.target.id or target_id(first.target.provider, first.target.model),
                mine,
                check_runs=False,
            )
        )
    starts = [r.execution.started_at for _, r in given]
    ends = [r.execution.finished_at for _, r in given]
    suite = {
        "suite_id": None,
        "started_at": min(starts),
        "finished_at": max(ends),
        "status": None,
        "reason": None,
        "settings": None,
        "totals": CONVERTER.unstructure(
            totals(outcomes, len(outcomes), sum(o.duration_ms for o in outcomes))
        ),
        "exit_code": None,
        "units": CONVERTER.unstructure([unit_of(entry) for entry in workflows]),
        "workflows": CONVERTER.unstructure(workflows),
    }
    return ReportInput(
        kind="records", suite=suite, records=found, transcripts=transcripts
    )


def _transcript_files(folder: str) -> list[str]:
    if not os.path.isdir(folder):
        raise FileAccessError(
            f"--transcripts {folder}: not a folder", reason="transcripts_not_a_folder"
        )
    return [os.fspath(p) for p in sorted(Path(folder).rglob("*.transcript.json"))]


async def load_transcripts(folder: str) -> dict[str, dict[str, Any]]:
    """Every ``*.transcript.json`` below ``folder``, by run id.

    Raises:
        FileAccessError: ``folder`` is not a readable folder (exit 1).
        WorkflowError: A transcript file is not a transcript (exit 2).
    """
    found: dict[str, dict[str, Any]] = {}
    for shown in await anyio.to_thread.run_sync(_transcript_files, folder):
        data = await _read_json(shown)
        if (
            not isinstance(data, dict)
            or data.get("schema") != TRANSCRIPT_SCHEMA
            or not isinstance(data.get("run_id"), str)
            or not isinstance(data.get("messages"), list)
        ):
            raise _refuse(shown, "not an ArtemisKit transcript", "not_a_transcript")
        found[data["run_id"]] = data
    return found
