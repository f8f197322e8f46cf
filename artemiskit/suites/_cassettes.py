"""A suite's cassettes (SPEC 22): one per run, read and checked before any run.

``record_cassettes=DIR`` keeps each run's cassette at ``DIR/<stem>.cassette.jsonl``
(the same relative path as its record under ``runs/``: one per run of each
(workflow, case, target) unit); ``replay=DIR`` answers each run from the
cassette at that same place. Every cassette a suite replays is
read, validated and checked against its run's workflow, case and target before
the first run starts; what each run needs travels as plain data, so any
executor (in this process, other processes, a Ray cluster) can ship it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio.to_thread
import attrs

from artemiskit._errors import CassetteError
from artemiskit.engine._cassettes import (
    check_binding,
    check_replay_options,
    contract_digest,
)
from artemiskit.providers._replay import ReplayMode
from artemiskit.records._cassette import Cassette, CassetteHeader, read_cassettes
from artemiskit.suites._layout import (
    CASSETTE_SUFFIX,
    RunLayout,
    prepare_output_dir,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.suites._targets import SuiteTarget

__all__ = ["SuiteCassettes", "prepare_suite_cassettes"]


@attrs.frozen(kw_only=True, repr=False)
class SuiteCassettes:
    """What a suite records and replays.

    Attributes:
        record: The folder each run's cassette is written into, or ``None``.
        replay: The cassette of each run, by run stem; empty without replay.
        mode: How strictly replayed requests are checked.
        until: Replay this many model responses per run, then go live.
    """

    record: Path | None = None
    replay: Mapping[str, Cassette] = attrs.field(factory=dict)
    mode: ReplayMode = "strict"
    until: int | None = None

    def __repr__(self) -> str:
        return (
            f"SuiteCassettes(recording={self.record is not None}, "
            f"replaying={len(self.replay)}, mode={self.mode!r})"
        )

    def run_options(self, stem: str) -> dict[str, Any]:
        """The run options (`RunOptions` fields) of the run with ``stem``."""
        options: dict[str, Any] = {}
        if self.record is not None:
            options["record_cassette"] = True
        cassette = self.replay.get(stem)
        if cassette is not None:
            options.update(
                replay=cassette, replay_mode=self.mode, replay_until=self.until
            )
        return options

    def release(self, stem: str) -> None:
        """Forget the cassette of the finished run with ``stem`` (its memory)."""
        if isinstance(self.replay, dict):
            self.replay.pop(stem, None)


def _expected(unit: SuiteTarget, case: str | None) -> CassetteHeader:
    """What the cassette of a run of ``unit`` on ``case`` must be bound to."""
    item = unit.item
    workflow = item.workflow
    if case is not None and item.cases is not None:
        # A case's contract is its expansion's (what its runs record).
        workflow = item.cases.case(case).workflow
    return CassetteHeader(
        workflow=item.name,
        contract_digest=contract_digest(workflow),
        case_id=case,
        target_id=unit.target,
        provider=workflow.target.provider,
        model=workflow.target.model,
    )


def _unit_text(unit: SuiteTarget, case: str | None) -> str:
    """A unit as a refusal names it: workflow, case id and target id."""
    case_text = "" if case is None else f", case {case!r}"
    return f"workflow {unit.name!r}{case_text} on target {unit.target!r}"


async def prepare_suite_cassettes(
    units: Sequence[SuiteTarget],
    repeat: int,
    *,
    record: str | os.PathLike[str] | None,
    replay: str | os.PathLike[str] | None,
    mode: ReplayMode,
    until: int | None,
) -> SuiteCassettes | None:
    """Read and check every cassette the suite replays; prepare the record folder.

    Each run of each unit (workflow, case, target) has its own cassette, at
    its record's relative path (`RunLayout`).

    Raises:
        CassetteError: A run's cassette is missing, not a regular file,
            corrupt, of an unknown version, or another workflow's, case's or
            target's (exit 2, naming the unit; nothing ran).
        WorkflowError: The replay mode or fork point is out of range.
        FileAccessError: The record folder is not new or empty (exit 1).
    """
    if record is None and replay is None:
        return None
    check_replay_options(mode, until)
    loaded: dict[str, Cassette] = {}
    if replay is not None:
        layout = RunLayout(units)
        planned = [
            (layout.stem(unit.name, case, unit.target, repetition), unit, case)
            for unit in units
            for case in (unit.item.case_ids if unit.item.cases is not None else (None,))
            for repetition in range(1, repeat + 1)
        ]
        sources = [
            os.fspath(Path(replay) / f"{stem}{CASSETTE_SUFFIX}")
            for stem, _, _ in planned
        ]
        # one worker thread reads and checks them all: no hop per file
        cassettes = await anyio.to_thread.run_sync(read_cassettes, sources)
        for (stem, unit, case), cassette in zip(planned, cassettes, strict=True):
            try:
                check_binding(cassette, _expected(unit, case), cassette.source)
            except CassetteError as exc:
                raise CassetteError(
                    f"{_unit_text(unit, case)}: {exc.message}", reason=exc.reason
                ) from None
            loaded[stem] = cassette
    folder = None
    if record is not None:
        folder = prepare_output_dir(record)
        os.chmod(folder, 0o700)
    return SuiteCassettes(record=folder, replay=loaded, mode=mode, until=until)
