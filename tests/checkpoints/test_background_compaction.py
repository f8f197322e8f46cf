"""A compaction written in the background, and SIGKILL in each of its windows.

A local store writes a `Compaction` snapshot to a temporary file from a worker
thread while appends go on; the first synced append after the write renames it
into place and switches to a journal of the entries appended since. Killed while
the snapshot is written, the checkpoint is the previous snapshot and its whole
journal; killed after the rename and before the switch, it is the new snapshot,
and the entries after its cut are carried over from its parent's journal; never
a lost acknowledged entry, never one applied twice.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from artemiskit._common._converter import CONVERTER
from artemiskit._errors import CheckpointError, FileAccessError
from artemiskit.checkpoints import LocalCheckpointStore, _envelope as envelope, _local
from artemiskit.checkpoints._store import Compaction
from artemiskit.engine import _checkpointing
from artemiskit.engine._checkpointing import CheckpointBinding, CheckpointMeta
from artemiskit.engine._state import SessionState
from artemiskit.targets._protocol import Message
from tests._runs import ReplayTarget, calling

from ._helpers import refusal, resume_and_load, run
from ._processes import Running
from .test_refusal_reasons import READ, WRITE, attempt

#: ``python -c CHILD DIRECTORY STOP``: a snapshot, three entries, a compaction
#: holding them, two more entries; then it blocks until killed. ``STOP`` says
#: where: ``writing`` (the background write half done and stuck), ``renamed``
#: (the new snapshot in place, the journal not yet switched) or ``switched``.
CHILD = """\
import os, sys, time
import anyio
from artemiskit.checkpoints import LocalCheckpointStore, _journal_file, _local
from artemiskit.checkpoints._store import Compaction

directory, stop = sys.argv[1], sys.argv[2]

def halt(label):
    sys.stderr.write(label + "\\n")
    sys.stderr.flush()
    time.sleep(600)

def half_written(self, dir_fd, data, where):
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    fd = os.open(self.temporary, flags, 0o600, dir_fd=dir_fd)
    os.write(fd, data[: len(data) // 2])
    halt("writing")

if stop == "writing":
    _local._PendingSnapshot._write = half_written
if stop == "renamed":
    _journal_file.Journal.switch = lambda self, generation, digest: halt("renamed")

async def main():
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    await store.commit_snapshot({"n": 0})
    for k in (1, 2, 3):
        await store.append({"k": k})
    await store.commit_snapshot(Compaction(b'{"n":3}'))
    if stop != "writing":
        store._session.pending.thread.join()
    for k in (4, 5):
        await store.append({"k": k})
    halt("appended")

anyio.run(main)
"""


#: The bytes of each entry ``{"k": 1..9}`` in a journal.
ENTRY = envelope.FRAME_OVERHEAD + len(b'{"k":1}')


def killed_at(tmp_path: Path, stop: str) -> Path:
    """The checkpoint directory a child left when SIGKILLed at ``stop``."""
    directory = tmp_path / "checkpoint"
    running = Running([sys.executable, "-c", CHILD, str(directory), stop], cwd=tmp_path)
    try:
        for label in {"writing": ("writing", "appended"), "renamed": ("renamed",)}.get(
            stop, ("appended",)
        ):
            running.wait_for(label)
    finally:
        running.process.send_signal(signal.SIGKILL)
    assert running.finish().code == -signal.SIGKILL
    return directory


@contextlib.asynccontextmanager
async def created(directory: Path) -> AsyncIterator[LocalCheckpointStore]:
    """A new local checkpoint in ``directory``, open for the block."""
    store = LocalCheckpointStore(directory)
    await store.open(mode="create")
    try:
        yield store
    finally:
        await store.close()


def compaction(payload: dict[str, Any]) -> Compaction:
    return Compaction(envelope.canonical_json(payload))


def header(directory: Path) -> dict[str, Any]:
    data = (directory / "snapshot.ckpt").read_bytes()
    decoded: dict[str, Any] = json.loads(data[: data.index(b"\n")])
    return decoded


def test_killed_while_the_snapshot_is_written_keeps_the_previous_one(
    tmp_path: Path,
) -> None:
    directory = killed_at(tmp_path, "writing")
    assert [p.name for p in directory.iterdir() if p.name.endswith(".tmp")]
    loaded = run(resume_and_load, directory)
    assert loaded.snapshot == {"n": 0}
    assert loaded.entries == tuple({"k": k} for k in (1, 2, 3, 4, 5))
    assert not [p for p in directory.iterdir() if p.name.endswith(".tmp")]


def test_killed_between_the_rename_and_the_switch_carries_entries_over(
    tmp_path: Path,
) -> None:
    directory = killed_at(tmp_path, "renamed")
    assert header(directory)["covers"] == [3, envelope.JOURNAL_HEADER_SIZE + 3 * ENTRY]
    loaded = run(resume_and_load, directory)
    assert (loaded.snapshot, loaded.entries, loaded.torn_tail) == (
        {"n": 3},
        ({"k": 4},),
        False,
    )
    again = run(resume_and_load, directory)  # the journal was switched for good
    assert (again.snapshot, again.entries) == ({"n": 3}, ({"k": 4},))


def test_killed_after_the_switch_keeps_the_new_snapshot_and_its_journal(
    tmp_path: Path,
) -> None:
    directory = killed_at(tmp_path, "switched")
    loaded = run(resume_and_load, directory)
    assert loaded.snapshot == {"n": 3}
    assert loaded.entries == ({"k": 4}, {"k": 5})


def test_a_torn_entry_of_the_parent_journal_is_cut_when_carried_over(
    tmp_path: Path,
) -> None:
    directory = killed_at(tmp_path, "renamed")
    with (directory / "journal.ckpt").open("ab") as journal:
        journal.write(envelope.encode_frame(4, b'{"k":5}')[:30])
    loaded = run(resume_and_load, directory)
    assert (loaded.entries, loaded.torn_tail) == (({"k": 4},), True)


def test_a_parent_journal_shorter_than_the_cut_is_refused_as_corrupt(
    tmp_path: Path,
) -> None:
    directory = killed_at(tmp_path, "renamed")
    os.truncate(directory / "journal.ckpt", envelope.JOURNAL_HEADER_SIZE + ENTRY)
    exc = run(refusal, resume_and_load(directory))
    assert exc.reason == "corrupt_checkpoint"
    assert "lacks entries its snapshot holds" in str(exc)


@pytest.mark.parametrize(
    "covers", [[-1, 84], [1], [1, 83], [1, "84"], "1,84", [True, 84], None]
)
def test_a_malformed_cut_in_a_snapshot_header_is_corrupt(covers: Any) -> None:
    data, _ = envelope.encode_snapshot(b"{}", 2, parent="a" * 64, covers=(1, 84))
    head, payload = data.split(b"\n", 1)
    fields = json.loads(head)
    fields["covers"] = covers
    forged = envelope.canonical_json(fields) + b"\n" + payload
    with pytest.raises(CheckpointError) as caught:
        envelope.decode_snapshot(forged)
    assert caught.value.reason == "corrupt_checkpoint"


def test_a_cut_is_signed_with_the_snapshot() -> None:
    data, digest = envelope.encode_snapshot(b"{}", 2, parent="a" * 64, covers=(1, 84))
    decoded = envelope.decode_snapshot(data)
    assert (decoded.covers, decoded.digest) == ((1, 84), digest)
    forged = data.replace(b'"covers":[1,84]', b'"covers":[2,84]')
    with pytest.raises(CheckpointError) as caught:
        envelope.decode_snapshot(forged)
    assert caught.value.reason == "corrupt_checkpoint"


async def test_a_compaction_before_any_snapshot_is_a_plain_commit(
    tmp_path: Path,
) -> None:
    async with created(tmp_path / "ckpt") as store:
        await store.commit_snapshot(compaction({"n": 1}))
        await store.append({"k": 1})
        loaded = await store.load()
    assert (loaded.snapshot, loaded.entries) == ({"n": 1}, ({"k": 1},))


async def test_a_final_snapshot_supersedes_a_compaction_in_the_background(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "ckpt"
    async with created(directory) as store:
        await store.commit_snapshot({"n": 0})
        await store.append({"k": 1})
        await store.commit_snapshot(compaction({"n": 1}))
        await store.commit_snapshot({"n": "final"})
    loaded = await resume_and_load(directory)
    assert (loaded.snapshot, loaded.entries) == ({"n": "final"}, ())
    assert "covers" not in header(directory)
    assert not [p for p in directory.iterdir() if p.name.endswith(".tmp")]


async def test_compactions_one_after_another_keep_every_entry(tmp_path: Path) -> None:
    directory = tmp_path / "ckpt"
    async with created(directory) as store:
        await store.commit_snapshot({"n": 0})
        for k in range(1, 31):
            await store.append({"k": k})
            if k % 3 == 0:
                await store.commit_snapshot(compaction({"n": k}))
        loaded = await store.load()
    n = loaded.snapshot["n"]
    assert loaded.entries == tuple({"k": k} for k in range(n + 1, 31))
    assert header(directory)["generation"] > 2
    reloaded = await resume_and_load(directory)
    assert (reloaded.snapshot, reloaded.entries) == (loaded.snapshot, loaded.entries)


def full_payload(state: SessionState, meta: CheckpointMeta) -> bytes:
    """The snapshot payload encoded whole, as a synchronous snapshot is."""
    return envelope.canonical_json(
        {"meta": CONVERTER.unstructure(meta), "state": CONVERTER.unstructure(state)}
    )


async def test_a_run_compacting_at_every_commit_pauses_resumes_and_splices_right(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spliced = _checkpointing._EncodedConversation.payload
    checked: list[int] = []

    def checking(self: Any, state: SessionState, meta: CheckpointMeta) -> bytes:
        encoded = spliced(self, state, meta)
        assert encoded == full_payload(state, meta)
        checked.append(len(state.conversation))
        return encoded

    monkeypatch.setattr(_checkpointing._EncodedConversation, "payload", checking)
    monkeypatch.setattr(_checkpointing, "COMPACT_MIN_BYTES", 1)
    monkeypatch.setattr(_checkpointing, "COMPACT_RATIO", 0)
    directory = tmp_path / "ckpt"
    first = await attempt(
        directory, "create", ReplayTarget([calling(READ)]), pause_after_actions=1
    )
    second = await attempt(
        directory, "resume", ReplayTarget([calling(WRITE)]), pause_after_actions=2
    )
    third = await attempt(directory, "resume", ReplayTarget([]))
    assert (first.exit_code, second.exit_code, third.exit_code) == (10, 10, 0)
    assert third.record.recovery.attempt_number == 3
    assert header(directory)["generation"] > 4  # compacted in the background
    assert len(checked) >= 2
    assert max(checked) > min(checked)  # messages encoded in earlier steps


def test_a_conversation_holding_the_marker_is_encoded_whole() -> None:
    encoded = _checkpointing._EncodedConversation()
    marker = encoded._marker
    state = SessionState(
        conversation=(Message(role="user", content=marker),),
        final_response=marker,
    )
    binding = CheckpointBinding(
        workflow_digest="w",
        catalogue_digest="c",
        policy_digest="p",
        harness=_checkpointing.HARNESS,
        configuration_id=None,
        preflight="off",
    )
    meta = CheckpointMeta(
        run_id="r",
        attempt_id="a",
        attempt_number=1,
        resumed_from_attempt=None,
        status="active",
        deadline_epoch_ms=2,
        last_observed_epoch_ms=1,
        environment_kind="simulated",
        environment_saved=False,
        environment_digest=None,
        binding=binding,
    )
    assert encoded.payload(state, meta) == full_payload(state, meta)
    moved = attrs.evolve(state, final_response=None)
    assert encoded.payload(moved, meta) == full_payload(moved, meta)


async def test_a_failed_background_write_fails_the_store_at_the_switch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(dir_fd: int, name: str, data: bytes, *, where: str) -> None:
        raise FileAccessError(f"could not write {name} in {where}: No space left")

    directory = tmp_path / "ckpt"
    async with created(directory) as store:
        await store.commit_snapshot({"n": 0})
        await store.append({"k": 1})
        monkeypatch.setattr(_local, "create_exclusive", failing)
        await store.commit_snapshot(compaction({"n": 1}))
        monkeypatch.undo()
        assert store._session is not None
        pending = store._session.pending
        assert pending is not None
        pending.thread.join()
        await store.append_buffered({"k": 2})  # not synced: no switch yet
        with pytest.raises(FileAccessError, match="No space left"):
            await store.append({"k": 3})
        with pytest.raises(FileAccessError, match="an earlier write"):
            await store.append({"k": 4})
    loaded = await resume_and_load(directory)
    assert loaded.snapshot == {"n": 0}
    assert loaded.entries == ({"k": 1}, {"k": 2}, {"k": 3})
