"""The checkpoint package exports exactly its public names, all documented."""

from __future__ import annotations

import pytest

import artemiskit.checkpoints
import artemiskit.testing

EXPECTED = {
    artemiskit.checkpoints: [
        "ARTIFACT_NAME_PATTERN",
        "CheckpointLimits",
        "CheckpointStore",
        "LoadedCheckpoint",
        "LocalCheckpointStore",
        "OpenMode",
    ],
}


@pytest.mark.parametrize("module", list(EXPECTED), ids=lambda m: m.__name__)
def test_all_is_exact_and_sorted(module: object) -> None:
    exported = list(module.__all__)  # type: ignore[attr-defined]
    assert exported == sorted(exported) == EXPECTED[module]  # type: ignore[index]
    for name in exported:
        value = getattr(module, name)
        if callable(value) and isinstance(value, type):
            assert value.__doc__, name


def test_testing_exports_the_checkpoint_suite() -> None:
    assert "CheckpointStoreConformance" in artemiskit.testing.__all__
    assert artemiskit.testing.__all__ == sorted(artemiskit.testing.__all__)
