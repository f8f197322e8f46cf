"""Cassettes across pause and resume (SPEC 22 with SPEC 3.5).

A paused run's cassette holds the exchanges made up to the pause; the resumed
attempt appends its own to the same cassette. A replayed run that pauses resumes
its replay after the requests already answered, never answering one twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from artemiskit import ArtemisKit, CassetteError, CheckpointOptions, WorkflowResult
from artemiskit.records import load_cassette
from tests._builders import write_workflow

pytestmark = pytest.mark.anyio


async def _paused(kit: ArtemisKit, workflow: Path, folder: Path, **run: Any) -> None:
    result = await kit.run_workflow(
        workflow=workflow,
        checkpoint=CheckpointOptions(directory=folder / "ckpt"),
        pause_after_actions=2,
        **run,
    )
    assert result.record.execution.status == "paused"


async def _resumed(
    kit: ArtemisKit, workflow: Path, folder: Path, **run: Any
) -> WorkflowResult:
    return await kit.run_workflow(
        workflow=workflow,
        checkpoint=CheckpointOptions(directory=folder / "ckpt", mode="resume"),
        **run,
    )


async def test_a_resumed_run_continues_its_cassette(tmp_path: Path) -> None:
    workflow = write_workflow(tmp_path)
    cassette = tmp_path / "run.cassette.jsonl"
    kit = ArtemisKit()
    await _paused(kit, workflow, tmp_path, record_cassette=cassette)
    paused = await load_cassette(cassette)
    assert [e.step for e in paused.of_kind("model")] == [1]
    result = await _resumed(kit, workflow, tmp_path, record_cassette=cassette)
    assert result.record.verdict.status == "passed"
    whole = await load_cassette(cassette)
    assert [e.step for e in whole.of_kind("model")] == [1, 2, 3]
    assert whole.exchanges[0] == paused.exchanges[0]
    assert result.record.cassette is not None
    assert result.record.cassette.digest == whole.digest

    # the whole cassette replays the run in one go
    replayed = await kit.run_workflow(workflow=workflow, replay=cassette)
    assert replayed.record.verdict.status == "passed"
    assert replayed.record.budget.used == result.record.budget.used


async def test_a_replayed_run_resumes_its_replay_where_it_paused(
    tmp_path: Path,
) -> None:
    workflow = write_workflow(tmp_path)
    cassette = tmp_path / "run.cassette.jsonl"
    kit = ArtemisKit()
    original = await kit.run_workflow(workflow=workflow, record_cassette=cassette)
    (tmp_path / "agent.script.yaml").unlink()  # only the cassette answers now
    await _paused(kit, workflow, tmp_path, replay=cassette)
    result = await _resumed(kit, workflow, tmp_path, replay=cassette)
    assert result.record.verdict.status == "passed"
    assert result.record.budget.used == original.record.budget.used
    assert result.record.replay is not None


async def test_resuming_with_a_cassette_out_of_step_is_refused(tmp_path: Path) -> None:
    workflow = write_workflow(tmp_path)
    cassette = tmp_path / "run.cassette.jsonl"
    kit = ArtemisKit()
    await _paused(kit, workflow, tmp_path)  # the first attempt recorded nothing
    with pytest.raises(CassetteError) as caught:
        await _resumed(kit, workflow, tmp_path, record_cassette=cassette)
    assert caught.value.reason == "cassette_missing"
