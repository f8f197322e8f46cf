"""What a checkpointed run leaves behind, attempt after attempt (SPEC 3.5).

Runs through the SDK into a real local checkpoint: the record's ``recovery``
section, the refusal a later resume meets, and the checkpoint's metadata on disk
(read back through the store's own interface) while an attempt is still running,
after it paused, completed, was cancelled, or could not write its end.
"""

from __future__ import annotations

import resource
import shutil
import signal
import time
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointError,
    CheckpointOptions,
    TargetRequest,
    TargetResponse,
)
from artemiskit.records import RecoveryInfo
from tests._environments import DictFactory
from tests._runs import ReplayTarget, calling, workflow_of

from ._helpers import resume_and_load
from .test_refusal_reasons import (
    CONFIG_ID,
    READ,
    WRITE,
    DeadlineTarget,
    attempt,
    data,
    paused,
    refusal,
    rewrite_meta,
)

if TYPE_CHECKING:
    from pathlib import Path

    from artemiskit import WorkflowResult


class BlockingTarget(ReplayTarget):
    """Answers from its script, but blocks in the request numbered ``block_at``."""

    def __init__(self, responses: list[TargetResponse], *, block_at: int) -> None:
        super().__init__(responses)
        self.block_at = block_at
        self.seen = 0
        self.entered = anyio.Event()

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.seen += 1
        if self.seen == self.block_at:
            self.entered.set()
            await anyio.sleep_forever()
        return await super().respond(request)


async def cancelled_mid_request(
    directory: Path, copy: Path, mode: str, target: BlockingTarget
) -> WorkflowResult:
    """Run until ``target`` blocks, copy the checkpoint (no claim), then cancel."""
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow_of(data()),
        target=target,
        environment=DictFactory(),
        checkpoint=CheckpointOptions(
            directory=directory,
            mode=mode,  # type: ignore[arg-type]
            configuration_id=CONFIG_ID,
        ),
    )
    async with anyio.create_task_group() as group:
        group.start_soon(session.run)
        await target.entered.wait()
        shutil.copytree(directory, copy, ignore=shutil.ignore_patterns("claim*"))
        session.cancel()
    return await session.run()


async def meta_of(directory: Path) -> dict[str, Any]:
    meta: dict[str, Any] = (await resume_and_load(directory)).snapshot["meta"]
    return meta


async def test_a_completed_run_leaves_a_terminal_checkpoint(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    result = await attempt(
        directory, "create", ReplayTarget([calling(READ), calling(WRITE)])
    )
    assert result.exit_code == 0
    assert result.record.recovery == RecoveryInfo(
        checkpointing=True,
        attempt_number=1,
        resumed_from_attempt=None,
        checkpoint_status="terminal",
        resumable=False,
        pause_after_actions=None,
    )
    error = await refusal(directory)
    assert (error.reason, str(error)) == (
        "terminal_checkpoint",
        "the checkpoint is terminal: its run already ended; a finished run cannot be "
        "resumed as another repetition",
    )


async def test_a_cancelled_run_leaves_an_interrupted_checkpoint(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    target = BlockingTarget([], block_at=1)
    result = await cancelled_mid_request(directory, tmp_path / "copy", "create", target)
    record = result.record
    assert record.execution.status == "cancelled"
    assert (record.recovery.checkpoint_status, record.recovery.resumable) == (
        "not_resumable",
        False,
    )
    error = await refusal(directory)
    assert (error.reason, str(error)) == (
        "interrupted_checkpoint",
        "the checkpoint was left by a cancelled run; interrupted evidence is not "
        "resumable",
    )


async def test_a_running_attempt_is_on_disk_as_active_without_a_saved_environment(
    tmp_path: Path,
) -> None:
    before = time.time_ns() // 1_000_000
    target = BlockingTarget([], block_at=1)
    result = await cancelled_mid_request(
        tmp_path / "ckpt", tmp_path / "copy", "create", target
    )
    meta = await meta_of(tmp_path / "copy")
    assert {key: meta[key] for key in sorted(meta) if key != "binding"} == {
        "attempt_id": result.record.attempt_id,
        "attempt_number": 1,
        "deadline_epoch_ms": meta["deadline_epoch_ms"],
        "environment_digest": None,
        "environment_kind": "simulated",
        "environment_saved": False,
        "last_observed_epoch_ms": meta["last_observed_epoch_ms"],
        "resumed_from_attempt": None,
        "run_id": result.record.run_id,
        "status": "active",
    }
    assert (
        before + 30_000
        <= meta["deadline_epoch_ms"]
        <= meta["last_observed_epoch_ms"] + 30_000
    )


async def test_a_resumed_attempt_is_on_disk_as_its_own_active_attempt(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    first = await attempt(
        directory, "create", ReplayTarget([calling(READ)]), pause_after_actions=1
    )
    paused_meta = await meta_of(directory)
    assert paused_meta["environment_saved"] is True
    assert paused_meta["environment_digest"] is not None
    target = BlockingTarget([], block_at=1)
    second = await cancelled_mid_request(directory, tmp_path / "copy", "resume", target)
    meta = await meta_of(tmp_path / "copy")
    assert {key: meta[key] for key in sorted(meta) if key != "binding"} == {
        "attempt_id": second.record.attempt_id,
        "attempt_number": 2,
        "deadline_epoch_ms": paused_meta["deadline_epoch_ms"],
        "environment_digest": None,
        "environment_kind": "simulated",
        "environment_saved": False,
        "last_observed_epoch_ms": meta["last_observed_epoch_ms"],
        "resumed_from_attempt": first.record.attempt_id,
        "run_id": first.record.run_id,
        "status": "active",
    }


async def test_every_attempt_names_the_one_it_resumed(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    first = await attempt(
        directory, "create", ReplayTarget([calling(READ)]), pause_after_actions=1
    )
    second = await attempt(
        directory, "resume", ReplayTarget([calling(WRITE)]), pause_after_actions=2
    )
    second_meta = await meta_of(directory)
    third = await attempt(directory, "resume", ReplayTarget([]))
    assert first.record.recovery.attempt_number == 1
    assert first.record.recovery.resumed_from_attempt is None
    assert second.record.run_id == third.record.run_id == first.record.run_id
    assert second.record.recovery.resumed_from_attempt == first.record.attempt_id
    assert (second_meta["attempt_id"], second_meta["resumed_from_attempt"]) == (
        second.record.attempt_id,
        first.record.attempt_id,
    )
    assert (second_meta["status"], second_meta["attempt_number"]) == ("paused", 2)
    assert third.record.recovery.resumed_from_attempt == second.record.attempt_id
    assert third.record.recovery.attempt_number == 3
    assert third.exit_code == 0


async def test_a_resume_gets_exactly_the_time_left_before_the_deadline(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory)
    # a deadline far away: a unit slip of 0.1% would be 100 seconds
    deadline = time.time_ns() // 1_000_000 + 100_000_000
    await rewrite_meta(directory, deadline_epoch_ms=deadline)
    target = DeadlineTarget([calling(WRITE)])
    result = await attempt(directory, "resume", target)
    assert result.exit_code == 0
    assert target.seconds_left
    assert all(99_950 < left <= 100_000 for left in target.seconds_left)


class FileSizeLimitTarget(ReplayTarget):
    """Makes every later write past ``limit`` bytes fail (EFBIG) once it answered."""

    def __init__(self, responses: list[TargetResponse], limit: int) -> None:
        super().__init__(responses)
        self.limit = limit

    async def respond(self, request: TargetRequest) -> TargetResponse:
        resource.setrlimit(
            resource.RLIMIT_FSIZE,
            (self.limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]),
        )
        return await super().respond(request)


async def test_a_run_whose_checkpoint_writes_fail_is_not_resumable(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    try:
        result = await attempt(
            directory,
            "create",
            FileSizeLimitTarget([calling(READ)], limit=1),
            pause_after_actions=2,
        )
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)
    recovery = result.record.recovery
    assert (recovery.checkpoint_status, recovery.resumable) == ("not_resumable", False)
    with pytest.raises(CheckpointError):
        await attempt(directory, "resume", ReplayTarget([]))


async def test_a_fresh_attempt_is_number_one_and_resumed_from_nothing(
    tmp_path: Path,
) -> None:
    store_directory = tmp_path / "ckpt"
    result = await attempt(
        store_directory, "create", ReplayTarget([calling(READ)]), pause_after_actions=1
    )
    assert result.record.recovery == RecoveryInfo(
        checkpointing=True,
        attempt_number=1,
        resumed_from_attempt=None,
        checkpoint_status="resumable",
        resumable=True,
        pause_after_actions=1,
    )
