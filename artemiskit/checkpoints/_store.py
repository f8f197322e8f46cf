"""The checkpoint store interface and the data it hands back.

A checkpoint holds one logical run's private working data, so a paused run can be
resumed by a later process. The engine talks to storage only through
`CheckpointStore`; `LocalCheckpointStore` is the built-in backend, and every backend
must pass the conformance suite in `artemiskit.testing`.

A checkpoint is three kinds of record plus two markers:

- one **snapshot**: a JSON object the engine commits whole (``commit_snapshot``);
- a **journal** of JSON objects appended after that snapshot (``append``), so the
  cost of one transition does not grow with the run; committing a new snapshot
  starts an empty journal (compaction);
- named **artifacts**: opaque bounded blobs, e.g. a sandbox's files;
- an exclusive **process claim** held between ``open`` and ``close``;
- a **recovery guard** between ``begin_recovery`` and ``end_recovery``: if a
  recovery crashes, the guard stays and every later ``open`` is refused until the
  operator removes it deliberately.

Every refusal is a `CheckpointError` with a stable ``reason``; plain I/O failures are
`FileAccessError`. Messages never contain payload content.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any, Literal, Protocol, runtime_checkable

import attrs

from artemiskit._errors import CheckpointError

__all__ = [
    "ARTIFACT_NAME_PATTERN",
    "CheckpointLimits",
    "CheckpointStore",
    "LoadedCheckpoint",
    "OpenMode",
    "check_artifact_name",
]

OpenMode = Literal["create", "resume"]
"""``create`` starts a new checkpoint; ``resume`` continues an existing one."""

ARTIFACT_NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}"
"""Artifact names: 1–128 characters of ``A-Z a-z 0-9 . _ -``, starting alphanumeric."""

_ARTIFACT_NAME = re.compile(ARTIFACT_NAME_PATTERN)

_MIB = 1024 * 1024


@attrs.frozen(kw_only=True)
class CheckpointLimits:
    """Size bounds of one checkpoint; anything larger is refused.

    Attributes:
        max_snapshot_bytes: Largest snapshot file.
        max_entry_bytes: Largest single journal entry (its JSON encoding).
        max_journal_bytes: Largest journal file; past it the engine must compact
            (commit a new snapshot).
        max_artifact_bytes: Largest artifact.
    """

    max_snapshot_bytes: int = attrs.field(default=64 * _MIB)
    max_entry_bytes: int = attrs.field(default=8 * _MIB)
    max_journal_bytes: int = attrs.field(default=256 * _MIB)
    max_artifact_bytes: int = attrs.field(default=64 * _MIB)

    @max_snapshot_bytes.validator
    @max_entry_bytes.validator
    @max_journal_bytes.validator
    @max_artifact_bytes.validator
    def _positive(self, attribute: attrs.Attribute[int], value: int) -> None:
        if value < 1:
            raise ValueError(f"{attribute.name} must be ≥ 1")


@attrs.frozen(kw_only=True)
class LoadedCheckpoint:
    """What a checkpoint holds: the snapshot and the journal entries after it.

    Attributes:
        snapshot: The payload of the last committed snapshot.
        entries: The journal entries appended after that snapshot, oldest first.
        torn_tail: ``True`` when a final journal entry was cut short by a crash in
            the middle of ``append`` and was discarded. That entry was never
            acknowledged, so the engine never acted on it.
    """

    snapshot: dict[str, Any]
    entries: tuple[dict[str, Any], ...]
    torn_tail: bool


class Compaction(Mapping[str, Any]):
    """A snapshot payload, already canonical JSON, that only compacts the journal.

    It holds exactly what the snapshot and the journal already hold together, so
    a store with ``compacts_in_background = True`` may return from
    ``commit_snapshot`` before it is durable and switch to it later, as long as
    the entries appended meanwhile stay in force and every crash leaves either
    checkpoint. Read as a mapping, it is the decoded object.

    Args:
        encoded: The payload: a JSON object as canonical JSON (sorted keys, no
            spaces, ASCII only).
    """

    __slots__ = ("_decoded", "encoded")

    def __init__(self, encoded: bytes) -> None:
        self.encoded = encoded
        self._decoded: dict[str, Any] | None = None

    def _data(self) -> dict[str, Any]:
        if self._decoded is None:
            self._decoded = json.loads(self.encoded)
        return self._decoded

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())


@runtime_checkable
class CheckpointStore(Protocol):
    """Durable storage for one checkpoint, used by one session at a time.

    Every method is async and safe to call from asyncio or trio. Methods other than
    ``open`` and ``close`` need an open store (else `SessionStateError`). A method
    that returned has made its change durable; one that raised leaves the previous
    committed state loadable.
    """

    async def open(self, *, mode: OpenMode) -> None:
        """Verify the checkpoint location and take the exclusive process claim.

        Args:
            mode: ``create`` for a new checkpoint (refused if a snapshot exists),
                ``resume`` for an existing one (refused if there is none).

        Raises:
            CheckpointError: The location is unsafe, claimed by a live or foreign
                owner, guarded by a crashed recovery, or in the wrong state.
            FileAccessError: The location could not be read or created.
        """
        ...

    async def commit_snapshot(self, payload: Mapping[str, Any]) -> int | None:
        """Atomically replace the snapshot with ``payload`` and empty the journal.

        Args:
            payload: A JSON-compatible object, not changed until the call returns.

        Returns:
            The bytes the snapshot takes, or ``None`` when the backend does not
            know. The engine compacts its journal by size when it is told sizes,
            else after a fixed number of entries.

        Raises:
            CheckpointError: The encoded snapshot is too large.
            FileAccessError: The snapshot could not be written durably.
        """
        ...

    async def append(self, entry: Mapping[str, Any]) -> int | None:
        """Durably append one entry to the journal of the current snapshot.

        Args:
            entry: A JSON-compatible object, not changed until the call returns.

        Returns:
            The bytes the entry added to the journal, or ``None`` when the backend
            does not know.

        Raises:
            CheckpointError: The entry or the journal would be too large, or the
                journal was changed behind the store's back.
            FileAccessError: The entry could not be written durably.
        """
        ...

    async def load(self) -> LoadedCheckpoint:
        """Read and verify the snapshot and its journal.

        Returns:
            The snapshot, the journal entries, and whether a torn tail was dropped.

        Raises:
            CheckpointError: Missing, unsafe, corrupt, too large or of an unknown
                version.
            FileAccessError: The checkpoint could not be read.
        """
        ...

    async def write_artifact(self, name: str, data: bytes) -> None:
        """Atomically write (or replace) the artifact ``name``.

        Raises:
            CheckpointError: The name is not allowed or the data is too large.
            FileAccessError: The artifact could not be written durably.
        """
        ...

    async def read_artifact(self, name: str) -> bytes:
        """Read and verify the artifact ``name``.

        Raises:
            CheckpointError: Missing, unsafe, corrupt or too large.
            FileAccessError: The artifact could not be read.
        """
        ...

    async def begin_recovery(self) -> None:
        """Durably mark that a recovery is in progress (the recovery guard)."""
        ...

    async def end_recovery(self) -> None:
        """Durably remove the recovery guard after a completed recovery."""
        ...

    async def close(self) -> None:
        """Release the process claim; idempotent. Nothing is deleted."""
        ...


def check_artifact_name(name: str) -> None:
    """Refuse an artifact name outside `ARTIFACT_NAME_PATTERN`.

    Raises:
        CheckpointError: ``invalid_artifact_name``.
    """
    if not isinstance(name, str) or _ARTIFACT_NAME.fullmatch(name) is None:
        raise CheckpointError(
            "artifact names are 1-128 characters of A-Z a-z 0-9 . _ - and start "
            "with a letter or digit",
            reason="invalid_artifact_name",
        )
