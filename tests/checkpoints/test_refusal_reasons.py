"""Why a checkpoint is not resumed (SPEC 3.5), each with its own reason code.

Runs pause through the SDK into a real local checkpoint; a few cases then edit the
checkpoint's metadata through the store's own interface (as a crash or another
writer would leave it) and resume. The store-level cases edit bytes on disk that
keep every frame header valid, so only a body checksum or the snapshot
generation can catch them.
"""

from __future__ import annotations

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
from artemiskit.checkpoints import LocalCheckpointStore
from tests._builders import workflow_dict
from tests._environments import DictFactory
from tests._runs import ReplayTarget, call, calling, workflow_of

from ._helpers import build, resume_and_load

if TYPE_CHECKING:
    from pathlib import Path

    from artemiskit import WorkflowResult

READ = call("read_file", {"path": "docs/policy.md"})
WRITE = call("write_file", {"path": "out/summary.md", "content": "30 days"})
HOUR_MS = 3_600_000


def data(timeout_ms: int = 30_000) -> dict[str, Any]:
    return workflow_dict(budgets={"max_actions": 20, "timeout_ms": timeout_ms})


async def attempt(
    directory: Path,
    mode: str,
    target: Any,
    *,
    timeout_ms: int = 30_000,
    factory: DictFactory | None = None,
    pause_after_actions: int | None = None,
) -> WorkflowResult:
    return await ArtemisKit().run_workflow(
        workflow=workflow_of(data(timeout_ms)),
        target=target,
        environment=factory or DictFactory(),
        checkpoint=CheckpointOptions(
            directory=directory,
            mode=mode,  # type: ignore[arg-type]
            configuration_id="refusal-tests",
        ),
        pause_after_actions=pause_after_actions,
    )


async def paused(directory: Path, *, timeout_ms: int = 30_000) -> None:
    """A run paused after its first model request, before its first tool call."""
    result = await attempt(
        directory,
        "create",
        ReplayTarget([calling(READ)]),
        timeout_ms=timeout_ms,
        pause_after_actions=1,
    )
    assert result.record.execution.status == "paused"
    assert result.record.recovery.resumable


async def rewrite_meta(directory: Path, **changes: Any) -> None:
    """Change the paused checkpoint's metadata through the store's interface."""
    store = LocalCheckpointStore(directory)
    await store.open(mode="resume")
    try:
        loaded = await store.load()
        assert loaded.entries == ()
        snapshot = dict(loaded.snapshot)
        snapshot["meta"] = {**snapshot["meta"], **changes}
        await store.commit_snapshot(snapshot)
    finally:
        await store.close()


async def refusal(directory: Path, **options: Any) -> CheckpointError:
    target = ReplayTarget([calling(WRITE)])
    with pytest.raises(CheckpointError) as caught:
        await attempt(directory, "resume", target, **options)
    assert target.requests == []  # refused before any provider call
    return caught.value


async def test_a_paused_checkpoint_resumes_to_a_pass(tmp_path: Path) -> None:
    await paused(tmp_path / "ckpt")
    result = await attempt(tmp_path / "ckpt", "resume", ReplayTarget([calling(WRITE)]))
    assert result.record.recovery.attempt_number == 2
    assert result.exit_code == 0


async def test_a_pause_whose_cleanup_failed_is_not_resumable(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    result = await attempt(
        directory,
        "create",
        ReplayTarget([calling(READ)]),
        factory=DictFactory(leak=True),
        pause_after_actions=1,
    )
    record = result.record
    assert record.execution.status == "paused"
    assert record.cleanup.status == "unresolved"
    assert not record.recovery.resumable
    assert record.recovery.checkpoint_status == "not_resumable"
    assert (await refusal(directory)).reason == "interrupted_checkpoint"


async def test_a_checkpoint_without_its_saved_environment_is_refused(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory)
    await rewrite_meta(directory, environment_saved=False)
    assert (await refusal(directory)).reason == "unsaved_environment"


@pytest.mark.parametrize(
    ("environment_kind", "reason"),
    [("simulated", "crashed_attempt"), ("sandbox", "active_sandbox_crash")],
)
async def test_a_crashed_attempt_is_refused_with_its_environment_kind(
    tmp_path: Path, environment_kind: str, reason: str
) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory)
    await rewrite_meta(directory, status="active", environment_kind=environment_kind)
    assert (await refusal(directory)).reason == reason


@pytest.mark.parametrize(
    ("status", "reason"),
    [("terminal", "terminal_checkpoint"), ("interrupted", "interrupted_checkpoint")],
)
async def test_a_finished_checkpoint_is_refused(
    tmp_path: Path, status: str, reason: str
) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory)
    await rewrite_meta(directory, status=status)
    assert (await refusal(directory)).reason == reason


class DeadlineTarget(ReplayTarget):
    """Notes how many seconds its caller's deadline leaves at each request."""

    seconds_left: list[float]

    def __init__(self, responses: list[TargetResponse]) -> None:
        super().__init__(responses)
        self.seconds_left = []

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.seconds_left.append(
            anyio.current_effective_deadline() - anyio.current_time()
        )
        return await super().respond(request)


async def test_a_resumed_run_keeps_the_original_absolute_deadline(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory, timeout_ms=HOUR_MS)
    # as if the run had been stopped for all but one minute of its hour
    now_ms = time.time_ns() // 1_000_000
    await rewrite_meta(directory, deadline_epoch_ms=now_ms + 60_000)
    target = DeadlineTarget([calling(WRITE)])
    result = await attempt(directory, "resume", target, timeout_ms=HOUR_MS)
    assert result.exit_code == 0
    assert target.seconds_left
    assert all(0 < left <= 60 for left in target.seconds_left)


async def test_a_fresh_run_gets_its_full_timeout(tmp_path: Path) -> None:
    target = DeadlineTarget([calling(READ), calling(WRITE)])
    result = await attempt(tmp_path / "ckpt", "create", target, timeout_ms=HOUR_MS)
    assert result.exit_code == 0
    assert all(60 < left <= HOUR_MS / 1000 for left in target.seconds_left)


# The local store: bytes edited behind its back.


async def test_an_edited_journal_entry_body_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    await build(directory, {"n": 0}, [{"amount": 1}, {"amount": 2}])
    journal = directory / "journal.ckpt"
    data = journal.read_bytes()
    assert data.count(b'"amount":1') == 1
    # same length, still valid JSON: every frame header stays valid
    journal.write_bytes(data.replace(b'"amount":1', b'"amount":9'))
    with pytest.raises(CheckpointError) as caught:
        await resume_and_load(directory)
    assert caught.value.reason == "corrupt_checkpoint"


async def test_a_snapshot_of_another_generation_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    try:
        await store.commit_snapshot({"generation": "first"})
        first = (directory / "snapshot.ckpt").read_bytes()
        await store.commit_snapshot({"generation": "second"})
        await store.append({"after": "second"})
        (directory / "snapshot.ckpt").write_bytes(first)
        with pytest.raises(CheckpointError) as caught:
            await store.load()
        assert caught.value.reason == "corrupt_checkpoint"
    finally:
        await store.close()
