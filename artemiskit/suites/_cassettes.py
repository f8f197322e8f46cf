"""A suite's cassettes (SPEC 22): one per run, read and checked before any run.

``record_cassettes=DIR`` keeps each run's cassette at ``DIR/<stem>.cassette.jsonl``
(the same relative path as its record under ``runs/``); ``replay=DIR`` answers
each run from the cassette at that same place. Every cassette a suite replays is
read, validated and checked against its run's workflow, case and target before
the first run starts; what each run needs travels as plain data, so any
executor (in this process, other processes, a Ray cluster) can ship it.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio.to_thread
import attrs

from artemiskit.replay import Cassette, ReplayMode
from artemiskit.replay._cassette import CassetteHeader, read_cassettes
from artemiskit.replay._run import (
    check_binding,
    check_replay_options,
    contract_digest,
)
from artemiskit.suites._layout import (
    CASSETTE_SUFFIX,
    folder_names,
    prepare_output_dir,
    run_stem,
    safe_folders,
)
from artemiskit.suites._targets import SuiteTarget, own_target

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.suites._discovery import SuiteWorkflow

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


def _expected(unit: SuiteTarget, case: str | None) -> CassetteHeader:
    """The header of the cassette ``unit``'s run of ``case`` was recorded with."""
    target = unit.item.workflow.target
    cases = unit.item.cases
    # a case's run answers for the workflow with its values filled in
    runs = unit.item.workflow
    if case is not None and cases is not None:
        runs = cases.case(case).workflow
    return CassetteHeader(
        workflow=unit.name,
        contract_digest=contract_digest(runs),
        case_id=case,
        target_id=unit.target,
        provider=target.provider,
        model=target.model,
    )


def _planned_stems(
    workflows: Sequence[SuiteWorkflow], units: Sequence[SuiteTarget], repeat: int
) -> list[tuple[str, SuiteTarget, str | None]]:
    """Each run's stem, unit and case: the layout the session names runs by."""
    folders = folder_names(workflows)
    per_workflow = Counter(unit.name for unit in units)
    layered = any(count > 1 for count in per_workflow.values())
    target_folders = safe_folders(unit.target for unit in units)
    planned: list[tuple[str, SuiteTarget, str | None]] = []
    for repetition in range(1, repeat + 1):
        for item in workflows:
            cases = item.case_ids if item.cases is not None else (None,)
            for case in cases:
                for unit in (u for u in units if u.name == item.name):
                    folder = folders[item.name]
                    if case is not None:
                        folder = f"{folder}/{case}"
                    if layered:
                        folder = f"{folder}/{target_folders[unit.target]}"
                    planned.append((run_stem(folder, repetition), unit, case))
    return planned


async def prepare_suite_cassettes(
    workflows: Sequence[SuiteWorkflow],
    repeat: int,
    *,
    record: str | os.PathLike[str] | None,
    replay: str | os.PathLike[str] | None,
    mode: ReplayMode,
    until: int | None,
    units: Sequence[SuiteTarget] | None = None,
) -> SuiteCassettes | None:
    """Read and check every cassette the suite replays; prepare the record folder.

    Raises:
        CassetteError: A run's cassette is missing, not a regular file,
            corrupt, of an unknown version, or another workflow's, case's or
            target's (exit 2; nothing ran).
        WorkflowError: The replay mode or fork point is out of range.
        FileAccessError: The record folder is not new or empty (exit 1).
    """
    if record is None and replay is None:
        return None
    check_replay_options(mode, until)
    loaded: dict[str, Cassette] = {}
    if replay is not None:
        planned = _planned_stems(
            workflows,
            units or [SuiteTarget(item=w, target=own_target(w)) for w in workflows],
            repeat,
        )
        sources = [
            os.fspath(Path(replay) / f"{stem}{CASSETTE_SUFFIX}")
            for stem, _, _ in planned
        ]
        # one worker thread reads and checks them all: no hop per file
        cassettes = await anyio.to_thread.run_sync(read_cassettes, sources)
        for (stem, unit, case), cassette in zip(planned, cassettes, strict=True):
            check_binding(cassette, _expected(unit, case), cassette.source)
            loaded[stem] = cassette
    folder = None
    if record is not None:
        folder = prepare_output_dir(record)
        os.chmod(folder, 0o700)
    return SuiteCassettes(record=folder, replay=loaded, mode=mode, until=until)
