"""Public test helpers: fakes and the conformance suites every backend must pass.

`EnvironmentConformance` checks an `EnvironmentFactory` against the environment
contract (files, paths, sizes, symlinks, snapshot, cleanup).
`CheckpointStoreConformance` checks a `CheckpointStore` against the checkpoint
contract (round trip, compaction, artifacts, claims, recovery guard).
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.testing._checkpoints import (
        CheckpointStoreConformance as CheckpointStoreConformance,
    )
    from artemiskit.testing._environments import (
        ConformanceFailure as ConformanceFailure,
        EnvironmentConformance as EnvironmentConformance,
        SymlinkMaker as SymlinkMaker,
    )

_exports.export_lazily(globals())
