"""Why a checkpoint is not resumed (SPEC 3.5), each with its own reason code.

Runs pause through the SDK into a real local checkpoint; a few cases then edit the
checkpoint's metadata through the store's own interface (as a crash or another
writer would leave it) and resume. The store-level cases edit bytes on disk that
keep every frame header valid, so only a body checksum or the snapshot
generation can catch them.
"""

from __future__ import annotations

import shutil
import time
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointError,
    CheckpointOptions,
    EnvironmentFailureError,
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
#: Checkpointing with an own target needs an explicit configuration identity.
CONFIG_ID = "refusal-tests"


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
            configuration_id=CONFIG_ID,
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
    assert result.exit_code == 7  # not 10: no confirmed safe pause
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


async def test_a_saved_environment_of_another_pause_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory)
    store = LocalCheckpointStore(directory)
    await store.open(mode="resume")
    try:
        await store.write_artifact(
            "environment-files.json", b'{"docs/other.md":"from another pause"}'
        )
    finally:
        await store.close()
    error = await refusal(directory)
    assert (error.reason, str(error)) == (
        "corrupt_checkpoint",
        "the checkpoint's saved environment does not belong to its snapshot (copied "
        "from another run or another pause); the checkpoint cannot be trusted — start "
        "a fresh run",
    )


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
        assert str(caught.value) == (
            f"the snapshot in {directory} was changed by something else"
        )
    finally:
        await store.close()


class BlockingTarget:
    """Blocks inside its first model request until cancelled."""

    def __init__(self) -> None:
        self.entered = anyio.Event()

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.entered.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")


async def test_a_checkpoint_left_mid_request_refuses_as_pending_operation(
    tmp_path: Path,
) -> None:
    # What a SIGKILL during a model request leaves on disk: copied while the
    # request is in flight, without the dead process's claim.
    directory, crashed = tmp_path / "ckpt", tmp_path / "crashed"
    target = BlockingTarget()
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow_of(data()),
        target=target,
        environment=DictFactory(),
        checkpoint=CheckpointOptions(directory=directory, configuration_id=CONFIG_ID),
    )
    async with anyio.create_task_group() as group:
        group.start_soon(session.run)
        await target.entered.wait()
        shutil.copytree(directory, crashed, ignore=shutil.ignore_patterns("claim*"))
        session.cancel()
    error = await refusal(crashed)
    assert error.reason == "pending_operation"
    assert str(error) == (
        "the checkpoint holds an operation that was admitted but never settled (the "
        "process stopped mid-call); it may have had an effect or consumed unreported "
        "tokens, so it cannot be replayed — start a fresh run"
    )


@pytest.mark.parametrize(
    ("changes", "differing"),
    [
        ({"configuration_id": "another-host"}, ["configuration_id"]),
        ({"timeout_ms": 40_000}, ["workflow_digest"]),
        ({"on_denial": "report"}, ["workflow_digest", "policy_digest"]),
        ({"allow": ["docs/*.md"]}, ["workflow_digest", "policy_digest"]),
    ],
)
async def test_a_checkpoint_of_another_binding_names_what_differs(
    tmp_path: Path, changes: dict[str, Any], differing: list[str]
) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory)
    workflow = data(changes.get("timeout_ms", 30_000))
    if "on_denial" in changes:
        workflow["policy"] = {"on_denial": changes["on_denial"]}
    if "allow" in changes:
        workflow["tools"][0]["allow"] = {"paths": changes["allow"]}
    target = ReplayTarget([calling(WRITE)])
    options = CheckpointOptions(
        directory=directory,
        mode="resume",
        configuration_id=changes.get("configuration_id", CONFIG_ID),
    )
    with pytest.raises(CheckpointError) as caught:
        await ArtemisKit().run_workflow(
            workflow=workflow_of(workflow),
            target=target,
            environment=DictFactory(),
            checkpoint=options,
        )
    assert target.requests == []
    assert caught.value.reason == "incompatible_checkpoint"
    assert str(caught.value) == (
        "the checkpoint belongs to a different "
        + ", ".join(differing)
        + "; resume needs the same workflow, tool catalogue, policy, harness and "
        "configuration — start a fresh run instead"
    )


def epoch_ms() -> int:
    return time.time_ns() // 1_000_000


@pytest.mark.parametrize(
    ("changes", "reason", "message"),
    [
        (
            lambda: {"last_observed_epoch_ms": epoch_ms() + HOUR_MS},
            "clock_moved_backwards",
            "the wall clock is earlier than the checkpoint's last committed "
            "observation; refusing to resume on a clock that moved backwards",
        ),
        (
            lambda: {"deadline_epoch_ms": epoch_ms() - 1},
            "checkpoint_expired",
            "the checkpoint's workflow deadline has passed (stopped time counts)",
        ),
        (
            lambda: {"environment_saved": False},
            "unsaved_environment",
            "the checkpoint has no saved environment",
        ),
        (
            lambda: {"status": "terminal"},
            "terminal_checkpoint",
            "the checkpoint is terminal: its run already ended; a finished run "
            "cannot be resumed as another repetition",
        ),
        (
            lambda: {"status": "interrupted"},
            "interrupted_checkpoint",
            "the checkpoint was left by a cancelled run; interrupted evidence is "
            "not resumable",
        ),
        (
            lambda: {"status": "active"},
            "crashed_attempt",
            "the checkpoint's attempt stopped without pausing (it crashed); its "
            "environment was not saved and its cleanup cannot be inferred",
        ),
        (
            lambda: {"status": "resumable-please"},
            "corrupt_checkpoint",
            "the checkpoint's contents do not decode as a session",
        ),
    ],
)
async def test_each_refusal_says_why_in_words(
    tmp_path: Path, changes: Any, reason: str, message: str
) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory)
    await rewrite_meta(directory, **changes())
    error = await refusal(directory)
    assert (error.reason, str(error)) == (reason, message)
    # a clean refusal lifts its recovery guard: the checkpoint can be opened again
    assert (await refusal(directory)).reason == reason


class GatedTarget(ReplayTarget):
    """Waits for ``gate`` inside its first request, then answers as usual."""

    def __init__(self, responses: list[TargetResponse]) -> None:
        super().__init__(responses)
        self.entered = anyio.Event()
        self.gate = anyio.Event()

    async def respond(self, request: TargetRequest) -> TargetResponse:
        if not self.entered.is_set():
            self.entered.set()
            await self.gate.wait()
        return await super().respond(request)


async def test_a_requested_pause_stops_at_the_next_safe_boundary(
    tmp_path: Path,
) -> None:
    target = GatedTarget([calling(READ)])
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow_of(data()),
        target=target,
        environment=DictFactory(),
        checkpoint=CheckpointOptions(
            directory=tmp_path / "ckpt", configuration_id=CONFIG_ID
        ),
    )
    async with anyio.create_task_group() as group:
        group.start_soon(session.run)
        await target.entered.wait()
        group.start_soon(session.pause)
        await anyio.wait_all_tasks_blocked()
        target.gate.set()
    result = await session.run()
    record = result.record
    assert (record.execution.status, record.execution.reason) == (
        "paused",
        "pause_requested",
    )
    assert record.exit_code == 10
    assert record.budget.used.model_requests == 1
    assert record.budget.used.tool_calls == 0
    assert record.recovery.resumable


@pytest.mark.parametrize("after", [1, 2, 3])
async def test_pause_after_actions_pauses_once_that_many_actions_ran(
    tmp_path: Path, after: int
) -> None:
    result = await attempt(
        tmp_path / "ckpt",
        "create",
        ReplayTarget([calling(READ), calling(WRITE)]),
        pause_after_actions=after,
    )
    record = result.record
    assert (record.execution.status, record.execution.reason) == (
        "paused",
        "pause_after_actions",
    )
    assert record.exit_code == 10
    assert record.budget.used.actions == after


async def test_every_attempt_counts_its_pause_threshold_from_its_own_start(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory)  # after 1 action: the first model request
    second = await attempt(
        directory, "resume", ReplayTarget([calling(WRITE)]), pause_after_actions=2
    )
    assert second.record.execution.status == "paused"
    assert second.record.budget.used.actions == 3
    assert second.record.recovery.attempt_number == 2
    third = await attempt(directory, "resume", ReplayTarget([]))
    assert third.record.recovery.attempt_number == 3
    assert third.record.budget.used.actions == 5  # the pending write, then Done
    assert third.exit_code == 0


async def test_a_long_run_compacts_its_journal_and_still_resumes(
    tmp_path: Path,
) -> None:
    # ~2 committed transitions per tool call: 300 calls cross the compaction point
    directory = tmp_path / "ckpt"
    reads = [
        call("read_file", {"path": "docs/policy.md"}, call_id=f"c{i}")
        for i in range(400)
    ]
    workflow = workflow_dict(
        budgets={"max_actions": 1000, "timeout_ms": 60_000}, outcomes=[]
    )
    first = await ArtemisKit().run_workflow(
        workflow=workflow_of(workflow),
        target=ReplayTarget([calling(*reads)]),
        environment=DictFactory(),
        checkpoint=CheckpointOptions(directory=directory, configuration_id=CONFIG_ID),
        pause_after_actions=301,
    )
    assert first.record.execution.status == "paused"
    assert first.record.budget.used.tool_calls == 300
    second = await ArtemisKit().run_workflow(
        workflow=workflow_of(workflow),
        target=ReplayTarget([]),
        environment=DictFactory(),
        checkpoint=CheckpointOptions(
            directory=directory, mode="resume", configuration_id=CONFIG_ID
        ),
    )
    assert second.record.execution.status == "completed"
    assert second.record.budget.used.tool_calls == 400
    assert second.record.budget.used.model_requests == 2


class _NoEnvironmentFactory(DictFactory):
    """A factory whose environment never comes up."""

    async def create(self, *, run_id: str, files: Any) -> Any:
        raise EnvironmentFailureError("the environment did not start")


async def test_a_resume_whose_environment_fails_ends_with_a_record_and_keeps_the_guard(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    await paused(directory)
    result = await attempt(
        directory,
        "resume",
        ReplayTarget([calling(WRITE)]),
        factory=_NoEnvironmentFactory(),
    )
    assert result.record.execution.reason == "environment_failure"
    assert result.record.recovery.attempt_number == 2
    assert (await refusal(directory)).reason == "recovery_guard_present"


async def test_a_crash_between_two_transitions_is_refused_as_a_crashed_attempt(
    tmp_path: Path,
) -> None:
    # What a SIGKILL between two transitions leaves: an active checkpoint whose
    # journal holds entries and no operation pending.
    directory = tmp_path / "ckpt"
    await paused(directory)
    await rewrite_meta(directory, status="active")
    store = LocalCheckpointStore(directory)
    await store.open(mode="resume")
    try:
        observed = (await store.load()).snapshot["meta"]["last_observed_epoch_ms"]
        await store.append({"delta": {}, "observed": observed})
        await store.append({"delta": {}, "observed": observed + 1})
    finally:
        await store.close()
    assert (await refusal(directory)).reason == "crashed_attempt"
