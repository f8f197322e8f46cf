"""What a suite leaves to its caller: `SuiteResult` and each `SuiteRun`.

A suite that writes an output folder keeps nothing of a finished run in memory
(SPEC 19: the driver's memory does not grow with finished runs): its line of
``suite.json`` is on disk. Its `SuiteResult` reads the typed suite record from
``suite.json`` when first asked for it, and each run's record file when that run
is asked for: the same records as the files, without holding them while the
suite runs. A suite without an output folder has nowhere to read from and keeps
every run's result.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, overload

import attrs

from artemiskit.engine._result import WorkflowResult
from artemiskit.records import record_from_dict
from artemiskit.records._suite_io import suite_record_to_dict
from artemiskit.suites._suite_file import read_suite_record

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path

    from artemiskit.records._suite import SuiteRecord, SuiteStatus

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

    A suite with an output folder reads each run's record from its file when
    asked (it holds none while it runs); without one, every run's result is
    kept in memory.

    Args:
        record: The suite record (``suite.json``), metadata only.
        runs: Every finished run with its result (transcripts are sensitive).
    """

    __slots__ = ("_folder", "_order", "_read", "_record", "_runs")

    def __init__(self, *, record: SuiteRecord, runs: Sequence[SuiteRun]) -> None:
        self._record = record
        self._runs: Sequence[SuiteRun] | None = tuple(runs)
        self._folder: Path | None = None
        self._order: Mapping[tuple[str, str | None], int] = {}
        #: Whether `_record` is whole (else read from the folder when asked).
        self._read = True

    @classmethod
    def written(
        cls,
        folder: Path,
        record: SuiteRecord,
        order: Mapping[tuple[str, str | None], int],
    ) -> SuiteResult:
        """The result of a suite written to ``folder``, its runs read on demand.

        Args:
            folder: The suite's output folder (holding ``suite.json`` and the
                record files).
            record: The final suite record as written, less its units and runs
                (`record` reads the whole from ``suite.json`` when asked).
            order: Each (workflow, target)'s place in the suite, for `runs`.
        """
        result = cls(record=record, runs=())
        result._runs = None
        result._folder = folder
        result._order = order
        result._read = False
        return result

    @property
    def record(self) -> SuiteRecord:
        """The suite record (``suite.json``), metadata only.

        Read from ``suite.json`` (once) when the suite wrote an output folder.
        """
        if not self._read:
            assert self._folder is not None
            self._record = read_suite_record(self._folder / "suite.json")
            self._read = True
        return self._record

    @property
    def summary(self) -> dict[str, Any]:
        """The suite record as plain data: ``suite.json``'s content."""
        return suite_record_to_dict(self.record)

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
        listed: list[_Listed] = [
            (
                workflow.name,
                workflow.target if run.target is None else run.target,
                run.case,
                run.repetition,
                run.record,
            )
            for workflow in self.record.workflows
            for run in workflow.runs
        ]
        order = self._order
        listed.sort(
            key=lambda r: (order.get((r[0], r[1]), len(order)), r[2] or "", r[3])
        )
        return listed

    @property
    def exit_code(self) -> int:
        """The SPEC 13 exit code of the suite."""
        code = self._record.exit_code
        assert code is not None  # a finished suite's record has its exit code
        return code

    @property
    def status(self) -> SuiteStatus:
        """``completed``, ``cancelled``, ``budget_exhausted`` or ``failed_fast``."""
        return self._record.status

    def __repr__(self) -> str:
        return (
            f"SuiteResult(suite_id={self._record.suite_id!r}, "
            f"status={self.status!r}, exit_code={self.exit_code}, "
            f"runs={len(self.runs)})"
        )
