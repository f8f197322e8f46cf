"""`LocalCheckpointStore`: a checkpoint in a private local directory (POSIX only).

Layout of the directory (mode 0700; every file 0600, owned by the current user)::

    snapshot.ckpt      the last committed snapshot
    journal.ckpt       entries appended since, bound to the snapshot's generation
    artifacts/         named artifacts (mode 0700), one framed file each
    claim.lock         the exclusive process claim, while a store has it open
    recovery.guard     present while a recovery is in progress (or crashed)

A snapshot commit replaces ``snapshot.ckpt`` (naming the digest of the snapshot it
replaces, or a random origin for the first) and then starts an empty
``journal.ckpt`` bound to the new snapshot's generation and digest, each by temp
file + fsync + rename + directory fsync. A crash between the two leaves the previous
generation's journal, whose entries the new snapshot already contains: resuming
replaces it with an empty one if it names the new snapshot's parent. A journal
naming any other snapshot (for instance one copied from another checkpoint) is
refused as corrupt. Resuming also cuts a torn final entry off the journal (it was
never acknowledged) and reports it through `LoadedCheckpoint.torn_tail`.

A `Compaction` is written in the background instead: a worker thread writes and
syncs the new snapshot to a temporary file while appends go on to the current
journal; the first synced append after that write finished renames it into place
(it names the journal entries it holds, see ``covers`` in `_envelope`), syncs the
directory and switches to a journal holding the entries appended since. A crash
before the rename leaves the previous snapshot and its whole journal (the
temporary file is removed as stale); a crash between the rename and the switch
leaves the new snapshot with its parent's journal, whose entries after the cut a
resume carries over.

Nothing here deletes checkpoint data or sends it anywhere; only temporary files a
crashed writer left behind are removed once the claim is held.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread

from artemiskit._errors import CheckpointError, FileAccessError, SessionStateError
from artemiskit.checkpoints import _envelope as envelope
from artemiskit.checkpoints._claim import (
    CLAIM_TEMP_PREFIX,
    ProcessClaim,
    acquire_claim,
    current_identity,
    encode_identity,
)
from artemiskit.checkpoints._journal_file import Journal
from artemiskit.checkpoints._private_files import (
    TEMP_SUFFIX,
    create_exclusive,
    fsync_directory,
    open_directory,
    read_private_file,
    remove_stale_temporaries,
    verify_directory,
    write_atomically,
)
from artemiskit.checkpoints._store import (
    CheckpointLimits,
    Compaction,
    LoadedCheckpoint,
    OpenMode,
    check_artifact_name,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["LocalCheckpointStore"]

SNAPSHOT_NAME = "snapshot.ckpt"
ARTIFACTS_NAME = "artifacts"
GUARD_NAME = "recovery.guard"


class _PendingSnapshot:
    """A compaction snapshot a worker thread writes to a temporary file."""

    __slots__ = ("digest", "error", "generation", "temporary", "thread")

    def __init__(
        self, session: _Session, data: bytes, generation: int, digest: str, where: str
    ) -> None:
        self.generation = generation
        self.digest = digest
        self.temporary = f".{SNAPSHOT_NAME}.{secrets.token_hex(8)}{TEMP_SUFFIX}"
        self.error: BaseException | None = None
        self.thread = threading.Thread(
            target=self._write, args=(session.dir_fd, data, where), daemon=True
        )
        self.thread.start()

    def _write(self, dir_fd: int, data: bytes, where: str) -> None:
        try:
            create_exclusive(dir_fd, self.temporary, data, where=where)
        except BaseException as exc:  # raised again by the switch
            self.error = exc

    def discard(self, dir_fd: int) -> None:
        """Wait for the writer, then remove its file."""
        self.thread.join()
        with contextlib.suppress(OSError):
            os.unlink(self.temporary, dir_fd=dir_fd)


class _Session:
    """What an open store holds: the directory, the claim and the journal."""

    def __init__(self, dir_fd: int, claim: ProcessClaim, journal: Journal) -> None:
        self.dir_fd = dir_fd
        self.claim = claim
        self.journal = journal
        self.in_recovery = False
        self.failed = False
        self.pending: _PendingSnapshot | None = None

    def drop_pending(self) -> None:
        """Give up a compaction still in the background, if any."""
        pending, self.pending = self.pending, None
        if pending is not None:
            pending.discard(self.dir_fd)
            self.journal.drop_cut()

    @property
    def generation(self) -> int:
        """The committed snapshot's generation; 0 before the first commit."""
        return self.journal.generation


class LocalCheckpointStore:
    """A `CheckpointStore` in a private directory on a local POSIX file system.

    Needs Linux ``/proc`` for the process claim. The directory is created with mode
    0700 by ``open(mode="create")`` (its parent must exist) and is never deleted.

    Args:
        directory: The checkpoint directory.
        limits: Size bounds; the defaults suit the engine.
    """

    #: A `Compaction` passed to `commit_snapshot` is written in the background.
    compacts_in_background = True

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        limits: CheckpointLimits | None = None,
    ) -> None:
        self._directory = os.path.abspath(os.fspath(directory))
        self._limits = limits or CheckpointLimits()
        self._lock = anyio.Lock()
        self._session: _Session | None = None

    @property
    def directory(self) -> str:
        """The absolute path of the checkpoint directory."""
        return self._directory

    def __repr__(self) -> str:
        state = "open" if self._session is not None else "closed"
        return f"<LocalCheckpointStore {self._directory!r} {state}>"

    async def _run(self, function: Callable[..., Any], *args: Any) -> Any:
        async with self._lock:
            return await anyio.to_thread.run_sync(function, *args)

    async def open(self, *, mode: OpenMode) -> None:
        """See `CheckpointStore.open`."""
        if mode not in ("create", "resume"):
            raise ValueError("mode must be 'create' or 'resume'")
        await self._run(self._open, mode)

    async def commit_snapshot(self, payload: Mapping[str, Any]) -> int | None:
        """See `CheckpointStore.commit_snapshot`."""
        size: int = await self._run(self._commit_snapshot, payload)
        return size

    async def append(self, entry: Mapping[str, Any]) -> int | None:
        """See `CheckpointStore.append`.

        An append runs inline, on the caller's thread, when no other operation of
        this store is in flight: one write and one fsync cost less than the hop to
        a worker thread and back. Otherwise it queues behind that operation.
        """
        if not self._lock.locked():
            return self._append(entry)
        size: int = await self._run(self._append, entry)
        return size

    async def append_buffered(self, entry: Mapping[str, Any]) -> int | None:
        """Append one entry without waiting for the disk.

        The entry is written to the journal at once, so it survives the death of
        this process, and becomes durable with the next `append`, which syncs the
        file (a power loss before that may lose it, never tear what follows). The
        engine writes a safe boundary this way: nothing is invoked between a
        boundary and the admission whose synced append follows it.

        Raises:
            CheckpointError: As `append`.
            FileAccessError: As `append`.
        """
        if not self._lock.locked():
            return self._append(entry, sync=False)
        size: int = await self._run(self._append, entry, False)
        return size

    async def load(self) -> LoadedCheckpoint:
        """See `CheckpointStore.load`."""
        loaded: LoadedCheckpoint = await self._run(self._load)
        return loaded

    async def write_artifact(self, name: str, data: bytes) -> None:
        """See `CheckpointStore.write_artifact`."""
        check_artifact_name(name)
        await self._run(self._write_artifact, name, bytes(data))

    async def read_artifact(self, name: str) -> bytes:
        """See `CheckpointStore.read_artifact`."""
        check_artifact_name(name)
        data: bytes = await self._run(self._read_artifact, name)
        return data

    async def begin_recovery(self) -> None:
        """See `CheckpointStore.begin_recovery`."""
        await self._run(self._begin_recovery)

    async def end_recovery(self) -> None:
        """See `CheckpointStore.end_recovery`."""
        await self._run(self._end_recovery)

    async def close(self) -> None:
        """See `CheckpointStore.close`."""
        await self._run(self._close)

    # -- synchronous parts, run in a worker thread --------------------------------

    def _open(self, mode: OpenMode) -> None:
        if self._session is not None:
            raise SessionStateError("the checkpoint store is already open")
        where = self._directory
        dir_fd = open_directory(where, where=where, create=mode == "create")
        try:
            claim = acquire_claim(dir_fd, where=where)
            try:
                journal = Journal(dir_fd, where=where, limits=self._limits)
                session = _Session(dir_fd, claim, journal)
                self._check_opening(session, mode)
            except BaseException:
                claim.release()
                raise
        except BaseException:
            os.close(dir_fd)
            raise
        self._session = session

    def _check_opening(self, session: _Session, mode: OpenMode) -> None:
        where, dir_fd = self._directory, session.dir_fd
        if _exists(dir_fd, GUARD_NAME):
            raise CheckpointError(
                f"checkpoint directory {where} holds a recovery guard: an earlier "
                "resume stopped in the middle of recovering. Inspect the checkpoint "
                f"and what the run may have changed, then delete {where}/"
                f"{GUARD_NAME} deliberately to allow another resume",
                reason="recovery_guard_present",
            )
        has_snapshot = _exists(dir_fd, SNAPSHOT_NAME)
        if mode == "create" and has_snapshot:
            raise CheckpointError(
                f"checkpoint directory {where} already holds a checkpoint; resume "
                "it, or choose a new directory for a fresh run",
                reason="checkpoint_exists",
            )
        if mode == "resume" and not has_snapshot:
            raise CheckpointError(
                f"no checkpoint in {where}", reason="checkpoint_missing"
            )
        remove_stale_temporaries(dir_fd, keep_prefix=CLAIM_TEMP_PREFIX)
        if mode == "resume":
            session.journal.recover(self._read_snapshot(session))

    def _session_for(self, *, writing: bool = False) -> _Session:
        session = self._session
        if session is None:
            raise SessionStateError("the checkpoint store is not open")
        if writing and session.failed:
            raise FileAccessError(
                f"an earlier write to checkpoint directory {self._directory} failed; "
                "close the store and resume from the last committed state"
            )
        verify_directory(session.dir_fd, self._directory)
        return session

    def _read_snapshot(self, session: _Session) -> envelope.Snapshot:
        try:
            data = read_private_file(
                session.dir_fd,
                SNAPSHOT_NAME,
                limit=self._limits.max_snapshot_bytes,
                where=self._directory,
            )
        except FileNotFoundError:
            raise CheckpointError(
                f"no checkpoint in {self._directory}", reason="checkpoint_missing"
            ) from None
        return envelope.decode_snapshot(data)

    def _too_large(self, what: str) -> CheckpointError:
        return CheckpointError(
            f"the {what} for checkpoint directory {self._directory} is over its "
            "size limit",
            reason="checkpoint_too_large",
        )

    def _commit_snapshot(self, payload: Mapping[str, Any]) -> int:
        session = self._session_for(writing=True)
        if isinstance(payload, Compaction) and session.generation > 0:
            return self._begin_compaction(session, payload)
        session.drop_pending()
        body = envelope.canonical_json(dict(payload))
        generation = session.generation + 1
        parent = session.journal.snapshot or secrets.token_hex(32)
        data, digest = envelope.encode_snapshot(body, generation, parent=parent)
        if len(data) > self._limits.max_snapshot_bytes:
            raise self._too_large("snapshot")
        try:
            write_atomically(session.dir_fd, SNAPSHOT_NAME, data, where=self._directory)
            session.journal.reset(generation, digest)
        except BaseException:
            # the snapshot may be renamed without its new journal: a resume drops
            # the previous journal, which the new snapshot already contains
            session.failed = True
            raise
        return len(data)

    def _begin_compaction(self, session: _Session, payload: Compaction) -> int:
        """Encode the snapshot here; write it in the background (module doc)."""
        pending = session.pending
        if pending is not None:
            pending.thread.join()
            self._switch(session)
        body = payload.encoded
        generation = session.generation + 1
        parent = session.journal.snapshot
        covers = (session.journal.entry_count, session.journal.size)
        data, digest = envelope.encode_snapshot(
            body, generation, parent=parent, covers=covers
        )
        if len(data) > self._limits.max_snapshot_bytes:
            raise self._too_large("snapshot")
        session.journal.cut()
        session.pending = _PendingSnapshot(
            session, data, generation, digest, self._directory
        )
        return len(data)

    def _switch(self, session: _Session) -> None:
        """Put a finished background snapshot in place; see the module doc.

        Only after a synced append: every entry the snapshot holds is durable
        in the journal before the snapshot that holds them replaces its parent.
        """
        pending, session.pending = session.pending, None
        assert pending is not None
        try:
            if pending.error is not None:
                raise pending.error
            try:
                os.rename(
                    pending.temporary,
                    SNAPSHOT_NAME,
                    src_dir_fd=session.dir_fd,
                    dst_dir_fd=session.dir_fd,
                )
            except OSError as exc:
                raise FileAccessError(
                    f"could not replace the snapshot in {self._directory}: "
                    f"{exc.strerror}"
                ) from exc
            fsync_directory(session.dir_fd, self._directory)
            session.journal.switch(pending.generation, pending.digest)
        except BaseException:
            session.failed = True
            with contextlib.suppress(OSError):
                os.unlink(pending.temporary, dir_fd=session.dir_fd)
            raise

    def _append(self, entry: Mapping[str, Any], sync: bool = True) -> int:
        session = self._session_for(writing=True)
        if session.generation == 0:
            raise SessionStateError("append needs a committed snapshot first")
        body = envelope.canonical_json(dict(entry))
        try:
            size = session.journal.append(body, sync=sync)
        except FileAccessError:
            session.failed = True
            raise
        except CheckpointError as exc:
            if exc.reason != "checkpoint_too_large":
                session.failed = True
            raise
        pending = session.pending
        if sync and pending is not None and not pending.thread.is_alive():
            self._switch(session)
        return size

    def _load(self) -> LoadedCheckpoint:
        session = self._session_for()
        if session.generation == 0:
            raise CheckpointError(
                f"no checkpoint in {self._directory}", reason="checkpoint_missing"
            )
        snapshot = self._read_snapshot(session)
        if (snapshot.generation, snapshot.digest) != (
            session.generation,
            session.journal.snapshot,
        ):
            raise CheckpointError(
                f"the snapshot in {self._directory} was changed by something else",
                reason="corrupt_checkpoint",
            )
        return LoadedCheckpoint(
            snapshot=snapshot.payload,
            entries=session.journal.entries(),
            torn_tail=session.journal.torn_tail,
        )

    def _artifacts_fd(self, session: _Session, *, create: bool) -> int:
        return open_directory(
            ARTIFACTS_NAME,
            where=f"{self._directory}/{ARTIFACTS_NAME}",
            create=create,
            parent_fd=session.dir_fd,
        )

    def _write_artifact(self, name: str, data: bytes) -> None:
        session = self._session_for(writing=True)
        if len(data) > self._limits.max_artifact_bytes:
            raise self._too_large(f"artifact {name}")
        framed = envelope.encode_artifact(data)
        fd = self._artifacts_fd(session, create=True)
        try:
            fsync_directory(session.dir_fd, self._directory)  # a new artifacts/
            write_atomically(fd, name, framed, where=self._directory)
        finally:
            os.close(fd)

    def _read_artifact(self, name: str) -> bytes:
        session = self._session_for()
        missing = CheckpointError(
            f"checkpoint directory {self._directory} has no artifact {name}",
            reason="artifact_missing",
        )
        try:
            fd = self._artifacts_fd(session, create=False)
        except CheckpointError as exc:
            if exc.reason == "checkpoint_missing":
                raise missing from None
            raise
        try:
            limit = self._limits.max_artifact_bytes + envelope.ARTIFACT_OVERHEAD
            framed = read_private_file(fd, name, limit=limit, where=self._directory)
        except FileNotFoundError:
            raise missing from None
        finally:
            os.close(fd)
        return envelope.decode_artifact(framed)

    def _begin_recovery(self) -> None:
        session = self._session_for(writing=True)
        if session.in_recovery:
            raise SessionStateError("a recovery is already in progress")
        content = encode_identity(current_identity())
        try:
            create_exclusive(session.dir_fd, GUARD_NAME, content, where=self._directory)
        except FileExistsError:
            raise CheckpointError(
                f"checkpoint directory {self._directory} already holds a recovery "
                "guard",
                reason="recovery_guard_present",
            ) from None
        fsync_directory(session.dir_fd, self._directory)
        session.in_recovery = True

    def _end_recovery(self) -> None:
        session = self._session_for(writing=True)
        if not session.in_recovery:
            raise SessionStateError("no recovery is in progress")
        try:
            os.unlink(GUARD_NAME, dir_fd=session.dir_fd)
        except OSError as exc:
            raise FileAccessError(
                f"could not remove the recovery guard in {self._directory}: "
                f"{exc.strerror}"
            ) from exc
        fsync_directory(session.dir_fd, self._directory)
        session.in_recovery = False

    def _close(self) -> None:
        session, self._session = self._session, None
        if session is None:
            return
        try:
            session.drop_pending()
            session.journal.close()
            session.claim.release()
        finally:
            os.close(session.dir_fd)


def _exists(dir_fd: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True
