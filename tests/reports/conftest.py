"""Evidence shared by the report tests: the example suite, run once per session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.reports._evidence import EXAMPLE_SUITE, run_suite, worsened_suite


@pytest.fixture(scope="session")
def example_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`EXAMPLE_SUITE` run five times with transcripts: a suite folder."""
    output = tmp_path_factory.mktemp("example") / "out"
    run_suite(EXAMPLE_SUITE, output, "--transcripts")
    return output


@pytest.fixture(scope="session")
def worse_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example suite with triage's script made worse, run five times."""
    root = tmp_path_factory.mktemp("worse")
    output = root / "out"
    run_suite(worsened_suite(root), output)
    return output


@pytest.fixture
def suite_copy(example_suite: Path, tmp_path: Path) -> Path:
    """A private copy of the example suite folder that a test may change."""
    copy = tmp_path / "suite"
    shutil.copytree(example_suite, copy)
    return copy
