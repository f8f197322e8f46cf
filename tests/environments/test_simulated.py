"""The simulated environment's scheduling points, counted, never timed (SPEC 10).

Creating the environment and taking its snapshot wait for nothing, so they give
the event loop no turn of their own; a pending cancellation still lands at both,
as at any scheduling point.
"""

from __future__ import annotations

import anyio
import pytest
from anyio.lowlevel import checkpoint

from artemiskit import (
    ArtemisKit,
    EnvironmentFailureError,
    FileOperationError,
    TargetRequest,
    TargetResponse,
)
from artemiskit._common._limits import MAX_ENVIRONMENT_BYTES, MAX_FILE_BYTES
from artemiskit.environments._simulated import SimulatedFactory
from tests._builders import workflow_dict
from tests._runs import DONE, workflow_of

FILES = {"docs/notes.md": "Notes."}


class _Ticker:
    """Another task that counts the turns the event loop gives it."""

    def __init__(self) -> None:
        self.ticks = 0
        self.finished = anyio.Event()

    async def run(self) -> None:
        while not self.finished.is_set():
            self.ticks += 1
            await checkpoint()


async def test_creating_and_snapshotting_give_the_loop_no_turn() -> None:
    ticker = _Ticker()
    async with anyio.create_task_group() as group:
        group.start_soon(ticker.run)
        await checkpoint()
        before = ticker.ticks
        environment = await SimulatedFactory().create(run_id="r", files=FILES)
        files = await environment.snapshot()
        after = ticker.ticks
        ticker.finished.set()
    assert files == FILES
    assert after == before


async def test_a_pending_cancel_lands_at_creation_and_at_the_snapshot() -> None:
    factory = SimulatedFactory()
    with anyio.CancelScope() as scope:
        scope.cancel()
        await factory.create(run_id="r", files=FILES)
        pytest.fail("creation went on under a cancelled scope")
    assert scope.cancelled_caught
    environment = await factory.create(run_id="r", files=FILES)
    with anyio.CancelScope() as scope:
        scope.cancel()
        await environment.snapshot()
        pytest.fail("the snapshot went on under a cancelled scope")
    assert scope.cancelled_caught


class _Immediate:
    """Answers at once, without a scheduling point of its own."""

    async def respond(self, request: TargetRequest) -> TargetResponse:
        return DONE


async def test_a_session_of_one_request_yields_for_the_engine_only() -> None:
    ticker = _Ticker()
    workflow = workflow_of(workflow_dict(outcomes=[]))
    async with anyio.create_task_group() as group:
        group.start_soon(ticker.run)
        await checkpoint()
        before = ticker.ticks
        result = await ArtemisKit().run_workflow(workflow=workflow, target=_Immediate())
        after = ticker.ticks
        ticker.finished.set()
    assert result.record.execution.status == "completed"
    assert result.record.cleanup.status == "complete"
    # the session's scheduling points are the start of the task its turns run
    # in and the wake-up when it ends (so that a target ignoring cancellation
    # cannot hold run(): docs/running-workflows.md), the model request's
    # admission and the check before completing: the environment's creation
    # and snapshot add none (trio orders the tasks of one batch at random, so a
    # tick may land on either side)
    assert after - before <= 5


async def test_a_closed_environment_refuses_everything_and_shares_nothing() -> None:
    factory = SimulatedFactory()
    first = await factory.create(run_id="a", files=FILES)
    second = await factory.create(run_id="b", files=FILES)
    assert (await first.close()).status == "complete"
    assert (await first.close()).status == "complete"
    for operation in (
        first.read_file("docs/notes.md"),
        first.write_file("docs/new.md", "x"),
        first.delete_file("docs/notes.md"),
        first.list_files(),
        first.snapshot(),
    ):
        with pytest.raises(EnvironmentFailureError) as refused:
            await operation
        assert refused.value.reason == "environment_closed"
    await second.close()
    third = await factory.create(run_id="c", files={})
    await third.write_file("docs/new.md", "x")
    assert await third.snapshot() == {"docs/new.md": "x"}


async def test_environments_of_the_same_files_share_nothing() -> None:
    factory = SimulatedFactory()
    files = {f"docs/{number}.md": "x" * number for number in range(1, 30)}
    first = await factory.create(run_id="a", files=files)
    second = await factory.create(run_id="b", files=dict(files))
    await first.write_file("docs/new.md", "first")
    await first.delete_file("docs/1.md")
    await first.write_file("docs/2.md", "changed")
    assert await second.snapshot() == files
    third = await factory.create(run_id="c", files=files)
    assert await third.snapshot() == files
    snapshot = await first.snapshot()
    assert snapshot["docs/new.md"] == "first"
    assert "docs/1.md" not in snapshot


async def test_files_that_break_the_rules_are_refused_every_time() -> None:
    factory = SimulatedFactory()
    for files in ({"../escape.md": "x"}, {"docs/a": "x", "docs/a/b.md": "y"}):
        for _ in range(2):
            with pytest.raises(FileOperationError):
                await factory.create(run_id="r", files=files)


async def test_a_copied_map_keeps_the_size_bounds() -> None:
    factory = SimulatedFactory()
    files = {"docs/start.md": "x" * 1000}
    big = "x" * MAX_FILE_BYTES
    for _ in range(2):  # the second environment starts from a copied map
        environment = await factory.create(run_id="r", files=files)
        for number in range(MAX_ENVIRONMENT_BYTES // MAX_FILE_BYTES - 1):
            await environment.write_file(f"docs/{number}.md", big)
        await environment.write_file("docs/last.md", "x" * (MAX_FILE_BYTES - 1000))
        with pytest.raises(FileOperationError) as refused:
            await environment.write_file("docs/more.md", "x")
        assert refused.value.reason == "environment_full"
        await environment.write_file("docs/start.md", "")
        await environment.write_file("docs/more.md", "x")
