"""Checkpoint stores: explicit, private pause and resume.

`CheckpointStore` is the interface the engine uses; `LocalCheckpointStore` keeps a
checkpoint in a private local directory (POSIX, Linux ``/proc`` for the process
claim). Every store must pass `artemiskit.testing.CheckpointStoreConformance`.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.checkpoints._local import (
        LocalCheckpointStore as LocalCheckpointStore,
    )
    from artemiskit.checkpoints._store import (
        ARTIFACT_NAME_PATTERN as ARTIFACT_NAME_PATTERN,
        CheckpointLimits as CheckpointLimits,
        CheckpointStore as CheckpointStore,
        LoadedCheckpoint as LoadedCheckpoint,
        OpenMode as OpenMode,
    )

_exports.export_lazily(globals())
