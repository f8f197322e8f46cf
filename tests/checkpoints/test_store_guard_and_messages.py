"""The local store's recovery guard and what its refusals say, in process.

The crash tests prove the guard survives a SIGKILL; these pin the guard's rules
(one recovery at a time, lifted only by ``end_recovery``) and check that every
refusal names the checkpoint directory and the part concerned.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import CheckpointError, FileAccessError, SessionStateError
from artemiskit.checkpoints import CheckpointLimits, LocalCheckpointStore

from ._helpers import build

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
async def checkpoint(tmp_path: Path) -> Path:
    directory = tmp_path / "ckpt"
    await build(directory, {"n": 0}, [{"n": 1}], artifacts={"files": b"abc"})
    return directory


async def opened(directory: Path, **limits: int) -> LocalCheckpointStore:
    store = LocalCheckpointStore(directory, limits=CheckpointLimits(**limits))
    await store.open(mode="resume")
    return store


async def test_a_recovery_left_unfinished_refuses_every_later_open(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint)
    await store.begin_recovery()
    await store.close()
    for _ in range(2):
        with pytest.raises(CheckpointError) as caught:
            await opened(checkpoint)
        assert caught.value.reason == "recovery_guard_present"
        assert str(checkpoint) in str(caught.value)
        assert "recovery guard" in str(caught.value)


async def test_a_finished_recovery_lifts_the_guard_and_can_run_again(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint)
    try:
        await store.begin_recovery()
        await store.end_recovery()
        await store.begin_recovery()
        await store.end_recovery()
    finally:
        await store.close()
    store = await opened(checkpoint)
    await store.close()


async def test_one_recovery_at_a_time(checkpoint: Path) -> None:
    store = await opened(checkpoint)
    try:
        with pytest.raises(SessionStateError, match=r"^no recovery is in progress$"):
            await store.end_recovery()
        await store.begin_recovery()
        with pytest.raises(
            SessionStateError, match=r"^a recovery is already in progress$"
        ):
            await store.begin_recovery()
        await store.end_recovery()
    finally:
        await store.close()


async def test_a_guard_that_appeared_meanwhile_is_refused(checkpoint: Path) -> None:
    store = await opened(checkpoint)
    try:
        guard = checkpoint / "recovery.guard"
        guard.write_bytes(b"another process")
        guard.chmod(0o600)
        with pytest.raises(CheckpointError) as caught:
            await store.begin_recovery()
        assert caught.value.reason == "recovery_guard_present"
        assert str(caught.value) == (
            f"checkpoint directory {checkpoint} already holds a recovery guard"
        )
    finally:
        await store.close()


async def test_a_missing_artifact_is_named_and_nothing_is_created(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    await build(directory, {"n": 0})
    store = await opened(directory)
    try:
        with pytest.raises(CheckpointError) as caught:
            await store.read_artifact("files")
        assert caught.value.reason == "artifact_missing"
        assert str(caught.value) == (
            f"checkpoint directory {directory} has no artifact files"
        )
    finally:
        await store.close()
    assert not (directory / "artifacts").exists()


async def test_an_artifact_of_exactly_the_limit_reads_back(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    data = b"x" * 64
    await build(directory, {"n": 0}, artifacts={"files": data})
    store = await opened(directory, max_artifact_bytes=64)
    try:
        assert await store.read_artifact("files") == data
    finally:
        await store.close()


def truncated(data: bytes) -> bytes:
    return data[:30]


def other_magic(data: bytes) -> bytes:
    return b"NOTANART" + data[8:]


def other_version(data: bytes) -> bytes:
    return data[:8] + (99).to_bytes(4, "big") + data[12:]


def other_length(data: bytes) -> bytes:
    return data + b"x"


def flipped(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 0xFF])


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (truncated, "artifact: corrupt checkpoint"),
        (other_magic, "artifact: corrupt checkpoint"),
        (
            other_version,
            "artifact: written in another checkpoint format version"
            " (this ArtemisKit reads version 2)",
        ),
        (other_length, "artifact: corrupt checkpoint"),
        (flipped, "artifact: corrupt checkpoint"),
    ],
)
async def test_a_damaged_artifact_says_which_part(
    checkpoint: Path, damage: Any, message: str
) -> None:
    path = checkpoint / "artifacts" / "files"
    path.write_bytes(damage(path.read_bytes()))
    store = await opened(checkpoint)
    try:
        with pytest.raises(CheckpointError) as caught:
            await store.read_artifact("files")
        assert str(caught.value) == message
    finally:
        await store.close()


async def test_an_artifact_over_the_read_limit_names_the_directory(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint, max_artifact_bytes=1)
    try:
        with pytest.raises(CheckpointError) as caught:
            await store.read_artifact("files")
        assert str(checkpoint) in str(caught.value)
    finally:
        await store.close()


async def test_an_oversize_write_names_the_part_and_the_limit(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    store = LocalCheckpointStore(
        directory, limits=CheckpointLimits(max_artifact_bytes=8)
    )
    await store.open(mode="create")
    try:
        with pytest.raises(CheckpointError) as caught:
            await store.write_artifact("files", b"x" * 9)
        assert caught.value.reason == "checkpoint_too_large"
        assert str(caught.value) == (
            f"the artifact files for checkpoint directory {directory} is over its "
            "size limit"
        )
    finally:
        await store.close()


async def test_a_journal_changed_behind_the_store_is_named(checkpoint: Path) -> None:
    store = await opened(checkpoint)
    try:
        with (checkpoint / "journal.ckpt").open("ab") as journal:
            journal.write(b"tail")
        with pytest.raises(CheckpointError) as caught:
            await store.append({"n": 2})
        assert str(caught.value) == (
            f"the journal in {checkpoint} was changed by something else"
        )
    finally:
        await store.close()


async def test_repr_shows_the_state_not_the_contents(checkpoint: Path) -> None:
    store = LocalCheckpointStore(checkpoint)
    assert repr(store) == f"<LocalCheckpointStore {str(checkpoint)!r} closed>"
    await store.open(mode="resume")
    try:
        assert repr(store) == f"<LocalCheckpointStore {str(checkpoint)!r} open>"
    finally:
        await store.close()


async def test_a_journal_cut_back_behind_the_store_is_refused(
    checkpoint: Path,
) -> None:
    journal = checkpoint / "journal.ckpt"
    store = await opened(checkpoint)
    try:
        before = journal.stat().st_size
        await store.append({"n": 2})
        os.truncate(journal, before)  # a clean journal, one entry short
        with pytest.raises(CheckpointError) as caught:
            await store.load()
        assert str(caught.value) == (
            f"the journal in {checkpoint} was changed by something else"
        )
    finally:
        await store.close()


async def test_loading_before_any_snapshot_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    try:
        with pytest.raises(CheckpointError) as caught:
            await store.load()
        assert caught.value.reason == "checkpoint_missing"
        assert str(caught.value) == f"no checkpoint in {directory}"
    finally:
        await store.close()


async def test_an_artifact_of_exactly_the_write_limit_is_accepted(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    store = LocalCheckpointStore(
        directory, limits=CheckpointLimits(max_artifact_bytes=8)
    )
    await store.open(mode="create")
    try:
        await store.write_artifact("files", b"x" * 8)
        assert await store.read_artifact("files") == b"x" * 8
    finally:
        await store.close()


@pytest.mark.parametrize("target", ["artifacts", "artifacts/files"])
async def test_refusals_inside_the_checkpoint_name_the_place(
    checkpoint: Path, target: str
) -> None:
    (checkpoint / target).chmod(0o755 if target == "artifacts" else 0o644)
    store = await opened(checkpoint)
    try:
        with pytest.raises(CheckpointError) as caught:
            await store.read_artifact("files")
        assert str(checkpoint) in str(caught.value)
        if target == "artifacts":
            assert f"{checkpoint}/artifacts" in str(caught.value)
    finally:
        await store.close()


async def sizes_of(tmp_path: Path, entry: dict[str, Any]) -> tuple[int, int]:
    """The snapshot file size and the journal growth of one ``entry``."""
    directory = tmp_path / "measure"
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    try:
        await store.commit_snapshot({"n": 0})
        before = (directory / "journal.ckpt").stat().st_size
        await store.append(entry)
        after = (directory / "journal.ckpt").stat().st_size
    finally:
        await store.close()
    return (directory / "snapshot.ckpt").stat().st_size, after - before


async def test_every_size_limit_admits_exactly_its_bound(tmp_path: Path) -> None:
    entry = {"note": "x" * 100}
    snapshot_size, frame_size = await sizes_of(tmp_path, entry)
    header = (tmp_path / "measure" / "journal.ckpt").stat().st_size - frame_size
    body_size = len(json.dumps(entry, separators=(",", ":")).encode())
    directory = tmp_path / "exact"
    store = LocalCheckpointStore(
        directory,
        limits=CheckpointLimits(
            max_snapshot_bytes=snapshot_size,
            max_entry_bytes=body_size,
            max_journal_bytes=header + frame_size,
        ),
    )
    await store.open(mode="create")
    try:
        await store.commit_snapshot({"n": 0})
        await store.append(entry)
        with pytest.raises(CheckpointError) as full:
            await store.append(entry)
        assert full.value.reason == "checkpoint_too_large"
        assert str(full.value) == (
            f"the journal in {directory} is full; commit a snapshot to compact"
        )
    finally:
        await store.close()


async def test_an_entry_or_snapshot_over_its_bound_says_which(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    store = LocalCheckpointStore(
        directory, limits=CheckpointLimits(max_snapshot_bytes=600, max_entry_bytes=10)
    )
    await store.open(mode="create")
    try:
        with pytest.raises(CheckpointError) as snapshot:
            await store.commit_snapshot({"big": "x" * 1000})
        assert str(snapshot.value) == (
            f"the snapshot for checkpoint directory {directory} is over its size limit"
        )
        await store.commit_snapshot({"n": 0})
        with pytest.raises(CheckpointError) as entry:
            await store.append({"big": "x" * 20})
        assert str(entry.value) == (
            f"a journal entry for {directory} is over its size limit"
        )
    finally:
        await store.close()


async def test_append_before_any_snapshot_is_a_usage_error(tmp_path: Path) -> None:
    store = LocalCheckpointStore(tmp_path / "ckpt")
    await store.open(mode="create")
    try:
        with pytest.raises(
            SessionStateError, match=r"^append needs a committed snapshot first$"
        ):
            await store.append({"n": 1})
    finally:
        await store.close()


async def test_resuming_an_empty_directory_says_there_is_no_checkpoint(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    directory.mkdir(mode=0o700)
    with pytest.raises(CheckpointError) as caught:
        await opened(directory)
    assert caught.value.reason == "checkpoint_missing"
    assert str(caught.value) == f"no checkpoint in {directory}"


async def test_a_missing_journal_after_a_second_snapshot_is_corrupt(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    try:
        await store.commit_snapshot({"n": 0})
        await store.commit_snapshot({"n": 1})
    finally:
        await store.close()
    (directory / "journal.ckpt").unlink()
    with pytest.raises(CheckpointError) as caught:
        await opened(directory)
    assert caught.value.reason == "corrupt_checkpoint"
    assert str(caught.value) == f"the journal in {directory} is missing"


async def test_after_a_failed_write_every_write_is_refused(checkpoint: Path) -> None:
    store = await opened(checkpoint)
    try:
        with (checkpoint / "journal.ckpt").open("ab") as journal:
            journal.write(b"tail")
        with pytest.raises(CheckpointError):
            await store.append({"n": 2})
        for write in (
            store.append({"n": 3}),
            store.commit_snapshot({"n": 3}),
            store.write_artifact("other", b"x"),
            store.begin_recovery(),
        ):
            with pytest.raises(FileAccessError, match="an earlier write"):
                await write
    finally:
        await store.close()


def rewritten_header(data: bytes, **changes: Any) -> bytes:
    line, _, payload = data.partition(b"\n")
    header = {**json.loads(line), **changes}
    text = json.dumps(header, separators=(",", ":"), sort_keys=True).encode()
    return text + b"\n" + payload


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: b"x" * len(d), "snapshot: corrupt checkpoint"),
        (lambda d: b"\n" + d, "snapshot: corrupt checkpoint"),
        (lambda d: rewritten_header(d, generation=0), "snapshot: corrupt checkpoint"),
        (lambda d: rewritten_header(d, length="12"), "snapshot: corrupt checkpoint"),
        (lambda d: rewritten_header(d, extra=1), "snapshot: corrupt checkpoint"),
        (lambda d: rewritten_header(d, sha256=1), "snapshot: corrupt checkpoint"),
        (lambda d: d.replace(b",", b", ", 1), "snapshot: corrupt checkpoint"),
        (
            lambda d: rewritten_header(d, version=99),
            "snapshot: written in another checkpoint format version"
            " (this ArtemisKit reads version 2)",
        ),
    ],
)
async def test_a_damaged_snapshot_says_so(
    checkpoint: Path, damage: Any, message: str
) -> None:
    path = checkpoint / "snapshot.ckpt"
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(CheckpointError) as caught:
        await opened(checkpoint)
    assert str(caught.value) == message


async def test_a_damaged_journal_says_which_part(checkpoint: Path) -> None:
    path = checkpoint / "journal.ckpt"
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 0xFF]))
    with pytest.raises(CheckpointError) as entry:
        await opened(checkpoint)
    assert str(entry.value) == "journal entry 0: corrupt checkpoint"
    path.write_bytes(bytes([data[0] ^ 0xFF]) + data[1:])
    with pytest.raises(CheckpointError) as header:
        await opened(checkpoint)
    assert str(header.value) == "journal: corrupt checkpoint"


async def test_non_ascii_payloads_round_trip(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    await build(directory, {"title": "Rückerstattung ✓"}, [{"note": "日本"}])
    store = await opened(directory)
    try:
        loaded = await store.load()
    finally:
        await store.close()
    assert loaded.snapshot == {"title": "Rückerstattung ✓"}
    assert loaded.entries == ({"note": "日本"},)


@pytest.mark.parametrize(
    ("name", "limits"),
    [
        ("snapshot.ckpt", {"max_snapshot_bytes": 32}),
        ("journal.ckpt", {"max_journal_bytes": 90}),
    ],
)
async def test_a_file_over_its_limit_on_resume_names_it_and_the_directory(
    checkpoint: Path, name: str, limits: dict[str, int]
) -> None:
    with pytest.raises(CheckpointError) as caught:
        await opened(checkpoint, **limits)
    assert (caught.value.reason, str(caught.value)) == (
        "checkpoint_too_large",
        f"{name} in checkpoint directory {checkpoint} is over its size limit",
    )


async def test_a_snapshot_removed_behind_the_open_store_is_missing(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint)
    try:
        (checkpoint / "snapshot.ckpt").unlink()
        with pytest.raises(CheckpointError) as caught:
            await store.load()
    finally:
        await store.close()
    assert (caught.value.reason, str(caught.value)) == (
        "checkpoint_missing",
        f"no checkpoint in {checkpoint}",
    )


async def test_a_journal_of_another_checkpoint_swapped_in_is_refused(
    checkpoint: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    await build(other, {"n": 0}, [{"n": 1}], artifacts={"files": b"abc"})
    foreign = (other / "journal.ckpt").read_bytes()
    assert len(foreign) == (checkpoint / "journal.ckpt").stat().st_size
    store = await opened(checkpoint)
    try:
        (checkpoint / "journal.ckpt").write_bytes(foreign)
        with pytest.raises(CheckpointError) as caught:
            await store.load()
    finally:
        await store.close()
    assert (caught.value.reason, str(caught.value)) == (
        "corrupt_checkpoint",
        f"the journal in {checkpoint} was changed by something else",
    )


async def test_a_store_that_is_not_open_says_so(checkpoint: Path) -> None:
    store = LocalCheckpointStore(checkpoint)
    for call in (store.load(), store.append({"n": 2}), store.read_artifact("files")):
        with pytest.raises(SessionStateError) as caught:
            await call
        assert str(caught.value) == "the checkpoint store is not open"


async def test_a_journal_made_unsafe_behind_the_store_is_named(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint)
    try:
        (checkpoint / "journal.ckpt").chmod(0o644)
        with pytest.raises(CheckpointError) as caught:
            await store.append({"n": 2})
    finally:
        await store.close()
    assert str(checkpoint) in str(caught.value)
    assert "journal.ckpt" in str(caught.value)


async def test_opening_refusals_say_what_to_do(checkpoint: Path) -> None:
    store = LocalCheckpointStore(checkpoint)
    with pytest.raises(CheckpointError) as exists:
        await store.open(mode="create")
    assert str(exists.value) == (
        f"checkpoint directory {checkpoint} already holds a checkpoint; resume it, "
        "or choose a new directory for a fresh run"
    )
    store = await opened(checkpoint)
    await store.begin_recovery()
    await store.close()
    with pytest.raises(CheckpointError) as guarded:
        await opened(checkpoint)
    assert str(guarded.value) == (
        f"checkpoint directory {checkpoint} holds a recovery guard: an earlier "
        "resume stopped in the middle of recovering. Inspect the checkpoint and "
        f"what the run may have changed, then delete {checkpoint}/recovery.guard "
        "deliberately to allow another resume"
    )


async def test_a_directory_opened_up_behind_the_store_is_named(
    checkpoint: Path,
) -> None:
    store = await opened(checkpoint)
    try:
        os.chmod(checkpoint, 0o755)
        with pytest.raises(CheckpointError) as caught:
            await store.load()
    finally:
        os.chmod(checkpoint, 0o700)
        await store.close()
    assert str(checkpoint) in str(caught.value)


async def test_opening_twice_or_in_an_unknown_mode_is_a_usage_error(
    checkpoint: Path,
) -> None:
    store = LocalCheckpointStore(checkpoint)
    with pytest.raises(ValueError, match=r"^mode must be 'create' or 'resume'$"):
        await store.open(mode="append")  # type: ignore[arg-type]
    await store.open(mode="resume")
    try:
        with pytest.raises(
            SessionStateError, match=r"^the checkpoint store is already open$"
        ):
            await store.open(mode="resume")
    finally:
        await store.close()


async def test_a_dangling_link_in_place_of_the_snapshot_is_refused_as_unsafe(
    checkpoint: Path,
) -> None:
    snapshot = checkpoint / "snapshot.ckpt"
    os.unlink(snapshot)
    os.symlink(checkpoint / "nowhere", snapshot)
    with pytest.raises(CheckpointError) as caught:
        await opened(checkpoint)
    assert (caught.value.reason, str(caught.value)) == (
        "unsafe_link",
        f"snapshot.ckpt in checkpoint directory {checkpoint} is a symbolic link",
    )
