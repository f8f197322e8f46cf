"""LocalCheckpointStore passes the shared checkpoint store conformance suite."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from artemiskit.checkpoints import CheckpointStore, LocalCheckpointStore
from artemiskit.testing import CheckpointStoreConformance, ConformanceFailure


def suite_in(root: Path) -> CheckpointStoreConformance:
    locations = (str(root / f"checkpoint-{n}") for n in itertools.count())
    return CheckpointStoreConformance(
        new_location=lambda: next(locations), store_at=LocalCheckpointStore
    )


@pytest.mark.parametrize("check", CheckpointStoreConformance.check_names())
async def test_local_store_conforms(check: str, tmp_path: Path) -> None:
    await suite_in(tmp_path).run(check)


async def test_unknown_check_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no conformance check"):
        await suite_in(tmp_path).run("check_nothing")


class ForgetfulStore(LocalCheckpointStore):
    """Drops every journal entry: the suite must notice."""

    async def append(self, entry: object) -> None:
        return None


async def test_suite_catches_a_broken_store(tmp_path: Path) -> None:
    locations = (str(tmp_path / f"c{n}") for n in itertools.count())
    suite = CheckpointStoreConformance(
        new_location=lambda: next(locations), store_at=ForgetfulStore
    )
    with pytest.raises(ConformanceFailure, match="entries differ"):
        await suite.run("check_round_trip")


def test_local_store_is_a_checkpoint_store(tmp_path: Path) -> None:
    assert isinstance(LocalCheckpointStore(tmp_path / "c"), CheckpointStore)
