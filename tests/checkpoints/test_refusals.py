"""Unsafe, damaged or oversized checkpoints on disk are refused, with real files."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from artemiskit._errors import CheckpointError, FileAccessError, SessionStateError
from artemiskit.checkpoints import CheckpointLimits, LocalCheckpointStore
from artemiskit.checkpoints._envelope import JOURNAL_HEADER_SIZE

from ._helpers import FOREIGN_UID, build, flip_byte, refusal, resume_and_load

ENTRIES = [{"step": n, "message": "m" * 2000} for n in range(3)]


@pytest.fixture
async def checkpoint(tmp_path: Path) -> Path:
    directory = tmp_path / "checkpoint"
    await build(directory, {"state": "ready"}, ENTRIES, artifacts={"sandbox": b"files"})
    return directory


async def refused_on_resume(directory: Path, reason: str) -> CheckpointError:
    store = LocalCheckpointStore(directory)
    exc = await refusal(store.open(mode="resume"))
    assert exc.reason == reason, exc
    assert exc.exit_code == 2
    assert store.__repr__().endswith("closed>")
    return exc


async def test_new_directory_and_files_are_private(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        await build(tmp_path / "c", {"s": 1}, [{"e": 1}], artifacts={"a": b"x"})
    finally:
        os.umask(old)
    for path in [tmp_path / "c", tmp_path / "c" / "artifacts"]:
        assert path.stat().st_mode & 0o7777 == 0o700
    files = ["snapshot.ckpt", "journal.ckpt", "artifacts/a"]
    for name in files:
        assert (tmp_path / "c" / name).stat().st_mode & 0o7777 == 0o600
    assert sorted(os.listdir(tmp_path / "c")) == [
        "artifacts",
        "journal.ckpt",
        "snapshot.ckpt",
    ]


async def test_symlinked_directory_is_refused(checkpoint: Path) -> None:
    link = checkpoint.with_name("link")
    link.symlink_to(checkpoint)
    exc = await refused_on_resume(link, "unsafe_link")
    assert str(link) in str(exc)
    create = await refusal(LocalCheckpointStore(link).open(mode="create"))
    assert create.reason == "unsafe_link"


@pytest.mark.parametrize("name", ["snapshot.ckpt", "journal.ckpt"])
async def test_symlinked_file_is_refused(checkpoint: Path, name: str) -> None:
    real = checkpoint.with_name(f"elsewhere-{name}")
    shutil.move(checkpoint / name, real)
    (checkpoint / name).symlink_to(real)
    await refused_on_resume(checkpoint, "unsafe_link")


async def test_hard_linked_snapshot_is_refused(checkpoint: Path) -> None:
    os.link(checkpoint / "snapshot.ckpt", checkpoint.with_name("copy"))
    await refused_on_resume(checkpoint, "unsafe_link")


async def test_symlinked_artifact_is_refused(checkpoint: Path) -> None:
    artifact = checkpoint / "artifacts" / "sandbox"
    shutil.move(artifact, checkpoint.with_name("blob"))
    artifact.symlink_to(checkpoint.with_name("blob"))
    store = LocalCheckpointStore(checkpoint)
    await store.open(mode="resume")
    try:
        exc = await refusal(store.read_artifact("sandbox"))
    finally:
        await store.close()
    assert exc.reason == "unsafe_link"


@pytest.mark.parametrize("mode", [0o755, 0o750, 0o701, 0o500])
async def test_directory_with_other_mode_is_refused(
    checkpoint: Path, mode: int
) -> None:
    os.chmod(checkpoint, mode)
    exc = await refused_on_resume(checkpoint, "unsafe_permissions")
    assert "0700" in str(exc)
    create = await refusal(LocalCheckpointStore(checkpoint).open(mode="create"))
    assert create.reason == "unsafe_permissions"


@pytest.mark.parametrize("name", ["snapshot.ckpt", "journal.ckpt"])
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o400, 0o700])
async def test_file_with_other_mode_is_refused(
    checkpoint: Path, name: str, mode: int
) -> None:
    (checkpoint / name).chmod(mode)
    await refused_on_resume(checkpoint, "unsafe_permissions")


async def test_artifact_with_other_mode_is_refused(checkpoint: Path) -> None:
    (checkpoint / "artifacts" / "sandbox").chmod(0o644)
    store = LocalCheckpointStore(checkpoint)
    await store.open(mode="resume")
    try:
        exc = await refusal(store.read_artifact("sandbox"))
        assert exc.reason == "unsafe_permissions"
        (checkpoint / "artifacts").chmod(0o755)
        exc = await refusal(store.read_artifact("sandbox"))
        assert exc.reason == "unsafe_permissions"
    finally:
        await store.close()


async def test_foreign_directory_is_refused(checkpoint: Path) -> None:
    os.chown(checkpoint, FOREIGN_UID, -1)
    await refused_on_resume(checkpoint, "foreign_owner")


@pytest.mark.parametrize("name", ["snapshot.ckpt", "journal.ckpt"])
async def test_foreign_file_is_refused(checkpoint: Path, name: str) -> None:
    os.chown(checkpoint / name, FOREIGN_UID, -1)
    await refused_on_resume(checkpoint, "foreign_owner")


async def test_not_a_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_bytes(b"")
    for mode in ("create", "resume"):
        store = LocalCheckpointStore(tmp_path / "file")
        exc = await refusal(store.open(mode=mode))
        assert exc.reason == "not_a_directory"


async def test_missing_parent_is_a_file_error(tmp_path: Path) -> None:
    store = LocalCheckpointStore(tmp_path / "absent" / "checkpoint")
    with pytest.raises(FileAccessError) as info:
        await store.open(mode="create")
    assert info.value.exit_code == 1


@pytest.mark.parametrize("offset", [10, 60, -5, -1])
async def test_corrupt_snapshot_byte_is_refused(checkpoint: Path, offset: int) -> None:
    flip_byte(checkpoint / "snapshot.ckpt", offset)
    exc = await refused_on_resume(checkpoint, "corrupt_checkpoint")
    assert "ready" not in str(exc)


@pytest.mark.parametrize("keep", [0, 1, 40, -1])
async def test_truncated_snapshot_is_refused(checkpoint: Path, keep: int) -> None:
    path = checkpoint / "snapshot.ckpt"
    path.write_bytes(path.read_bytes()[:keep])
    await refused_on_resume(checkpoint, "corrupt_checkpoint")


def frame_offsets(journal: Path) -> list[int]:
    """Start offsets of each frame in a journal written from ENTRIES."""
    data = journal.read_bytes()
    offsets, cursor = [], JOURNAL_HEADER_SIZE
    while cursor < len(data):
        offsets.append(cursor)
        length = int.from_bytes(data[cursor + 12 : cursor + 16], "big")
        cursor += 56 + length
    return offsets


@pytest.mark.parametrize(
    "where", [0, 5, 13, 20, 50, 52, 56, 100], ids=lambda w: f"frame1+{w}"
)
async def test_corrupt_middle_journal_entry_is_refused(
    checkpoint: Path, where: int
) -> None:
    journal = checkpoint / "journal.ckpt"
    flip_byte(journal, frame_offsets(journal)[1] + where)
    exc = await refused_on_resume(checkpoint, "corrupt_checkpoint")
    assert "journal entry 1" in str(exc)


async def test_corrupt_final_complete_entry_is_refused(checkpoint: Path) -> None:
    flip_byte(checkpoint / "journal.ckpt", -1)
    await refused_on_resume(checkpoint, "corrupt_checkpoint")


async def test_corrupt_journal_header_is_refused(checkpoint: Path) -> None:
    flip_byte(checkpoint / "journal.ckpt", 30)
    await refused_on_resume(checkpoint, "corrupt_checkpoint")


async def test_reordered_entries_are_refused(checkpoint: Path) -> None:
    journal = checkpoint / "journal.ckpt"
    data = journal.read_bytes()
    first, second, third = frame_offsets(journal)
    journal.write_bytes(
        data[:first] + data[second:third] + data[first:second] + data[third:]
    )
    await refused_on_resume(checkpoint, "corrupt_checkpoint")


@pytest.mark.parametrize("cut", [1, 100, 2000, 2040], ids=lambda c: f"cut{c}")
async def test_torn_final_entry_is_dropped_and_reported(
    checkpoint: Path, cut: int
) -> None:
    journal = checkpoint / "journal.ckpt"
    data = journal.read_bytes()
    last = frame_offsets(journal)[-1]
    assert len(data) - last > cut  # the cut stays inside the final frame
    journal.write_bytes(data[: len(data) - cut])
    store = LocalCheckpointStore(checkpoint)
    await store.open(mode="resume")
    try:
        loaded = await store.load()
        assert loaded.torn_tail is True
        assert loaded.entries == tuple(ENTRIES[:2])
        assert journal.stat().st_size == last  # the torn bytes are cut off
        await store.append({"step": "after"})
    finally:
        await store.close()
    loaded = await resume_and_load(checkpoint)
    assert loaded.torn_tail is False
    assert loaded.entries == (*ENTRIES[:2], {"step": "after"})


async def test_unknown_snapshot_version_is_refused(checkpoint: Path) -> None:
    path = checkpoint / "snapshot.ckpt"
    header, _, payload = path.read_bytes().partition(b"\n")
    fields = json.loads(header) | {"version": 3}
    path.write_bytes(json.dumps(fields).encode() + b"\n" + payload)
    exc = await refused_on_resume(checkpoint, "unknown_checkpoint_version")
    assert "version" in str(exc)


async def test_unknown_journal_version_is_refused(checkpoint: Path) -> None:
    path = checkpoint / "journal.ckpt"
    data = bytearray(path.read_bytes())
    data[8:12] = (3).to_bytes(4, "big")
    path.write_bytes(bytes(data))
    await refused_on_resume(checkpoint, "unknown_checkpoint_version")


async def test_unknown_artifact_version_is_refused(checkpoint: Path) -> None:
    path = checkpoint / "artifacts" / "sandbox"
    data = bytearray(path.read_bytes())
    data[8:12] = (9).to_bytes(4, "big")
    path.write_bytes(bytes(data))
    flip_byte(checkpoint / "artifacts" / "sandbox", -1)
    store = LocalCheckpointStore(checkpoint)
    await store.open(mode="resume")
    try:
        exc = await refusal(store.read_artifact("sandbox"))
        assert exc.reason == "unknown_checkpoint_version"
    finally:
        await store.close()


async def test_corrupt_artifact_is_refused(checkpoint: Path) -> None:
    flip_byte(checkpoint / "artifacts" / "sandbox", -1)
    store = LocalCheckpointStore(checkpoint)
    await store.open(mode="resume")
    try:
        exc = await refusal(store.read_artifact("sandbox"))
        assert exc.reason == "corrupt_checkpoint"
    finally:
        await store.close()


async def test_oversize_snapshot_file_is_refused_before_reading(
    checkpoint: Path,
) -> None:
    os.truncate(checkpoint / "snapshot.ckpt", 64 * 1024 * 1024 + 1)  # sparse
    await refused_on_resume(checkpoint, "checkpoint_too_large")


async def test_oversize_files_are_refused_by_their_limits(checkpoint: Path) -> None:
    for limits in [
        CheckpointLimits(max_snapshot_bytes=64),
        CheckpointLimits(max_journal_bytes=1000),
        CheckpointLimits(max_entry_bytes=1000),
    ]:
        store = LocalCheckpointStore(checkpoint, limits=limits)
        exc = await refusal(store.open(mode="resume"))
        assert exc.reason == "checkpoint_too_large", limits
    store = LocalCheckpointStore(
        checkpoint, limits=CheckpointLimits(max_artifact_bytes=2)
    )
    await store.open(mode="resume")
    try:
        exc = await refusal(store.read_artifact("sandbox"))
        assert exc.reason == "checkpoint_too_large"
    finally:
        await store.close()


async def test_oversize_writes_are_refused_and_change_nothing(tmp_path: Path) -> None:
    limits = CheckpointLimits(
        max_snapshot_bytes=1000,
        max_entry_bytes=500,
        max_journal_bytes=700,
        max_artifact_bytes=10,
    )
    store = LocalCheckpointStore(tmp_path / "c", limits=limits)
    await store.open(mode="create")
    try:
        await store.commit_snapshot({"s": 1})
        await store.append({"e": "x" * 400})
        for operation in [
            store.commit_snapshot({"s": "x" * 1000}),
            store.append({"e": "x" * 500}),
            store.append({"e": "x" * 400}),  # the journal would pass 700 bytes
            store.write_artifact("a", b"x" * 11),
        ]:
            exc = await refusal(operation)
            assert exc.reason == "checkpoint_too_large"
        loaded = await store.load()
        assert (loaded.snapshot, loaded.entries) == ({"s": 1}, ({"e": "x" * 400},))
        await store.commit_snapshot({"s": 2})  # compaction makes room again
        await store.append({"e": "x" * 400})
    finally:
        await store.close()


async def test_payload_must_be_json(tmp_path: Path) -> None:
    store = LocalCheckpointStore(tmp_path / "c")
    await store.open(mode="create")
    try:
        with pytest.raises(TypeError):
            await store.commit_snapshot({"s": {1, 2}})
        with pytest.raises(ValueError, match="JSON"):
            await store.commit_snapshot({"s": float("nan")})
        await store.commit_snapshot({"s": 1})
        with pytest.raises(TypeError):
            await store.append({"e": object()})
        assert (await store.load()).entries == ()
    finally:
        await store.close()


async def test_journal_changed_behind_the_store_is_refused(checkpoint: Path) -> None:
    store = LocalCheckpointStore(checkpoint)
    await store.open(mode="resume")
    try:
        with (checkpoint / "journal.ckpt").open("ab") as file:
            file.write(b"junk")
        exc = await refusal(store.append({"n": 1}))
        assert exc.reason == "corrupt_checkpoint"
        with pytest.raises(FileAccessError, match="earlier write"):
            await store.append({"n": 2})
    finally:
        await store.close()


async def test_crash_between_snapshot_and_journal_reset(checkpoint: Path) -> None:
    """The previous generation's journal is superseded by the newer snapshot."""
    journal = checkpoint / "journal.ckpt"
    old_journal = journal.read_bytes()
    store = LocalCheckpointStore(checkpoint)
    await store.open(mode="resume")
    await store.commit_snapshot({"state": "compacted"})
    await store.close()
    journal.write_bytes(old_journal)  # as if the process died before the reset
    loaded = await resume_and_load(checkpoint)
    assert (loaded.snapshot, loaded.entries) == ({"state": "compacted"}, ())
    assert journal.read_bytes() != old_journal


async def test_journal_of_another_generation_is_refused(checkpoint: Path) -> None:
    journal = checkpoint / "journal.ckpt"
    first_journal = journal.read_bytes()
    for state in ("two", "three"):
        store = LocalCheckpointStore(checkpoint)
        await store.open(mode="resume")
        await store.commit_snapshot({"state": state})
        await store.close()
    journal.write_bytes(first_journal)  # two generations behind
    await refused_on_resume(checkpoint, "corrupt_checkpoint")
    journal.unlink()  # only a first snapshot may lack its journal
    await refused_on_resume(checkpoint, "corrupt_checkpoint")


async def test_first_snapshot_without_journal_resumes_empty(checkpoint: Path) -> None:
    (checkpoint / "journal.ckpt").unlink()
    loaded = await resume_and_load(checkpoint)
    assert (loaded.snapshot, loaded.entries) == ({"state": "ready"}, ())


async def test_stale_temporary_files_are_removed(checkpoint: Path) -> None:
    stale = checkpoint / ".snapshot.ckpt.0123456789abcdef.tmp"
    stale.write_bytes(b"half a snapshot")
    claim_attempt = checkpoint / ".claim.99999.0123456789abcdef.tmp"
    claim_attempt.write_bytes(b"")
    await resume_and_load(checkpoint)
    assert not stale.exists()
    assert claim_attempt.exists()


async def test_open_requires_a_known_mode(tmp_path: Path) -> None:
    store = LocalCheckpointStore(tmp_path / "c")
    with pytest.raises(ValueError, match="mode"):
        await store.open(mode="overwrite")  # type: ignore[arg-type]
    with pytest.raises(SessionStateError):
        await store.load()
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("name", ["journal.ckpt", "snapshot.ckpt"])
async def test_file_of_another_checkpoint_is_refused(
    checkpoint: Path, tmp_path: Path, name: str
) -> None:
    """Same generation, same shape: only the digest binding tells them apart."""
    other = tmp_path / "other"
    await build(other, {"state": "ready"}, ENTRIES[:1])
    (checkpoint / name).unlink()
    shutil.copy2(other / name, checkpoint / name)
    exc = await refused_on_resume(checkpoint, "corrupt_checkpoint")
    assert "another snapshot" in str(exc)


async def test_journal_of_a_parent_from_another_checkpoint_is_refused(
    checkpoint: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    await build(other, {"state": "ready"}, ENTRIES)
    store = LocalCheckpointStore(checkpoint)
    await store.open(mode="resume")
    await store.commit_snapshot({"state": "compacted"})
    await store.close()
    (checkpoint / "journal.ckpt").unlink()  # generation 1, but not this chain's
    shutil.copy2(other / "journal.ckpt", checkpoint / "journal.ckpt")
    await refused_on_resume(checkpoint, "corrupt_checkpoint")


async def test_fifo_artifact_is_refused(checkpoint: Path) -> None:
    artifact = checkpoint / "artifacts" / "sandbox"
    artifact.unlink()
    os.mkfifo(artifact, 0o600)
    store = LocalCheckpointStore(checkpoint)
    await store.open(mode="resume")
    try:
        exc = await refusal(store.read_artifact("sandbox"))
        assert exc.reason == "not_a_file"
    finally:
        await store.close()
