"""What a durable run writes per step: one synced append per admitted operation.

A safe boundary is written to the journal without waiting for the disk; the
admission that follows it, before its invocation, syncs the file once for both.
The journal is compacted into a snapshot by size, so the bytes written per step
stay flat. A process killed between the two (the boundary on file, the next
admission not) crashed between operations, and resume refuses it rather than
replay anything.
"""

from __future__ import annotations

import itertools
import json
import signal
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from artemiskit import create_agent_workflow_session
from artemiskit.checkpoints import LocalCheckpointStore
from artemiskit.engine._checkpointing import COMPACT_MIN_BYTES, COMPACT_RATIO
from tests._builders import PASSING_SCRIPT, workflow_dict
from tests._environments import DictFactory
from tests._runs import ReplayTarget, call, calling, workflow_of

from ._processes import Case, Running
from .test_resume import resume_refused_unchanged

CONFIG_ID = "folded-commit-tests"


class RecordingStore(LocalCheckpointStore):
    """A local store that notes each write and the size it reports."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.writes: list[tuple[str, int | None]] = []

    async def commit_snapshot(self, payload: Any) -> int | None:
        size = await super().commit_snapshot(payload)
        self.writes.append(("snapshot", size))
        return size

    async def append(self, entry: Any) -> int | None:
        size = await super().append(entry)
        self.writes.append(("append", size))
        return size

    async def append_buffered(self, entry: Any) -> int | None:
        size = await super().append_buffered(entry)
        self.writes.append(("buffered", size))
        return size


async def recorded_run(
    tmp_path: Path, data: dict[str, Any], responses: list[Any]
) -> tuple[RecordingStore, Any]:
    store = RecordingStore(tmp_path / "ckpt")
    session = create_agent_workflow_session(
        workflow=workflow_of(data),
        target=ReplayTarget(responses),
        environment=DictFactory(),
        checkpoint_store=store,
        configuration_id=CONFIG_ID,
    )
    return store, await session.run()


async def test_each_admitted_operation_is_one_durable_append(tmp_path: Path) -> None:
    reads = [
        call("read_file", {"path": "docs/policy.md"}, call_id=f"c{i}") for i in range(3)
    ]
    store, result = await recorded_run(
        tmp_path,
        workflow_dict(outcomes=[]),
        [calling(*reads), calling(reads[0])],
    )
    assert result.record.execution.status == "completed"
    used = result.record.budget.used
    assert (used.model_requests, used.tool_calls) == (3, 4)
    kinds = [kind for kind, _ in store.writes]
    # the first snapshot, one synced append per admitted operation (each safe
    # boundary before it written unsynced), the final snapshot
    assert kinds[0] == kinds[-1] == "snapshot"
    assert kinds.count("snapshot") == 2
    assert kinds.count("append") == used.actions
    assert "buffered" in kinds
    for before, after in itertools.pairwise(kinds[1:-1]):
        assert (before, after) != ("buffered", "buffered")


async def test_an_idle_store_appends_without_a_thread_hop(tmp_path: Path) -> None:
    store = LocalCheckpointStore(tmp_path / "ckpt")
    await store.open(mode="create")
    try:
        await store.commit_snapshot({"state": 1})
        order: list[str] = []

        async def other() -> None:
            order.append("other task")

        async with anyio.create_task_group() as group:
            group.start_soon(other)
            await store.append({"delta": 1})
            order.append("appended")
        assert order == ["appended", "other task"]
        assert (await store.load()).entries == ({"delta": 1},)
    finally:
        await store.close()


async def test_the_journal_is_compacted_by_size_not_by_count(tmp_path: Path) -> None:
    big = "x" * (200 * 1024)
    data = workflow_dict(
        environment={"files": {"docs/big.md": big}},
        budgets={"max_actions": 100, "timeout_ms": 60_000},
        outcomes=[],
    )
    reads = [
        call("read_file", {"path": "docs/big.md"}, call_id=f"c{i}") for i in range(24)
    ]
    store, result = await recorded_run(tmp_path, data, [calling(*reads)])
    assert result.record.execution.status == "completed"
    journal = 0
    snapshot: int | None = None
    compactions = 0
    for kind, size in store.writes[:-1]:  # the final snapshot ends the run
        assert size is not None
        if kind in ("append", "buffered"):
            journal += size
            continue
        if snapshot is not None:
            assert journal >= max(COMPACT_MIN_BYTES, COMPACT_RATIO * snapshot)
            compactions += 1
        snapshot, journal = size, 0
    assert compactions >= 1  # ~4.8 MiB of answers: the journal was compacted
    assert journal < max(COMPACT_MIN_BYTES, COMPACT_RATIO * (snapshot or 0)) + 400_000


#: ``python -c KILLABLE '{"workflow": ..., "directory": ..., "operation": ...}'``:
#: a checkpointed run whose events reader, once ``operation`` settles, says so on
#: stderr and then blocks the whole process (the engine cannot go on to its next
#: durable append) until the test kills it.
KILLABLE = """\
import json, sys, time
import anyio
from artemiskit import ArtemisKit, CheckpointOptions

options = json.loads(sys.argv[1])

async def main():
    session = await ArtemisKit().create_workflow_session(
        workflow=options["workflow"],
        checkpoint=CheckpointOptions(
            directory=options["directory"], mode="create",
            configuration_id="host-transport-v1",
        ),
    )
    events = session.events()

    async def block_after_settle():
        async for event in events:
            if (
                event.type == "operation_settled"
                and event.operation_id == options["operation"]
            ):
                sys.stderr.write(f"settled {event.operation_id}\\n")
                sys.stderr.flush()
                time.sleep(600)

    async with anyio.create_task_group() as group:
        group.start_soon(block_after_settle)
        await session.run()

anyio.run(main)
"""


@pytest.mark.parametrize(
    "operation",
    [
        pytest.param("op-000003", id="after-a-model-request"),
        pytest.param("op-000004", id="after-a-tool-write"),
    ],
)
def test_sigkill_between_two_folded_appends_never_replays(
    tmp_path: Path, operation: str
) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    options = {
        "workflow": str(case.path),
        "directory": str(case.checkpoint),
        "operation": operation,
    }
    running = Running(
        [sys.executable, "-c", KILLABLE, json.dumps(options)], cwd=case.folder
    )
    try:
        running.wait_for(f"settled {operation}")
    finally:
        running.process.send_signal(signal.SIGKILL)
    assert running.finish().code == -signal.SIGKILL
    # The boundary after the settlement is on file, not yet synced; the next
    # admission is not: the run crashed between operations, and resume refuses
    # it (no request, no write) instead of replaying anything.
    resume_refused_unchanged(case, "crashed_attempt")
    resume_refused_unchanged(case, "crashed_attempt")
