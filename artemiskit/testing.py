"""Public test helpers: fakes and the conformance suites every backend must pass.

`EnvironmentConformance` checks an `EnvironmentFactory` against the environment
contract (files, paths, sizes, symlinks, snapshot/restore, cleanup).
"""

from __future__ import annotations

from artemiskit._testing_environments import (
    ConformanceFailure,
    EnvironmentConformance,
    SymlinkMaker,
)

__all__ = [
    "ConformanceFailure",
    "EnvironmentConformance",
    "SymlinkMaker",
]
