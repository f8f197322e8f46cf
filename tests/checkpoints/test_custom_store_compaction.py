"""When a user's own checkpoint store gets its journal compacted (SPEC 3.5).

A `CheckpointStore` may report the bytes each write took, or ``None``; it need
not offer ``append_buffered``. The engine compacts the journal into a snapshot
after 512 appends when sizes are unknown, and by size when they are reported:
once the journal holds at least 1 MiB and twice the snapshot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import create_agent_workflow_session
from artemiskit.checkpoints import LocalCheckpointStore
from artemiskit.engine._checkpointing import COMPACT_EVERY, COMPACT_MIN_BYTES
from tests._builders import workflow_dict
from tests._environments import DictFactory
from tests._runs import ReplayTarget, call, calling, workflow_of

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from artemiskit import WorkflowResult
    from artemiskit.checkpoints import LoadedCheckpoint, OpenMode


class SizingStore:
    """A store of the user's own: the local store underneath, its own sizes.

    It has no ``append_buffered``; each write is noted as ``snapshot`` or
    ``append``.
    """

    def __init__(
        self, directory: Path, *, snapshot_size: int | None, append_size: int | None
    ) -> None:
        self._local = LocalCheckpointStore(directory)
        self._snapshot_size = snapshot_size
        self._append_size = append_size
        self.writes: list[str] = []

    async def open(self, *, mode: OpenMode) -> None:
        await self._local.open(mode=mode)

    async def commit_snapshot(self, payload: Mapping[str, Any]) -> int | None:
        await self._local.commit_snapshot(payload)
        self.writes.append("snapshot")
        return self._snapshot_size

    async def append(self, entry: Mapping[str, Any]) -> int | None:
        await self._local.append(entry)
        self.writes.append("append")
        return self._append_size

    async def load(self) -> LoadedCheckpoint:
        return await self._local.load()

    async def write_artifact(self, name: str, data: bytes) -> None:
        await self._local.write_artifact(name, data)

    async def read_artifact(self, name: str) -> bytes:
        return await self._local.read_artifact(name)

    async def begin_recovery(self) -> None:
        await self._local.begin_recovery()

    async def end_recovery(self) -> None:
        await self._local.end_recovery()

    async def close(self) -> None:
        await self._local.close()


async def run_reads(store: SizingStore, reads: int) -> WorkflowResult:
    data = workflow_dict(
        budgets={"max_actions": 2 * reads, "timeout_ms": 120_000}, outcomes=[]
    )
    calls = [
        call("read_file", {"path": "docs/policy.md"}, call_id=f"c{i}")
        for i in range(reads)
    ]
    session = create_agent_workflow_session(
        workflow=workflow_of(data),
        target=ReplayTarget([calling(*calls)]),
        environment=DictFactory(),
        checkpoint_store=store,
        configuration_id="custom-store-tests",
    )
    return await session.run()


def appends_between_snapshots(writes: list[str]) -> list[int]:
    """How many appends each snapshot after the first followed."""
    counts: list[int] = []
    run = 0
    for write in writes[1:]:
        if write == "snapshot":
            counts.append(run)
            run = 0
        else:
            run += 1
    return counts


@pytest.mark.parametrize("snapshot_size", [None, 1])
async def test_a_store_without_append_sizes_is_compacted_every_512_appends(
    tmp_path: Path, snapshot_size: int | None
) -> None:
    store = SizingStore(
        tmp_path / "ckpt", snapshot_size=snapshot_size, append_size=None
    )
    result = await run_reads(store, 600)
    assert result.record.execution.status == "completed"
    *compactions, final = appends_between_snapshots(store.writes)
    assert compactions == [COMPACT_EVERY]
    assert 0 < final < COMPACT_EVERY


async def test_a_store_with_sizes_is_compacted_once_the_journal_reaches_the_bound(
    tmp_path: Path,
) -> None:
    # two appends of half the bound reach it exactly: compacted at the third commit
    half = SizingStore(
        tmp_path / "half", snapshot_size=1, append_size=COMPACT_MIN_BYTES // 2
    )
    await run_reads(half, 3)
    assert set(appends_between_snapshots(half.writes)[:-1]) == {2}
    # two appends of one byte less than the bound pass it; one does not
    nearly = SizingStore(
        tmp_path / "nearly", snapshot_size=1, append_size=COMPACT_MIN_BYTES - 1
    )
    await run_reads(nearly, 3)
    assert set(appends_between_snapshots(nearly.writes)[:-1]) == {2}
