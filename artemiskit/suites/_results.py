"""What a suite leaves to its caller: `SuiteResult` and each `SuiteRun`.

A suite that writes an output folder keeps nothing of a finished run but its
line in ``suite.json`` (SPEC 19: the driver's memory does not grow with finished
runs). Its `SuiteResult` reads ``suite.json`` when the summary is first asked
for, and each run's record file when that run is: the same summary and records
as the files, without holding them while the suite runs. A suite without an
output folder has nowhere to read from and keeps every run's result.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, overload

import attrs

from artemiskit.engine._result import WorkflowResult
from artemiskit.records import record_from_dict
from artemiskit.suites._record import load_suite_record

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path

    from artemiskit.suites._record import SuiteStatus

__all__ = ["SuiteResult", "SuiteRun"]


@attrs.frozen(kw_only=True, repr=False)
class SuiteRun:
    """One finished run and its result (``None`` when the run was lost).

    ``case`` is the dataset case it ran (``None`` for a workflow without cases).
    ``target`` is the id of the target it ran on (SPEC 19).
    """

    workflow: str
    repetition: int
    result: WorkflowResult | None
    target: str | None = None
    case: str | None = None

    def __repr__(self) -> str:
        return (
            f"SuiteRun(workflow={self.workflow!r}, target={self.target!r}, "
            f"repetition={self.repetition}, result={self.result!r})"
        )


#: A run as ``suite.json`` lists it: workflow, target, case, repetition and
#: its record file (relative to the output folder; ``None`` for a lost run).
_Listed = tuple[str, str | None, str | None, int, str | None]


class _RecordedRuns(Sequence[SuiteRun]):
    """Every finished run of a suite written to ``folder``, read on access.

    Each item reads its record file again (nothing is cached), so walking the
    runs holds one record at a time. A run's result holds its record; the
    state and transcript are sensitive working data the suite never wrote
    (``state`` is ``None``; the transcript is empty: ``--transcripts`` files
    keep it).
    """

    __slots__ = ("_folder", "_listed")

    def __init__(self, folder: Path, listed: Sequence[_Listed]) -> None:
        self._folder = folder
        self._listed = listed

    def __len__(self) -> int:
        return len(self._listed)

    @overload
    def __getitem__(self, index: int) -> SuiteRun: ...

    @overload
    def __getitem__(self, index: slice) -> list[SuiteRun]: ...

    def __getitem__(self, index: int | slice) -> SuiteRun | list[SuiteRun]:
        if isinstance(index, slice):
            return [self._read(listed) for listed in self._listed[index]]
        return self._read(self._listed[index])

    def __iter__(self) -> Iterator[SuiteRun]:
        for listed in self._listed:
            yield self._read(listed)

    def _read(self, listed: _Listed) -> SuiteRun:
        workflow, target, case, repetition, record_file = listed
        result = None
        if record_file is not None:
            data = json.loads((self._folder / record_file).read_bytes())
            result = WorkflowResult(
                record=record_from_dict(data), state=None, transcript=()
            )
        return SuiteRun(
            workflow=workflow,
            repetition=repetition,
            result=result,
            target=target,
            case=case,
        )

    def __repr__(self) -> str:
        return f"<{len(self)} runs read from their record files>"


class SuiteResult:
    """What a suite leaves.

    A suite with an output folder reads its summary from ``suite.json`` and each
    run's record from its file when asked (it holds neither while it runs);
    without one, every run's result is kept in memory.

    Args:
        summary: The suite record (``suite.json``'s content), metadata only.
        runs: Every finished run with its result (transcripts are sensitive).
    """

    __slots__ = (
        "_exit_code",
        "_folder",
        "_order",
        "_runs",
        "_status",
        "_suite_id",
        "_summary",
    )

    def __init__(self, *, summary: dict[str, Any], runs: Sequence[SuiteRun]) -> None:
        self._summary: dict[str, Any] | None = summary
        self._runs: Sequence[SuiteRun] | None = tuple(runs)
        self._folder: Path | None = None
        self._order: Mapping[tuple[str, str | None], int] = {}
        self._exit_code: int = summary["exit_code"]
        self._status: SuiteStatus = summary["status"]
        self._suite_id: str = summary["suite_id"]

    @classmethod
    def written(
        cls,
        folder: Path,
        summary: Mapping[str, Any],
        order: Mapping[tuple[str, str | None], int],
    ) -> SuiteResult:
        """The result of a suite written to ``folder``, read from it on demand.

        Args:
            folder: The suite's output folder (holding ``suite.json``).
            summary: The final summary as written, runs aside (its exit code
                and status are kept; the rest is read from the file).
            order: Each (workflow, target)'s place in the suite, for `runs`.
        """
        result = cls.__new__(cls)
        result._summary = None
        result._runs = None
        result._folder = folder
        result._order = order
        result._exit_code = summary["exit_code"]
        result._status = summary["status"]
        result._suite_id = summary["suite_id"]
        return result

    @property
    def summary(self) -> dict[str, Any]:
        """The suite record (``suite.json``'s content), metadata only."""
        if self._summary is None:
            assert self._folder is not None
            self._summary = load_suite_record(self._folder / "suite.json")
        return self._summary

    @property
    def runs(self) -> Sequence[SuiteRun]:
        """Every finished run with its result, in suite order.

        Read from the record files when the suite wrote an output folder (each
        access reads the record again; its state and transcript are not kept).
        """
        if self._runs is None:
            assert self._folder is not None
            self._runs = _RecordedRuns(self._folder, self._listed())
        return self._runs

    def _listed(self) -> list[_Listed]:
        listed: list[_Listed] = []
        for workflow in self.summary["workflows"]:
            name = workflow["name"]
            for run in workflow["runs"]:
                target = run.get("target", workflow["target"])
                listed.append(
                    (name, target, run.get("case"), run["repetition"], run["record"])
                )
        order = self._order
        listed.sort(
            key=lambda r: (order.get((r[0], r[1]), len(order)), r[2] or "", r[3])
        )
        return listed

    @property
    def exit_code(self) -> int:
        """The SPEC 13 exit code of the suite."""
        return self._exit_code

    @property
    def status(self) -> SuiteStatus:
        """``completed``, ``cancelled``, ``budget_exhausted`` or ``failed_fast``."""
        return self._status

    def __repr__(self) -> str:
        return (
            f"SuiteResult(suite_id={self._suite_id!r}, status={self.status!r}, "
            f"exit_code={self.exit_code}, runs={len(self.runs)})"
        )
