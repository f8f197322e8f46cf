"""Refused openings of a local checkpoint: what they say and what they leave."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from artemiskit import CheckpointError
from artemiskit.checkpoints import LocalCheckpointStore

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.anyio


async def test_a_resume_without_a_snapshot_is_refused_before_touching_anything(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    await store.close()
    # what a writer that crashed before its first snapshot could leave behind
    (directory / ".snapshot.ckpt.tmp").write_bytes(b"half a snapshot")
    store = LocalCheckpointStore(directory)
    with pytest.raises(CheckpointError) as caught:
        await store.open(mode="resume")
    assert caught.value.reason == "checkpoint_missing"
    assert str(caught.value) == f"no checkpoint in {directory}"
    assert sorted(os.listdir(directory)) == [".snapshot.ckpt.tmp"]


async def test_a_directory_held_by_an_open_store_is_refused_by_name(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    holder = LocalCheckpointStore(directory)
    await holder.open(mode="create")
    try:
        await holder.commit_snapshot({"step": 0})
        with pytest.raises(CheckpointError) as caught:
            await LocalCheckpointStore(directory).open(mode="resume")
        assert caught.value.reason == "claimed_by_live_process"
        assert str(caught.value) == (
            f"checkpoint directory {directory} is in use by another running process"
        )
        assert (await holder.load()).snapshot == {"step": 0}
    finally:
        await holder.close()
