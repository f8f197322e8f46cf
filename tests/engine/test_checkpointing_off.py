"""A session without a checkpoint store: nothing is written and nothing pauses."""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio
import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointOptions,
    ExitCode,
    SessionStateError,
)
from tests._builders import workflow_dict
from tests._environments import DictFactory
from tests._runs import DONE, ReplayTarget, call, calling, workflow_of

if TYPE_CHECKING:
    from pathlib import Path

READ = call("read_file", {"path": "docs/policy.md"})
WRITE = call("write_file", {"path": "out/summary.md", "content": "30 days"})


async def test_without_a_store_pause_is_refused_and_the_run_records_no_checkpoint() -> (
    None
):
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow_of(workflow_dict()),
        target=ReplayTarget([calling(READ), calling(WRITE), DONE]),
    )
    assert not session.checkpointing
    with pytest.raises(SessionStateError) as refused:
        await session.pause()
    assert refused.value.reason == "no_checkpoint_store"
    result = await session.run()
    recovery = result.record.recovery
    assert (recovery.checkpointing, recovery.checkpoint_status) == (False, "none")
    assert (recovery.attempt_number, recovery.resumable) == (1, False)
    assert recovery.pause_after_actions is None
    assert result.exit_code == ExitCode.OK


async def test_pause_after_actions_needs_a_store() -> None:
    with pytest.raises(SessionStateError, match="checkpoint store"):
        await ArtemisKit().create_workflow_session(
            workflow=workflow_of(workflow_dict()),
            target=ReplayTarget([]),
            pause_after_actions=1,
        )


async def test_with_a_store_pause_waits_for_a_resumable_checkpoint(
    tmp_path: Path,
) -> None:
    target = ReplayTarget([calling(READ), calling(WRITE), DONE])
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow_of(workflow_dict()),
        target=target,
        environment=DictFactory(),
        checkpoint=CheckpointOptions(
            directory=tmp_path / "checkpoint", configuration_id="off-tests"
        ),
    )
    assert session.checkpointing
    async with anyio.create_task_group() as group:
        group.start_soon(session.run)
        async for event in session.events():
            if event.type == "operation_admitted":
                await session.pause()
                break
    assert session.result is not None
    record = session.result.record
    assert (record.execution.status, record.execution.reason) == (
        "paused",
        "pause_requested",
    )
    assert record.exit_code == ExitCode.PAUSED
    assert record.recovery.checkpoint_status == "resumable"
