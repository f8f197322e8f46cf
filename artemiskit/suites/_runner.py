"""The suite session: plan, run through an executor, keep the suite record."""

from __future__ import annotations

import ctypes
import functools
import json
import math
import os
import sys
import time
import uuid
from collections import Counter
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import anyio
import anyio.to_thread
import attrs

from artemiskit._common._atomic import write_atomically
from artemiskit._common._json import MAX_EVIDENCE_INTEGER
from artemiskit._common._pool import run_bounded
from artemiskit._errors import (
    ArtemisError,
    SessionStateError,
    WorkflowError,
)
from artemiskit._exit_codes import ExitCode
from artemiskit.engine._session import WorkflowResult
from artemiskit.engine._stops import INTERRUPTED
from artemiskit.environments._base import cleanup_bound_ms
from artemiskit.environments._simulated import SIMULATED_CLEANUP_TIMEOUT_MS
from artemiskit.providers import SharedTransports
from artemiskit.records import (
    CaseSelectionInfo,
    Cause,
    SuiteRecord,
    SuiteSettingsInfo,
    SuiteStatus,
    TelemetryInfo,
)
from artemiskit.records._suite_io import suite_record_chunks
from artemiskit.suites._executor import (
    LocalExecutor,
    RunLost,
    ShippedResult,
    SuiteExecutor,
)
from artemiskit.suites._factory import SessionFactory
from artemiskit.suites._layout import (
    CASSETTE_SUFFIX,
    RECORD_SUFFIX,
    TRANSCRIPT_SUFFIX,
    RunLayout,
    prepare_output_dir,
    record_line,
)
from artemiskit.suites._record import (
    RunOutcome,
    SuiteTally,
    WorkflowTally,
    aggregate_rate,
    check_suite_record,
    check_whole_suite_record,
    check_workflow_entry,
    exact_units_rate,
    suite_exit_code,
    target_aggregates,
    with_workflow_aggregates,
)
from artemiskit.suites._results import SuiteResult, SuiteRun
from artemiskit.suites._run_spool import RunPlaces, RunSpool
from artemiskit.suites._selection import EVERY_CASE, CaseSelection
from artemiskit.suites._shipping import RemoteRun
from artemiskit.suites._targets import SuiteTarget, own_target
from artemiskit.suites._transcript import transcript_to_dict
from artemiskit.suites._units import CountedUnit, UnitTable

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Mapping, Sequence

    from anyio.streams.memory import MemoryObjectSendStream

    from artemiskit.engine._judge import JudgeSettings
    from artemiskit.engine._session import WorkflowResult, WorkflowSession
    from artemiskit.suites._cassettes import SuiteCassettes
    from artemiskit.suites._discovery import SuiteWorkflow
    from artemiskit.telemetry._telemetry import Telemetry
    from artemiskit.tools._mcp_config import McpServerConfig
    from artemiskit.workflow import WorkflowCase

__all__ = [
    "SessionFactory",
    "SuiteEvent",
    "SuiteResult",
    "SuiteRun",
    "SuiteSession",
    "SuiteSettings",
    "prepare_output_dir",
]

_T = TypeVar("_T")
#: What ``--min-pass-rate`` may judge (SPEC 23).
GATES = ("point", "lower-bound")
_REWRITE_INTERVAL_S = 1.0
#: Units and runs listed below which a rewrite is due as soon as the runs
#: pending double (see `SuiteSession._rewrite_due`).
_DOUBLING_ENTRIES = 4096
#: How many recently made folders a suite remembers (to skip making them again).
_FOLDERS_REMEMBERED = 64
#: Totals the suite span carries as ``artemiskit.suite.<name>``.
_SUITE_COUNTS = (
    "runs_planned",
    "runs_finished",
    "runs_lost",
    "passed",
    "failed",
    "errored",
    "unavailable",
)


@attrs.frozen(kw_only=True)
class SuiteSettings:
    """What a suite does (SPEC 13).

    Attributes:
        repeat: Runs per workflow.
        concurrency: Runs in flight at most.
        min_pass_rate: Every workflow's pass rate must reach it (exit 8 if not).
        max_suite_tokens: No new run starts once measured tokens reach it, or
            once any run's usage was unmeasured.
        fail_fast: No new run starts after the first run that did not pass.
        transcripts: Keep each run's conversation (sensitive; needs an output
            folder).
        max_errored: Errored runs (lost ones included) tolerated before the
            suite exits 7 (SPEC 20).
        gate: What ``min_pass_rate`` judges (SPEC 23): the pass rate itself
            (``point``) or the lower bound of its 95% interval (``lower-bound``).
        cases: Which cases of workflows with cases run (SPEC 19): ``--case``
            ids or a seeded ``--sample``; every case by default.
    """

    repeat: int = 1
    concurrency: int = 4
    min_pass_rate: float = 1.0
    max_suite_tokens: int | None = None
    fail_fast: bool = False
    transcripts: bool = False
    max_errored: int = 0
    gate: Literal["point", "lower-bound"] = "point"
    cases: CaseSelection = EVERY_CASE

    def __attrs_post_init__(self) -> None:
        """Refuse values out of range.

        Raises:
            WorkflowError: A setting is out of range (``invalid_option``).
        """
        if self.repeat < 1 or self.concurrency < 1:
            raise WorkflowError(
                "repeat and concurrency must be at least 1", reason="invalid_option"
            )
        if not 0 <= self.min_pass_rate <= 1 or math.isnan(self.min_pass_rate):
            raise WorkflowError(
                "min_pass_rate must be between 0 and 1", reason="invalid_option"
            )
        if self.max_suite_tokens is not None and not (
            1 <= self.max_suite_tokens <= MAX_EVIDENCE_INTEGER
        ):
            raise WorkflowError(
                "max_suite_tokens must be between 1 and 2**63 - 1",
                reason="invalid_option",
            )
        if not 0 <= self.max_errored <= MAX_EVIDENCE_INTEGER:
            raise WorkflowError(
                "max_errored must be between 0 and 2**63 - 1", reason="invalid_option"
            )
        if self.gate not in GATES:
            raise WorkflowError(
                f"gate must be one of {', '.join(GATES)}", reason="invalid_option"
            )


@attrs.frozen(kw_only=True)
class SuiteEvent:
    """One metadata event of a suite.

    Attributes:
        type: ``suite_started``, ``run_started``, ``run_finished`` or
            ``suite_finished``.
        suite_id: The suite.
        workflow: The workflow's name, for run events.
        target: The id of the target a run event's run ran on.
        repetition: The repetition (from 1), for run events.
        case: The dataset case (SPEC 19), for run events of a workflow with
            cases.
        run_id: The run, once finished.
        verdict: ``passed``, ``failed``, ``errored`` or ``unavailable``, once
            finished (a lost run is errored).
        why: The finished run's first decisive cause when it did not pass
            (``None`` when it passed); metadata only.
        exit_code: The run's (or, at the end, the suite's) exit code.
        status: The run's execution status, or the suite's status at the end.
        input_tokens: Measured input tokens of a finished run (``None`` if not).
        output_tokens: Measured output tokens of a finished run (``None`` if not).
    """

    type: str
    suite_id: str
    workflow: str | None = None
    repetition: int | None = None
    target: str | None = None
    case: str | None = None
    run_id: str | None = None
    verdict: str | None = None
    why: Cause | None = None
    exit_code: int | None = None
    status: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None


def _suite_servers(
    workflows: Sequence[SuiteWorkflow], configs: Mapping[str, McpServerConfig]
) -> dict[str, McpServerConfig] | None:
    """The ``lifetime: suite`` MCP servers the suite's workflows use, if any."""
    used = {
        tool.mcp.server
        for item in workflows
        for tool in item.workflow.tools
        if tool.mcp is not None
    }
    shared = {
        name: configs[name]
        for name in sorted(used)
        if name in configs and configs[name].lifetime == "suite"
    }
    return shared or None


#: A file a run leaves: its path, its bytes, and the root of its private
#: folders (``None`` for a record, which is not sensitive).
_RunFile = tuple[str, bytes, Path | None]


def _private_folders(root: Path, folder: Path) -> None:
    """Create ``folder`` below ``root`` with every folder from ``root`` down 0700."""
    path = root
    for part in ("", *folder.relative_to(root).parts):
        path = path / part if part else path
        path.mkdir(mode=0o700, exist_ok=True)
        os.chmod(path, 0o700)


async def _ready(value: _T) -> _T:
    return value


def _syncfs(folder: Path) -> bool:
    """``syncfs(2)`` the file system holding ``folder``; whether it was done."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        syncfs = libc.syncfs
    except (OSError, AttributeError):
        return False
    handle = os.open(folder, os.O_RDONLY)
    try:
        return bool(syncfs(handle) == 0)
    finally:
        os.close(handle)


def _fsync(path: str) -> None:
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _make_folder(folder: str) -> None:
    """Make ``folder`` (and its parents if missing); one ``mkdir`` when they exist.

    A suite with cases makes a folder per case: ``os.makedirs`` would look
    at the parent first, a system call more per run.
    """
    try:
        os.mkdir(folder)
    except FileExistsError:
        return
    except FileNotFoundError:
        os.makedirs(folder, exist_ok=True)


def _sync_tree(root: Path) -> None:
    """``fsync`` every file and folder below ``root``, and ``root``."""
    for folder, _, names in os.walk(root):
        for name in names:
            _fsync(os.path.join(folder, name))
        _fsync(folder)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@attrs.frozen
class _Job:
    unit: SuiteTarget
    repetition: int
    case: str | None = None

    @property
    def workflow(self) -> SuiteWorkflow:
        return self.unit.item


@attrs.frozen(kw_only=True)
class _PlannedRun:
    """A job as an executor sees it (`PlannedRun`)."""

    suite: SuiteSession
    job: _Job

    @property
    def key(self) -> str:
        job = self.job
        case = "" if job.case is None else f"{job.case}/"
        return (
            f"{self.suite.suite_id}/{job.workflow.name}/{case}"
            f"{job.unit.target}/{job.repetition}"
        )

    @property
    def files_key(self) -> str:
        job = self.job
        return f"{self.suite.suite_id}/{job.workflow.name}/{job.unit.target}"

    async def run_here(self) -> WorkflowResult:
        return await self.suite._run_here(self.job)

    def shipped(self) -> RemoteRun:
        return self.suite._shipped(self.job)


class SuiteSession:
    """Runs a validated suite once. Create it with `ArtemisKit.create_suite_session`.

    Args:
        kit: The facade that creates each run's session.
        workflows: The validated workflows.
        settings: The suite settings.
        targets: Each (workflow, target) unit of the suite (`plan_targets`);
            ``None``: each workflow on its own target.
        output_dir: A prepared (new or empty) folder, or ``None`` to write nothing.
        executor: Where runs execute (default: a `LocalExecutor`).
        judge: The judge for ``judge`` outcomes.
        cleanup_timeout_ms: Each run's cleanup drain period.
        remote_kit: Builds the session factory on a remote worker (for an
            executor that runs runs elsewhere, such as `RayExecutor`).
        remote_files: For such an executor, the files each unit's runs read,
            by workflow name and target id (see `artemiskit.suites._shipping`).
        telemetry: Export the suite as one OpenTelemetry trace (local runs).
        cassettes: What the runs record and replay (SPEC 22), checked already.
    """

    def __init__(
        self,
        *,
        kit: SessionFactory,
        workflows: Sequence[SuiteWorkflow],
        settings: SuiteSettings,
        targets: Sequence[SuiteTarget] | None = None,
        output_dir: Path | None = None,
        executor: SuiteExecutor | None = None,
        judge: JudgeSettings | str | os.PathLike[str] | None = None,
        cleanup_timeout_ms: int | None = None,
        remote_kit: Callable[[], SessionFactory] | None = None,
        remote_files: Mapping[tuple[str, str], Mapping[str, bytes]] | None = None,
        telemetry: Telemetry | None = None,
        mcp_servers: Mapping[str, McpServerConfig] | None = None,
        cassettes: SuiteCassettes | None = None,
    ) -> None:
        if settings.transcripts and output_dir is None:
            raise WorkflowError(
                "transcripts need an output folder", reason="invalid_option"
            )
        self._kit = kit
        self._cassettes = cassettes
        self._workflows = tuple(workflows)
        self._units = tuple(
            targets
            if targets is not None
            else [SuiteTarget(item=w, target=own_target(w)) for w in workflows]
        )
        per_workflow = Counter(unit.name for unit in self._units)
        # One target keeps the <target> level out of the layout; several add it.
        self._layered = any(count > 1 for count in per_workflow.values())
        self._chosen = (
            None
            if targets is None or all(unit.choice is None for unit in self._units)
            else list(dict.fromkeys(unit.target for unit in self._units))
        )
        # Each workflow's targets.
        self._by_name = {w.name: w for w in workflows}
        self._targets_of: dict[str, list[str]] = {}
        for unit in self._units:
            self._targets_of.setdefault(unit.name, []).append(unit.target)
        # Workflow, then case, then target: a case's targets run side by side.
        on_targets: dict[str, list[SuiteTarget]] = {}
        for unit in self._units:
            on_targets.setdefault(unit.name, []).append(unit)
        self._plan: list[tuple[SuiteTarget, str | None]] = [
            (unit, case)
            for w in workflows
            for case in (w.case_ids if w.cases is not None else (None,))
            for unit in on_targets.get(w.name, ())
        ]
        self._settings = settings
        self._output = output_dir
        self._executor = executor or LocalExecutor()
        if self._executor.placement != "in_process" and telemetry is not None:
            raise WorkflowError(
                "OpenTelemetry export runs in the driver's process: it is not "
                f"available with the {self._executor.name} executor",
                reason="invalid_option",
            )
        self._remote_kit = remote_kit
        # A judge file is read where a remote run executes: by its full path.
        self._remote_judge = (
            os.path.abspath(judge) if isinstance(judge, str | os.PathLike) else judge
        )
        self._remote_files = dict(remote_files or {})
        self._judge = judge
        self._cleanup_timeout_ms = cleanup_timeout_ms
        self._layout = RunLayout(self._units)
        self.suite_id = uuid.uuid4().hex
        self._telemetry = (
            None if telemetry is None else telemetry.for_suite(self.suite_id)
        )
        self._suite_span: TelemetryInfo | None = None
        # A finished run is kept only as its line of suite.json (in its
        # workflow's tally) and its counts; its result only without an output
        # folder (SuiteResult has nowhere else to read it from).
        self._runs: list[SuiteRun] = []
        # Spans exported and dropped by the finished runs.
        self._spans = [0, 0]
        self._in_flight: set[WorkflowSession] = set()
        self._cancelled = False
        self._stop: tuple[SuiteStatus, str] | None = None
        self._streams: list[MemoryObjectSendStream[SuiteEvent]] = []
        self._write_lock = anyio.Lock()
        self._transports = SharedTransports()
        self._mcp_shared = _suite_servers(self._workflows, mcp_servers or {})
        self._tokens = 0
        # The folders made most recently (runs of a unit finish close
        # together; one made again is a no-op): bounded, not one per unit.
        self._folders_made: dict[str, None] = {}
        self._covered = -1
        self._written_at = 0.0
        self._rewrite_cost = 0.0
        self._tallies = {
            w.name: WorkflowTally(
                w.name,
                w.digest,
                # Several targets: the units say which ran.
                None if per_workflow[w.name] > 1 else own_target(w),
                # With an output folder a run's line is on disk (`RunSpool`).
                keep_runs=output_dir is None,
            )
            for w in workflows
        }
        for unit in self._units:
            if per_workflow[unit.name] == 1:
                self._tallies[unit.name].target = unit.target
        # Every planned unit's counters, made once (SPEC 26's order).
        self._unit_tables = {
            w.name: UnitTable(
                w.name,
                w.case_ids if w.cases is not None else (None,),
                self._targets_of.get(w.name, ()),
            )
            for w in workflows
        }
        self._all_units: list[CountedUnit] = [
            unit for w in workflows for unit in self._unit_tables[w.name]
        ]
        # Each workflow and target on which the gate judges (SPEC 19, 23).
        self._gated: dict[tuple[str, str], list[CountedUnit]] = {}
        for counted in self._all_units:
            self._gated.setdefault((counted.workflow, counted.target), []).append(
                counted
            )
        self._places = RunPlaces(
            [
                (w.name, w.case_ids if w.cases is not None else (None,))
                for w in workflows
            ],
            self._targets_of,
            settings.repeat,
        )
        # Finished runs' lines of suite.json, on disk while the suite runs.
        self._spool: RunSpool | None = None
        self._totals = SuiteTally()
        self._changed = set(self._tallies)
        # Folders holding files written whole (atomically) but not yet synced
        # to disk: syncing each file as its run finishes would serialize the
        # suite on the disk, and one sync of each at the end covers them all.
        self._unsynced: set[Path] = set()
        # Events of filed runs waiting behind a suite.json rewrite in flight.
        self._held: list[SuiteEvent | None] = []
        self._rewriting = False
        self._started_at = _now()
        self._clock = time.monotonic()
        self._ran = False

    @property
    def planned(self) -> int:
        """How many runs the suite plans (units x repeat)."""
        return len(self._plan) * self._settings.repeat

    @property
    def workflow_names(self) -> tuple[str, ...]:
        """The workflows' names, in suite order."""
        return tuple(w.name for w in self._workflows)

    @property
    def matrix(self) -> bool:
        """Whether a workflow runs on several targets (a target matrix)."""
        return self._layered

    @property
    def target_ids(self) -> tuple[str, ...]:
        """The ids of the targets the suite's units run on, each once, in order."""
        return tuple(dict.fromkeys(unit.target for unit in self._units))

    def events(self, *, buffer: int = 1024) -> AsyncIterator[SuiteEvent]:
        """A stream of this suite's events; a slow reader loses events, never blocks.

        Call it before `run()`; the stream ends when the suite finishes.
        """
        send, receive = anyio.create_memory_object_stream[SuiteEvent](buffer)
        self._streams.append(send)

        async def iterate() -> AsyncIterator[SuiteEvent]:
            async with receive:
                async for event in receive:
                    yield event

        return iterate()

    def cancel(self) -> None:
        """Start no new run and cancel every run in flight.

        Runs in flight drain their bounded cleanup and keep their (cancelled)
        records; the suite ends with status ``cancelled`` (exit 130).
        """
        self._cancelled = True
        for session in list(self._in_flight):
            session.cancel()
        self._executor.cancel()

    def _emit(self, event: SuiteEvent | None) -> None:
        if event is None:
            return
        for stream in self._streams:
            try:
                stream.send_nowait(event)
            except (
                anyio.WouldBlock,
                anyio.BrokenResourceError,
                anyio.ClosedResourceError,
            ):
                continue

    def _may_start(self) -> bool:
        return not self._cancelled and self._stop is None

    def _status(self, finished: bool) -> tuple[SuiteStatus, str]:
        if self._cancelled:
            return "cancelled", "cancel_requested"
        if self._stop is not None:
            return self._stop
        if not finished:
            # SPEC 13 has no in-progress status: until the suite ends, its file
            # says what a suite stopped at this moment would amount to.
            return "cancelled", "not_finished"
        return "completed", "all_runs_finished"

    def _summary(self, finished: bool) -> SuiteRecord:
        """The suite record as of now, less its units and its runs.

        Those are written from where they are kept (`UnitTable`, `RunSpool`);
        `_full_summary` adds them for a suite that writes nothing.
        """
        status, reason = self._status(finished)
        # A workflow's entry is made for each rewrite and dropped after it:
        # its pass@k and pass^k have a key per judged run, so an entry held
        # between rewrites would grow with the finished runs. Only an entry
        # with a new finished run is checked again (each run was checked when
        # it was added).
        changed = self._changed
        self._changed = set()
        units = self._all_units
        # Several units (cases): the mean of their rates, clustered (SPEC 23, 26).
        workflows = with_workflow_aggregates(
            [self._tallies[w.name].entry() for w in self._workflows], units
        )
        for entry in workflows:
            if entry.name in changed:
                check_workflow_entry(entry)
        settings = self._settings
        exit_code = None
        if finished:
            # Every workflow on every target must reach the gate.
            exit_code = suite_exit_code(
                status,
                self._totals.verdicts,
                self._gated_rates(),
                settings.min_pass_rate,
                settings.max_errored,
            )
        duration = int((time.monotonic() - self._clock) * 1000)
        totals = self._totals.totals(self.planned, duration)
        if self._telemetry is not None:
            totals = attrs.evolve(totals, telemetry=self._telemetry_totals())
        cases = settings.cases.as_setting()
        return check_suite_record(
            SuiteRecord(
                suite_id=self.suite_id,
                started_at=self._started_at,
                finished_at=_now() if finished else None,
                status=status,
                reason=reason,
                settings=SuiteSettingsInfo(
                    repeat=settings.repeat,
                    concurrency=settings.concurrency,
                    executor=self._executor.name,
                    min_pass_rate=settings.min_pass_rate,
                    max_suite_tokens=settings.max_suite_tokens,
                    max_errored=settings.max_errored,
                    gate=settings.gate,
                    cases=None if cases is None else CaseSelectionInfo(**cases),
                    # Present only when targets were chosen (SPEC 19).
                    targets=None if self._chosen is None else tuple(self._chosen),
                ),
                totals=totals,
                exit_code=exit_code,
                units=(),
                workflows=tuple(
                    attrs.evolve(entry, runs=()) if entry.runs else entry
                    for entry in workflows
                ),
                targets=target_aggregates(units),
            )
        )

    def _full_summary(self, summary: SuiteRecord) -> SuiteRecord:
        """``summary`` with its units and runs (a suite without an output folder)."""
        full = attrs.evolve(
            summary,
            units=tuple(
                unit
                for w in self._workflows
                for unit in self._unit_tables[w.name].entries()
            ),
            workflows=tuple(
                attrs.evolve(entry, runs=tuple(self._tallies[entry.name].runs))
                for entry in summary.workflows
            ),
        )
        # Checked whole, once: it is made once and held anyway.
        return check_whole_suite_record(full)

    def _gated_rates(self) -> list[Fraction | None]:
        """What the gate judges: each workflow on each target (SPEC 19, 23).

        One unit (or several of one case): the pooled rate, exactly, or its
        Wilson bound. Several cases: the exact mean of their rates, or the lower
        bound of the clustered interval (`aggregate_pass_rate`).
        """
        rates: list[Fraction | None] = []
        for group in self._gated.values():
            if self._settings.gate == "point":
                rates.append(exact_units_rate(group))
                continue
            _, interval = aggregate_rate(group)
            rates.append(None if interval is None else Fraction(interval.low))
        return rates

    async def _write_summary(self, finished: bool) -> SuiteRecord | None:
        """Rewrite ``suite.json`` to cover every run finished so far.

        Rewrites coalesce: a caller that waited while another wrote a snapshot
        already covering its run writes nothing (``None``), so a burst of
        finished runs costs one or two disk syncs, not one each.
        """
        wanted = self._totals.finished
        if self._output is None:
            # Nothing is written: the record is made once, at the end.
            return self._full_summary(self._summary(True)) if finished else None
        async with self._write_lock:
            if not finished and self._covered >= wanted:
                return None
            self._covered = self._totals.finished
            began = time.monotonic()
            summary = self._summary(finished)
            if finished:
                # The final rewrite is durable: its disk syncs wait in a thread
                # (no run is filed any more).
                await anyio.to_thread.run_sync(self._write_file, summary, True)
            else:
                # Progressive rewrites skip the disk sync (still atomic for any
                # reader and a killed suite) and stream out on the loop, so no
                # run is filed while they read the units and runs.
                self._write_file(summary, False)
            self._written_at = time.monotonic()
            self._rewrite_cost = self._written_at - began
            return summary

    def _write_file(self, summary: SuiteRecord, durable: bool) -> None:
        """Stream ``suite.json`` to disk: ``summary``, every unit, every run."""
        assert self._output is not None
        assert self._spool is not None
        units = (
            line for w in self._workflows for line in self._unit_tables[w.name].lines()
        )
        places = self._places
        with self._spool.reading() as lines:
            chunks = suite_record_chunks(
                summary, units=units, runs=lambda index: lines(*places.span(index))
            )
            write_atomically(self._output / "suite.json", chunks, durable=durable)

    def _rewrite_due(self) -> bool:
        """Whether ``suite.json`` should be rewritten now that a run finished.

        A rewrite costs the whole file (its units, its runs, its statistics),
        so rewrites are batched. While the file is small (fewer units and runs
        than `_DOUBLING_ENTRIES`), one is due when the runs not yet in it reach
        those already in it (the first two runs each, then doubling: a
        constant share of work per run however long the suite). In any case,
        and beyond that size only, one is due once a second, and twenty times
        what the last rewrite took, have passed since it: rewrites of a large
        file take at most a twentieth of the suite's time.
        """
        if self._output is None:
            return False
        pending = self._totals.finished - max(self._covered, 0)
        if pending <= 0:
            return False
        small = self._covered + len(self._all_units) < _DOUBLING_ENTRIES
        if small and pending >= max(1, self._covered):
            return True
        # A rewrite may take at most a twentieth of the time between rewrites.
        interval = max(_REWRITE_INTERVAL_S, 20 * self._rewrite_cost)
        return time.monotonic() - self._written_at >= interval

    def _stem(self, job: _Job) -> str:
        """The relative name of the job's files (record, transcript, cassette)."""
        return self._layout.stem(
            job.workflow.name, job.case, job.unit.target, job.repetition
        )

    def _encode(
        self, job: _Job, result: WorkflowResult | None, line: bytes | None = None
    ) -> tuple[str | None, list[_RunFile]]:
        """The run's record, transcript and cassette files; the record's name.

        ``line`` is the record file as the run's worker encoded it, if it ran
        elsewhere (`ShippedResult`).
        """
        if result is None:
            return None, []
        stem = self._stem(job)
        files: list[_RunFile] = []
        cassettes = self._cassettes
        if cassettes is not None and cassettes.record is not None and result.cassette:
            path = os.path.join(cassettes.record, f"{stem}{CASSETTE_SUFFIX}")
            files.append((path, result.cassette, cassettes.record))
        if self._output is None:
            return None, files
        relative = f"runs/{stem}{RECORD_SUFFIX}"
        if line is None:
            line = record_line(result.record)
        # Names as strings: pathlib would intern every part of every name.
        files.append((os.path.join(self._output, relative), line, None))
        if self._settings.transcripts:
            transcript = json.dumps(
                transcript_to_dict(result), indent=2, ensure_ascii=False
            ).encode("utf-8")
            root = self._output / "transcripts"
            private = os.path.join(root, f"{stem}{TRANSCRIPT_SUFFIX}")
            files.append((private, transcript + b"\n", root))
        return relative, files

    def _write_files(self, files: Sequence[_RunFile]) -> None:
        """Write a finished run's files, each atomically.

        A file with a private root (transcripts, cassettes: sensitive) is
        written 0600, and every folder from that root down is 0700.

        This runs on the event loop: the writes are small and never synced
        here (one sync at the end covers them), and a thread hop per run
        costs more CPU than the writes.
        """
        for path, data, private in files:
            folder = os.path.dirname(path)
            if folder not in self._folders_made:
                if private is not None:
                    _private_folders(private, Path(folder))
                else:
                    _make_folder(folder)
                self._folders_made[folder] = None
                if len(self._folders_made) > _FOLDERS_REMEMBERED:
                    del self._folders_made[next(iter(self._folders_made))]
            mode = 0o644 if private is None else 0o600
            write_atomically(path, data, mode=mode, replace=False, durable=False)
            root = private or self._output
            if root is not None:
                self._unsynced.add(root)

    def _file(self, outcome: RunOutcome) -> None:
        entry = self._tallies[outcome.workflow].add(outcome)
        assert outcome.target is not None  # a suite's runs name their target
        if self._spool is not None:
            place = self._places.position(
                outcome.workflow, outcome.case, outcome.target, outcome.repetition
            )
            self._spool.add(place, json.dumps(entry).encode("utf-8"))
        self._unit_tables[outcome.workflow].add(
            outcome.case, outcome.target, outcome.verdict.status
        )
        telemetry = None if outcome.record is None else outcome.record.telemetry
        if telemetry is not None:
            self._spans[0] += telemetry.exported
            self._spans[1] += telemetry.dropped
        self._totals.add(outcome)
        self._changed.add(outcome.workflow)

    def _sync_files(self) -> None:
        """Flush every file the runs wrote (records, transcripts, cassettes) to disk.

        On Linux one ``syncfs`` of each folder's file system does it (much
        cheaper than a sync per file); elsewhere each file and folder below the
        folders the runs wrote into is synced. Only those folders were kept,
        never a name per run.
        """
        roots, self._unsynced = sorted(self._unsynced), set()
        synced: list[Path] = []
        for root in roots:
            if any(root.is_relative_to(done) for done in synced):
                continue
            synced.append(root)
            if not _syncfs(root):
                _sync_tree(root)

    def _account(self, outcome: RunOutcome) -> None:
        """Stop new starts when fail-fast or the suite budget says so.

        A run its agent or a tool interrupted (`KeyboardInterrupt`) cancels the
        suite, as Ctrl-C would.
        """
        record = outcome.record
        execution = None if record is None else record.execution
        if (
            execution is not None
            and execution.status == "cancelled"
            and execution.reason == INTERRUPTED
        ):
            self.cancel()
        if self._stop is not None:
            return
        settings = self._settings
        if settings.fail_fast and outcome.verdict.status != "passed":
            self._stop = ("failed_fast", "run_not_passed")
            return
        if settings.max_suite_tokens is None:
            return
        if record is None or (
            record.budget.used.input_tokens is None
            or record.budget.used.output_tokens is None
        ):
            self._stop = ("budget_exhausted", "usage_unmeasured")
            return
        self._tokens += record.budget.used.input_tokens
        self._tokens += record.budget.used.output_tokens
        if self._tokens >= settings.max_suite_tokens:
            self._stop = ("budget_exhausted", "max_suite_tokens_reached")

    async def _run_one(self, job: _Job) -> None:
        item = job.workflow
        if self._streams:
            self._emit(
                SuiteEvent(
                    type="run_started",
                    suite_id=self.suite_id,
                    workflow=item.name,
                    target=job.unit.target,
                    repetition=job.repetition,
                    case=job.case,
                )
            )
        started = time.monotonic()
        result: WorkflowResult | None = None
        line = None
        lost_reason = None
        try:
            ran = await self._executor.run(_PlannedRun(suite=self, job=job))
        except RunLost as exc:
            lost_reason = exc.reason
        else:
            if isinstance(ran, ShippedResult):
                result, line = ran.result, ran.record_line
            else:
                result = ran
        await self._finish_run(job, result, lost_reason, started, line)

    def _shipped(self, job: _Job) -> RemoteRun:
        """What a worker needs for ``job``, as plain data.

        The unit's workflow, case and target, the files the workflow names
        (never the dataset: the case travels expanded) and the run's cassette
        options.
        """
        item = job.workflow
        files = self._remote_files.get((item.name, job.unit.target))
        if self._remote_kit is None or files is None:
            raise SessionStateError(
                "a remote executor needs the kit's remote factory and each "
                "workflow's files",
                reason="invalid_option",
            )
        planned = _PlannedRun(suite=self, job=job)
        case = self._case_of(job)
        # A suite keeps its first case's expansion as the workflow: a run of
        # another case ships its own (on the unit's target) and no other values.
        workflow = item.workflow
        if case is not None:
            workflow = attrs.evolve(case.workflow, target=workflow.target)
        return RemoteRun(
            key=planned.key,
            make_kit=self._remote_kit,
            workflow=workflow,
            files=files,
            files_key=planned.files_key,
            repetition=job.repetition,
            case=case,
            target=job.unit.choice,
            judge=self._remote_judge,
            cleanup_timeout_ms=self._cleanup_timeout_ms,
            script=None if item.script is None else item.script[1],
            run_options=self._run_options(job),
            # the state and transcript come back only where the suite keeps them
            working_data=self._output is None or self._settings.transcripts,
        )

    @staticmethod
    def _case_of(job: _Job) -> WorkflowCase | None:
        """The job's case as it runs (the workflow with its values filled in)."""
        item = job.workflow
        if job.case is None or item.cases is None:
            return None
        return item.cases.case(job.case)

    def _run_options(self, job: _Job) -> dict[str, Any]:
        """The job's cassette options (plain data: any executor ships them)."""
        if self._cassettes is None:
            return {}
        return self._cassettes.run_options(self._stem(job))

    async def _run_here(self, job: _Job) -> WorkflowResult:
        """Run ``job`` in this process.

        Raises:
            RunLost: The run left no record (``run_error``).
        """
        item = job.workflow
        try:
            case = self._case_of(job)
            session = await self._kit.create_workflow_session(
                workflow=item.workflow if case is None else case,
                # The chosen entry and model, or agent; None: the workflow's own.
                target=job.unit.choice,
                fixture_root=item.path.absolute().parent,
                judge=self._judge,
                cleanup_timeout_ms=self._cleanup_timeout_ms,
                shared_transports=self._transports,
                repetition=job.repetition,
                telemetry=self._telemetry,
                **self._run_options(job),
            )
            self._in_flight.add(session)
            if self._cancelled:
                session.cancel()
            try:
                result = await session.run()
            finally:
                self._in_flight.discard(session)
        except (ArtemisError, OSError, RuntimeError):
            # The run left no record: the suite counts it as lost (exit 7).
            raise RunLost("run_error") from None
        return result

    async def _finish_run(
        self,
        job: _Job,
        result: WorkflowResult | None,
        lost_reason: str | None,
        started: float,
        line: bytes | None = None,
    ) -> None:
        item = job.workflow
        duration = int((time.monotonic() - started) * 1000)
        relative, files = self._encode(job, result, line)
        outcome = RunOutcome(
            workflow=item.name,
            target=job.unit.target,
            repetition=job.repetition,
            record=None if result is None else result.record,
            record_file=relative,
            duration_ms=duration,
            lost_reason=lost_reason,
            case=job.case,
        )
        if self._output is None:
            self._runs.append(
                SuiteRun(
                    workflow=item.name,
                    target=job.unit.target,
                    repetition=job.repetition,
                    result=result,
                    case=job.case,
                )
            )
        self._account(outcome)
        if self._cassettes is not None:
            self._cassettes.release(self._stem(job))
        record = outcome.record
        event = None
        if self._streams:
            event = SuiteEvent(
                type="run_finished",
                suite_id=self.suite_id,
                workflow=item.name,
                target=job.unit.target,
                repetition=job.repetition,
                case=job.case,
                run_id=None if record is None else record.run_id,
                verdict=outcome.verdict.status,
                why=outcome.verdict.why,
                exit_code=outcome.exit_code,
                status=None if record is None else record.execution.status,
                input_tokens=None
                if record is None
                else record.budget.used.input_tokens,
                output_tokens=None
                if record is None
                else record.budget.used.output_tokens,
            )
        if files:
            # On the loop and without a checkpoint: no cancellation can come
            # between a run's files and its filing, and run_finished follows
            # both, so whoever sees the event finds the record on disk.
            self._write_files(files)
        self._file(outcome)
        await self._release(event)

    async def _release(self, event: SuiteEvent | None) -> None:
        """Emit a filed run's event, after the ``suite.json`` rewrite it made due.

        Events keep the order in which runs were filed: while a rewrite is in
        flight, the events of runs filed meanwhile wait behind it.
        """
        if self._rewriting:
            self._held.append(event)
            return
        if not self._rewrite_due():
            self._emit(event)
            return
        self._rewriting = True
        self._held.append(event)
        try:
            with anyio.CancelScope(shield=True):
                while self._held:
                    covered = len(self._held)
                    if self._rewrite_due():
                        await self._write_summary(finished=False)
                    for held in self._held[:covered]:
                        self._emit(held)
                    del self._held[:covered]
        finally:
            self._rewriting = False

    def _telemetry_totals(self) -> TelemetryInfo:
        """Spans exported and dropped by the suite's runs and its own span."""
        exported, dropped = self._spans
        if self._suite_span is not None:
            exported += self._suite_span.exported
            dropped += self._suite_span.dropped
        return TelemetryInfo(exported=exported, dropped=dropped)

    async def _export_suite_span(self, summary: SuiteRecord) -> TelemetryInfo:
        """Export the suite span (the trace's root), from the final summary."""
        assert self._telemetry is not None
        assert summary.finished_at is not None
        assert summary.exit_code is not None
        started = datetime.fromisoformat(summary.started_at)
        finished = datetime.fromisoformat(summary.finished_at)
        counts = {
            f"artemiskit.suite.{key}": getattr(summary.totals, key)
            for key in _SUITE_COUNTS
        }
        return await self._telemetry.export_suite(
            name="artemiskit suite",
            started_ns=int(started.timestamp() * 1e9),
            finished_ns=int(finished.timestamp() * 1e9),
            attributes={
                "artemiskit.suite.status": summary.status,
                "artemiskit.suite.reason": summary.reason,
                "artemiskit.exit_code": summary.exit_code,
                "artemiskit.suite.workflows": len(summary.workflows),
                **counts,
            },
            error=None if summary.exit_code == ExitCode.OK else summary.reason,
        )

    async def _share_scripts(self) -> None:
        """Hand the runs each script as validated: a later edit changes no run."""
        for item in (unit.item for unit in self._units):
            if item.script is not None:
                key, script = item.script
                await self._transports.get(key, functools.partial(_ready, script))

    async def _execute(self, jobs: list[_Job]) -> None:
        """Run the jobs, inside the suite's shared MCP servers when it has any.

        ``lifetime: suite`` servers are started on first use and ended once the
        last run finished, in this task (their task group's own).
        """
        slots = self._executor.slots(self._settings.concurrency)
        if self._mcp_shared is None:
            await run_bounded(jobs, self._run_one, slots, may_start=self._may_start)
            return
        from artemiskit.tools._mcp_tools import SUITE_SERVERS_KEY, McpServers

        cleanup_ms = cleanup_bound_ms(
            self._cleanup_timeout_ms, SIMULATED_CLEANUP_TIMEOUT_MS
        )
        async with McpServers(self._mcp_shared, cleanup_s=cleanup_ms / 1000) as pool:

            async def shared() -> McpServers:
                return pool

            await self._transports.get(SUITE_SERVERS_KEY, shared)
            await run_bounded(jobs, self._run_one, slots, may_start=self._may_start)

    async def run(self) -> SuiteResult:
        """Run every planned run (until stopped) and return the suite's result.

        Raises:
            SessionStateError: The suite already ran.
            ConfigError: A remote executor's cluster cannot be reached, or
                Ray is not installed (exit 1).
            FileAccessError: ``suite.json`` or a record could not be written.
        """
        if self._ran:
            raise SessionStateError("a suite session runs once", reason="already_run")
        self._ran = True
        self._started_at = _now()
        self._clock = time.monotonic()
        jobs = [
            _Job(unit=unit, repetition=repetition, case=case)
            for repetition in range(1, self._settings.repeat + 1)
            for unit, case in self._plan
        ]
        try:
            # Reach the cluster, check what travels, before anything runs.
            await self._executor.start(
                [_PlannedRun(suite=self, job=job) for job in jobs]
            )
            await self._share_scripts()
            if self._output is not None:
                self._spool = RunSpool(self._output, self._places.planned)
            await self._write_summary(finished=False)
            self._emit(SuiteEvent(type="suite_started", suite_id=self.suite_id))
            try:
                await self._execute(jobs)
            except anyio.get_cancelled_exc_class():
                # The caller cancelled the suite: still leave a final record.
                self._cancelled = True
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(self._sync_files)
                    await self._write_summary(finished=True)
                raise
            await anyio.to_thread.run_sync(self._sync_files)
            summary = await self._write_summary(finished=True)
            assert summary is not None  # a final rewrite always writes
            if self._telemetry is not None:
                self._suite_span = await self._export_suite_span(summary)
                summary = await self._write_summary(finished=True)
                assert summary is not None
            self._emit(
                SuiteEvent(
                    type="suite_finished",
                    suite_id=self.suite_id,
                    exit_code=summary.exit_code,
                    status=summary.status,
                )
            )
        finally:
            with anyio.CancelScope(shield=True):
                await self._executor.close()
                await self._transports.aclose()
            for stream in self._streams:
                stream.close()
            if self._spool is not None:
                self._spool.close()
        order: dict[tuple[str, str | None], int] = {
            (unit.name, unit.target): index for index, unit in enumerate(self._units)
        }
        if self._output is not None:
            # Read back from the files on demand: nothing of a run was kept.
            return SuiteResult.written(self._output, summary, order)
        assert summary is not None
        runs = sorted(
            self._runs,
            key=lambda r: (order[(r.workflow, r.target)], r.case or "", r.repetition),
        )
        return SuiteResult(record=summary, runs=tuple(runs))
