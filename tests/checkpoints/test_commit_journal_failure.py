"""A commit whose new journal cannot be put in place says so, naming the directory.

The journal is replaced while the commit runs (just as its new empty journal has
been written and synced, before the rename) by a directory the rename cannot
overwrite: the commit fails with the store's own message, and the store refuses
further writes.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import FileAccessError
from artemiskit.checkpoints import LocalCheckpointStore

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.anyio


def block_journal_rename_at_its_sync(
    monkeypatch: pytest.MonkeyPatch, directory: Path
) -> list[bool]:
    """At the sync of the next new journal, put a directory in its place."""
    done: list[bool] = []

    def wrap(real: Any) -> Any:
        def sync(fd: Any) -> None:
            real(fd)
            pending = [
                name
                for name in os.listdir(directory)
                if name.startswith(".journal.ckpt.") and name.endswith(".tmp")
            ]
            if pending and not done:
                done.append(True)
                os.unlink(directory / "journal.ckpt")
                (directory / "journal.ckpt").mkdir()
                (directory / "journal.ckpt" / "in-the-way").write_bytes(b"")

        return sync

    monkeypatch.setattr(os, "fsync", wrap(os.fsync))
    if hasattr(os, "fdatasync"):
        monkeypatch.setattr(os, "fdatasync", wrap(os.fdatasync))
    return done


async def test_a_journal_that_cannot_be_replaced_fails_the_commit_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "ckpt"
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    try:
        await store.commit_snapshot({"step": 0})
        done = block_journal_rename_at_its_sync(monkeypatch, directory)
        with pytest.raises(FileAccessError) as caught:
            await store.commit_snapshot({"step": 1})
        assert done == [True]
        message = str(caught.value)
        assert message.startswith(
            f"could not replace journal.ckpt in checkpoint directory {directory}: "
        )
        with pytest.raises(FileAccessError):
            await store.append({"kind": "after"})
    finally:
        await store.close()
