"""A checkpoint's parts belong together: parts of another run, or FIFOs, are refused.

Two real runs A and B of the same workflow pause through the CLI; B has written a
file A never wrote. Moving any one part of B (its saved environment, its snapshot,
its journal) into A must make ``akit workflow resume`` refuse A as
``corrupt_checkpoint`` before any model request, and leave A as it was.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests._builders import PASSING_SCRIPT, workflow_dict

from ._processes import Case, fingerprint
from .test_resume import assert_refused, paused


def pair(tmp_path: Path) -> tuple[Case, Case]:
    """A paused after reading the policy; B paused after also writing the summary."""
    first = Case(tmp_path / "a", workflow_dict(), PASSING_SCRIPT)
    second = Case(tmp_path / "b", workflow_dict(), PASSING_SCRIPT)
    paused(first, 2)
    paused(second, 4)
    return first, second


def replace(source: Path, target: Path) -> None:
    """Put ``source`` (a file or a folder) where ``target`` is, modes kept."""
    if target.is_dir():
        shutil.rmtree(target)
        shutil.copytree(source, target)
    else:
        target.unlink()
        shutil.copy2(source, target)


@pytest.mark.parametrize(
    "part", ["artifacts", "snapshot.ckpt", "journal.ckpt", "artifacts+snapshot.ckpt"]
)
def test_part_from_another_run_is_refused(tmp_path: Path, part: str) -> None:
    case, other = pair(tmp_path)
    for name in part.split("+"):
        replace(other.checkpoint / name, case.checkpoint / name)
    before = fingerprint(case.checkpoint)
    done, record = case.resume()
    assert_refused(done, "corrupt_checkpoint")
    assert record is None
    assert fingerprint(case.checkpoint) == before
    # B's own checkpoint is whole, and still resumes.
    done, record = other.resume()
    assert done.code == 0, done.describe()


def test_saved_environment_of_an_earlier_pause_is_refused(tmp_path: Path) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    earlier = tmp_path / "earlier-artifacts"
    shutil.copytree(case.checkpoint / "artifacts", earlier)
    done, _ = case.resume(pause_after=2)  # writes the summary, pauses again
    assert done.code == 10, done.describe()
    replace(earlier, case.checkpoint / "artifacts")
    done, _ = case.resume()
    assert_refused(done, "corrupt_checkpoint")


def test_unmodified_checkpoints_resume(tmp_path: Path) -> None:
    case, other = pair(tmp_path)
    for checkpoint in (case, other):
        done, record = checkpoint.resume()
        assert done.code == 0, done.describe()
        assert record["task_verification"]["status"] == "passed"


@pytest.mark.parametrize(
    "name",
    ["snapshot.ckpt", "journal.ckpt", "claim.lock", "artifacts/environment-files.json"],
)
def test_fifo_in_place_of_a_checkpoint_file_is_refused(
    tmp_path: Path, name: str
) -> None:
    case = Case(tmp_path / "case", workflow_dict(), PASSING_SCRIPT)
    paused(case, 2)
    (case.checkpoint / name).unlink(missing_ok=True)
    os.mkfifo(case.checkpoint / name, 0o600)
    done, record = case.resume()
    assert_refused(done, "not_a_file")
    assert Path(name).name in done.stderr
    assert record is None
