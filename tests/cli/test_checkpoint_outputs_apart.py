"""Outputs and the checkpoint directory are kept apart, checked before any call.

``--checkpoint-dir X --output X`` used to pay the model and then fail to write the
record; an output inside the checkpoint directory mixed evidence into private
working data. Both are refused (exit 1) before any model call, on run and resume.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._builders import write_workflow
from tests._cli import akit


@pytest.mark.parametrize(
    ("option", "name"),
    [
        ("--output", "ckpt"),
        ("--output", "ckpt/record.json"),
        ("--state-output", "ckpt/state.json"),
        ("--transcript-output", "ckpt/transcript.json"),
    ],
)
def test_run_refuses_an_output_overlapping_the_checkpoint_directory(
    tmp_path: Path, option: str, name: str
) -> None:
    path = write_workflow(tmp_path)
    done = akit(
        "workflow",
        "run",
        path,
        "--checkpoint-dir",
        tmp_path / "ckpt",
        option,
        tmp_path / name,
    )
    assert done.returncode == 1, done.stderr
    assert "overlaps the checkpoint directory" in done.stderr
    assert "admitted" not in done.stderr  # no model request
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "ckpt").exists()


def test_resume_refuses_an_output_inside_the_checkpoint_directory(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path)
    paused = akit(
        "workflow",
        "run",
        path,
        "--checkpoint-dir",
        tmp_path / "ckpt",
        "--pause-after-actions",
        "1",
    )
    assert paused.returncode == 10, paused.stderr
    done = akit(
        "workflow",
        "resume",
        path,
        "--checkpoint-dir",
        tmp_path / "ckpt",
        "--output",
        tmp_path / "ckpt" / "record.json",
    )
    assert done.returncode == 1, done.stderr
    assert "overlaps the checkpoint directory" in done.stderr
    assert not (tmp_path / "ckpt" / "record.json").exists()
    resumed = akit(
        "workflow",
        "resume",
        path,
        "--checkpoint-dir",
        tmp_path / "ckpt",
        "--output",
        tmp_path / "record.json",
    )
    assert resumed.returncode == 0, resumed.stderr  # the refusal changed nothing
