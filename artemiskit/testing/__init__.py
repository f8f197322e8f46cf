"""Public test helpers: fakes and the conformance suites every backend must pass.

`EnvironmentConformance` checks an `EnvironmentFactory` against the environment
contract (files, paths, sizes, symlinks, snapshot, cleanup).
`CheckpointStoreConformance` checks a `CheckpointStore` against the checkpoint
contract (round trip, compaction, artifacts, claims, recovery guard).
"""

from __future__ import annotations

from artemiskit.testing._checkpoints import CheckpointStoreConformance
from artemiskit.testing._environments import (
    ConformanceFailure,
    EnvironmentConformance,
    SymlinkMaker,
)

__all__ = [
    "CheckpointStoreConformance",
    "ConformanceFailure",
    "EnvironmentConformance",
    "SymlinkMaker",
]
