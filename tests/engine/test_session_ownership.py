"""What a session owns and what it gives back.

- A second ``run()`` after a failed first one gives the first one's outcome (the
  same typed error), also under ``python -O``; it never asserts.
- A session closes only what it created: a caller's ``target`` survives any number
  of sessions.
- ``ArtemisKit.run_workflow`` takes a workflow mapping (or refuses with a typed
  error) and a custom ``checkpoint_store``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointError,
    CheckpointOptions,
    SessionStateError,
    TargetRequest,
    TargetResponse,
    WorkflowError,
    create_agent_workflow_session,
)
from artemiskit.checkpoints import LocalCheckpointStore
from tests._builders import workflow_dict
from tests._runs import DONE, ReplayTarget, workflow_of

ROOT = Path(__file__).resolve().parents[2]


@attrs.define
class ClosableTarget:
    """Answers ``Done.``; counts how often someone closed it."""

    closed: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        return DONE

    async def aclose(self) -> None:
        self.closed += 1


async def _refused_session(tmp_path: Path) -> Any:
    checkpoint = CheckpointOptions(
        directory=tmp_path / "missing", mode="resume", configuration_id="t"
    )
    return await ArtemisKit().create_workflow_session(
        workflow=workflow_of(workflow_dict(outcomes=[])),
        target=ReplayTarget(),
        checkpoint=checkpoint,
    )


async def test_a_second_run_after_a_failed_one_raises_the_same_error(
    tmp_path: Path,
) -> None:
    session = await _refused_session(tmp_path)
    with pytest.raises(CheckpointError) as first:
        await session.run()
    with pytest.raises(CheckpointError) as second:
        await session.run()
    assert second.value is first.value


async def test_a_concurrent_caller_of_a_failed_run_gets_the_same_error(
    tmp_path: Path,
) -> None:
    session = await _refused_session(tmp_path)
    errors: list[BaseException] = []

    async def call() -> None:
        try:
            await session.run()
        except CheckpointError as exc:
            errors.append(exc)

    async with anyio.create_task_group() as group:
        group.start_soon(call)
        group.start_soon(call)
    assert len(errors) == 2
    assert errors[0] is errors[1]


def test_a_second_run_gives_the_outcome_under_python_dash_o(tmp_path: Path) -> None:
    script = f"""
import anyio
from pathlib import Path
from artemiskit import CheckpointError
from tests.engine.test_session_ownership import _refused_session

async def main():
    session = await _refused_session(Path({str(tmp_path)!r}))
    for _ in range(2):
        try:
            await session.run()
        except CheckpointError as exc:
            print(exc.reason)

anyio.run(main)
"""
    completed = subprocess.run(
        [sys.executable, "-O", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split() == ["checkpoint_missing"] * 2


async def test_a_callers_target_is_never_closed_by_a_session() -> None:
    target = ClosableTarget()
    workflow = workflow_of(workflow_dict(outcomes=[]))
    for _ in range(2):
        await ArtemisKit().run_workflow(workflow=workflow, target=target)
        session = create_agent_workflow_session(workflow=workflow, target=target)
        await session.run()
    assert target.closed == 0


async def test_run_workflow_takes_a_workflow_mapping() -> None:
    result = await ArtemisKit().run_workflow(
        workflow=workflow_dict(outcomes=[]), target=ReplayTarget()
    )
    assert result.record.execution.status == "completed"
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_workflow(
            workflow={**workflow_dict(), "version": 9}, target=ReplayTarget()
        )
    assert caught.value.exit_code == 2


@pytest.mark.parametrize(
    "workflow",
    [{"name": float("nan")}, {1: "not a key"}, 42, None],
)
async def test_a_workflow_that_is_no_path_workflow_or_json_mapping_is_a_typed_error(
    workflow: Any,
) -> None:
    with pytest.raises(WorkflowError):
        await ArtemisKit().run_workflow(workflow=workflow, target=ReplayTarget())


@attrs.define
class CountingStore:
    """A custom checkpoint store: the local one, counting snapshots."""

    inner: LocalCheckpointStore
    snapshots: int = 0

    async def open(self, *, mode: Any) -> None:
        await self.inner.open(mode=mode)

    async def commit_snapshot(self, payload: Any) -> int | None:
        self.snapshots += 1
        return await self.inner.commit_snapshot(payload)

    async def append(self, entry: Any) -> int | None:
        return await self.inner.append(entry)

    async def load(self) -> Any:
        return await self.inner.load()

    async def write_artifact(self, name: str, data: bytes) -> None:
        await self.inner.write_artifact(name, data)

    async def read_artifact(self, name: str) -> bytes:
        return await self.inner.read_artifact(name)

    async def begin_recovery(self) -> None:
        await self.inner.begin_recovery()

    async def end_recovery(self) -> None:
        await self.inner.end_recovery()

    async def close(self) -> None:
        await self.inner.close()


async def test_run_workflow_checkpoints_into_a_custom_store(tmp_path: Path) -> None:
    store = CountingStore(LocalCheckpointStore(tmp_path / "ckpt"))
    result = await ArtemisKit().run_workflow(
        workflow=workflow_dict(outcomes=[]),
        target=ReplayTarget(),
        checkpoint=CheckpointOptions(configuration_id="t"),
        checkpoint_store=store,
    )
    assert result.record.recovery.checkpointing is True
    assert store.snapshots >= 2  # the first and the terminal snapshot
    with pytest.raises(SessionStateError):
        await ArtemisKit().run_workflow(
            workflow=workflow_dict(outcomes=[]),
            target=ReplayTarget(),
            checkpoint=CheckpointOptions(
                directory=tmp_path / "x", configuration_id="t"
            ),
            checkpoint_store=store,
        )
    with pytest.raises(SessionStateError):
        await ArtemisKit().run_workflow(
            workflow=workflow_dict(outcomes=[]),
            target=ReplayTarget(),
            checkpoint=CheckpointOptions(configuration_id="t"),
        )
    assert json.dumps(result.record.recovery.checkpoint_status) == '"terminal"'
