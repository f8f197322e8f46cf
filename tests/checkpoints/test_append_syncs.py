"""What `LocalCheckpointStore.append` and `append_buffered` leave on disk and sync.

A synced append waits for the disk with one ``fdatasync`` (``fsync`` where the
platform has no ``fdatasync``); a buffered append writes its entry at once and
syncs nothing (SPEC 10: at most two syncs per step). Both return the bytes they
added, also when they queue behind an operation already in flight.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from artemiskit.checkpoints import LocalCheckpointStore

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.anyio

HEADER = 84  # bytes of an empty journal: magic, version, generation, digests


class Syncs:
    """Counts the real sync calls of this process (each still reaches the disk)."""

    def __init__(self) -> None:
        self.fdatasync = 0
        self.fsync = 0
        self.gate: threading.Event | None = None
        self.entered = threading.Event()

    def wait_at_gate(self) -> None:
        """Hold the calling worker thread while a test has armed the gate."""
        gate = self.gate
        if gate is not None:
            self.entered.set()
            gate.wait()


@pytest.fixture
def syncs(monkeypatch: pytest.MonkeyPatch) -> Syncs:
    counts = Syncs()
    real_fsync, real_fdatasync = os.fsync, getattr(os, "fdatasync", None)

    def fsync(fd: Any) -> None:
        counts.fsync += 1
        counts.wait_at_gate()
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    if real_fdatasync is not None:

        def fdatasync(fd: Any) -> None:
            counts.fdatasync += 1
            counts.wait_at_gate()
            real_fdatasync(fd)

        monkeypatch.setattr(os, "fdatasync", fdatasync)
    return counts


async def opened(directory: Path) -> LocalCheckpointStore:
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    await store.commit_snapshot({"step": 0})
    return store


def journal_size(directory: Path) -> int:
    return (directory / "journal.ckpt").stat().st_size


async def test_a_synced_append_costs_one_fdatasync_and_a_buffered_one_none(
    tmp_path: Path, syncs: Syncs
) -> None:
    store = await opened(tmp_path / "ckpt")
    try:
        before = (syncs.fdatasync, syncs.fsync)
        buffered = await store.append_buffered({"kind": "boundary"})
        assert (syncs.fdatasync, syncs.fsync) == before
        synced = await store.append({"kind": "admitted"})
        assert (syncs.fdatasync, syncs.fsync) == (before[0] + 1, before[1])
        assert buffered is not None
        assert synced is not None
        assert buffered + synced == journal_size(tmp_path / "ckpt") - HEADER
        loaded = await store.load()
        assert loaded.entries == ({"kind": "boundary"}, {"kind": "admitted"})
    finally:
        await store.close()


async def test_without_fdatasync_an_append_syncs_with_fsync(
    tmp_path: Path, syncs: Syncs, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await opened(tmp_path / "ckpt")
    try:
        monkeypatch.delattr(os, "fdatasync", raising=False)
        before = syncs.fsync
        await store.append({"kind": "admitted"})
        assert syncs.fsync == before + 1
        assert (await store.load()).entries == ({"kind": "admitted"},)
    finally:
        await store.close()


async def commit_while_queueing(
    store: LocalCheckpointStore, syncs: Syncs, append: Any, entry: dict[str, Any]
) -> int | None:
    """Commit a snapshot and, while its worker thread waits in its first sync, call
    ``append`` (which must queue behind the commit); return what it returned."""
    returned: list[int | None] = []

    async def queued() -> None:
        returned.append(await append(entry))

    async def committing() -> None:
        try:
            await store.commit_snapshot({"step": 1})
        finally:
            syncs.entered.set()

    gate = syncs.gate = threading.Event()
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(committing)
            await anyio.to_thread.run_sync(syncs.entered.wait)
            group.start_soon(queued)
            await anyio.wait_all_tasks_blocked()
            syncs.gate = None
            gate.set()
    finally:
        gate.set()
        syncs.entered.clear()
    return returned[0]


@pytest.mark.parametrize(("method", "added"), [("append_buffered", 0), ("append", 1)])
async def test_an_append_behind_an_operation_in_flight_queues_and_reports_its_size(
    tmp_path: Path, syncs: Syncs, method: str, added: int
) -> None:
    directory = tmp_path / "ckpt"
    store = await opened(directory)
    try:
        before = syncs.fdatasync + syncs.fsync
        await store.commit_snapshot({"step": 1})
        commit_syncs = syncs.fdatasync + syncs.fsync - before
        before = syncs.fdatasync + syncs.fsync
        entry = {"kind": "boundary"}
        size = await commit_while_queueing(store, syncs, getattr(store, method), entry)
        # the commit's own syncs, then the queued append's (none when buffered)
        assert syncs.fdatasync + syncs.fsync - before == commit_syncs + added
        assert size == journal_size(directory) - HEADER
        loaded = await store.load()
        assert loaded.snapshot == {"step": 1}
        assert loaded.entries == (entry,)
    finally:
        await store.close()
