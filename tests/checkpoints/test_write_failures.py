"""The local store when the operating system refuses a write, in process.

Real failures, no mocks: ``RLIMIT_FSIZE`` (with ``SIGXFSZ`` ignored) makes a write
that would grow a file past the limit fail with ``EFBIG``, as a full disk or a quota
would; a directory put where the store expects a file makes its unlink or rename
fail with ``EISDIR``, even for root. The limit is process-wide, so it is set only
around the one store call that must fail.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import signal
from typing import TYPE_CHECKING

import pytest

from artemiskit import FileAccessError, SessionStateError
from artemiskit.checkpoints import LocalCheckpointStore

from ._helpers import build

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

TOO_LARGE = "File too large"


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Writes past ``limit`` bytes of any file fail with EFBIG until the block ends."""
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)


@pytest.fixture
async def checkpoint(tmp_path: Path) -> Path:
    directory = tmp_path / "ckpt"
    await build(directory, {"n": 0}, [{"n": 1}], artifacts={"files": b"abc"})
    return directory


async def opened(directory: Path) -> LocalCheckpointStore:
    store = LocalCheckpointStore(directory)
    await store.open(mode="resume")
    return store


async def assert_later_writes_refused(store: LocalCheckpointStore) -> None:
    for write in (
        store.append({"n": 9}),
        store.commit_snapshot({"n": 9}),
        store.write_artifact("other", b"x"),
        store.begin_recovery(),
    ):
        with pytest.raises(FileAccessError) as caught:
            await write
        assert str(caught.value) == (
            f"an earlier write to checkpoint directory {store.directory} failed; "
            "close the store and resume from the last committed state"
        )


async def test_a_failed_append_is_cut_back_and_stops_every_later_write(
    checkpoint: Path,
) -> None:
    journal = checkpoint / "journal.ckpt"
    size = journal.stat().st_size
    store = await opened(checkpoint)
    try:
        with (
            file_size_limit(size + 5),
            pytest.raises(FileAccessError) as caught,
        ):
            await store.append({"n": 2, "padding": "x" * 64})
        assert str(caught.value) == (
            f"could not append to the journal in {checkpoint}: {TOO_LARGE}"
        )
        assert journal.stat().st_size == size
        await assert_later_writes_refused(store)
        # reading stays possible: what was committed is intact
        assert (await store.load()).entries == ({"n": 1},)
        assert await store.read_artifact("files") == b"abc"
    finally:
        await store.close()
    store = await opened(checkpoint)
    try:
        loaded = await store.load()
    finally:
        await store.close()
    assert loaded.entries == ({"n": 1},)
    assert loaded.torn_tail is False


async def test_a_failed_snapshot_commit_keeps_the_last_one_and_stops_writes(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint)
    try:
        with (
            file_size_limit(8),
            pytest.raises(FileAccessError) as caught,
        ):
            await store.commit_snapshot({"n": 2})
        assert re.fullmatch(
            rf"could not write \.snapshot\.ckpt\.[0-9a-f]{{16}}\.tmp in checkpoint "
            rf"directory {re.escape(str(checkpoint))}: {TOO_LARGE}",
            str(caught.value),
        )
        await assert_later_writes_refused(store)
    finally:
        await store.close()
    assert sorted(os.listdir(checkpoint)) == [
        "artifacts",
        "journal.ckpt",
        "snapshot.ckpt",
    ]
    store = await opened(checkpoint)
    try:
        loaded = await store.load()
    finally:
        await store.close()
    assert (loaded.snapshot, loaded.entries) == ({"n": 0}, ({"n": 1},))


async def test_a_failed_artifact_write_keeps_the_previous_artifact(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint)
    try:
        with (
            file_size_limit(8),
            pytest.raises(FileAccessError, match=f"{TOO_LARGE}$"),
        ):
            await store.write_artifact("files", b"new contents")
        assert await store.read_artifact("files") == b"abc"
    finally:
        await store.close()
    assert os.listdir(checkpoint / "artifacts") == ["files"]


async def test_a_guard_that_cannot_be_written_leaves_no_recovery_behind(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint)
    try:
        with (
            file_size_limit(4),
            pytest.raises(FileAccessError) as caught,
        ):
            await store.begin_recovery()
        assert str(caught.value) == (
            f"could not write recovery.guard in checkpoint directory {checkpoint}: "
            f"{TOO_LARGE}"
        )
        assert not (checkpoint / "recovery.guard").exists()
        with pytest.raises(SessionStateError, match=r"^no recovery is in progress$"):
            await store.end_recovery()
        await store.begin_recovery()
        await store.end_recovery()
    finally:
        await store.close()


async def test_a_guard_that_cannot_be_removed_keeps_the_recovery_open(
    checkpoint: Path,
) -> None:
    guard = checkpoint / "recovery.guard"
    store = await opened(checkpoint)
    try:
        await store.begin_recovery()
        guard.unlink()
        guard.mkdir()
        with pytest.raises(FileAccessError) as caught:
            await store.end_recovery()
        assert str(caught.value) == (
            f"could not remove the recovery guard in {checkpoint}: Is a directory"
        )
        with pytest.raises(SessionStateError, match="already in progress"):
            await store.begin_recovery()
        guard.rmdir()
        guard.write_bytes(b"")
        await store.end_recovery()
        assert not guard.exists()
    finally:
        await store.close()
    await (await opened(checkpoint)).close()


async def test_an_artifact_that_cannot_be_replaced_is_named_and_left_alone(
    checkpoint: Path,
) -> None:
    target = checkpoint / "artifacts" / "blocked"
    (target / "inside").mkdir(parents=True)
    store = await opened(checkpoint)
    try:
        with pytest.raises(FileAccessError) as caught:
            await store.write_artifact("blocked", b"data")
        assert str(caught.value) == (
            f"could not replace blocked in checkpoint directory {checkpoint}: "
            "Is a directory"
        )
        await store.append({"n": 2})
    finally:
        await store.close()
    assert sorted(os.listdir(target.parent)) == [
        "blocked",
        "files",
    ]


async def test_a_failed_write_during_a_recovery_keeps_its_guard(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint)
    try:
        await store.begin_recovery()
        with (
            file_size_limit((checkpoint / "journal.ckpt").stat().st_size),
            pytest.raises(FileAccessError),
        ):
            await store.append({"n": 2})
        with pytest.raises(FileAccessError, match="an earlier write"):
            await store.end_recovery()
    finally:
        await store.close()
    assert (checkpoint / "recovery.guard").exists()
