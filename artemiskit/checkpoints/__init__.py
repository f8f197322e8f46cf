"""Checkpoint stores: explicit, private pause and resume.

`CheckpointStore` is the interface the engine uses; `LocalCheckpointStore` keeps a
checkpoint in a private local directory (POSIX, Linux ``/proc`` for the process
claim). Every store must pass `artemiskit.testing.CheckpointStoreConformance`.
"""

from __future__ import annotations

from artemiskit.checkpoints._local import LocalCheckpointStore
from artemiskit.checkpoints._store import (
    ARTIFACT_NAME_PATTERN,
    CheckpointLimits,
    CheckpointStore,
    LoadedCheckpoint,
    OpenMode,
)

__all__ = [
    "ARTIFACT_NAME_PATTERN",
    "CheckpointLimits",
    "CheckpointStore",
    "LoadedCheckpoint",
    "LocalCheckpointStore",
    "OpenMode",
]
