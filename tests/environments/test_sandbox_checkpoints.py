"""Checkpoints with the Docker sandbox: files saved on pause, a fresh container on
resume, a sandbox run killed mid-call refused on resume, and saved files of another
run refused.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from .test_sandbox_cli import (
    AKIT,
    ROOT,
    Runs,
    akit,
    containers_of,
    outcome,
    read_record,
    runs,
    sandbox_quickstart,
)

__all__ = ["runs"]  # the fixture, re-exported for pytest


@pytest.mark.docker
def test_sandbox_pause_saves_files_and_resume_recreates_a_container(
    tmp_path: Path, runs: Runs
) -> None:
    workflow, config = sandbox_quickstart(tmp_path)
    checkpoint = tmp_path / "checkpoint"
    paused_record = tmp_path / "paused.json"
    done = akit(
        "workflow",
        "run",
        workflow,
        "--config",
        config,
        "--checkpoint-dir",
        checkpoint,
        "--pause-after-actions",
        "4",
        "--output",
        paused_record,
    )
    assert done.returncode == 10, outcome(done.returncode, done.stderr)
    first = runs.started(done.stderr)
    paused = read_record(paused_record)
    assert paused["recovery"]["resumable"] is True
    assert paused["cleanup"]["status"] == "complete"
    assert containers_of(first) == []
    resumed_record = tmp_path / "resumed.json"
    state = tmp_path / "state.json"
    done = akit(
        "workflow",
        "resume",
        workflow,
        "--config",
        config,
        "--checkpoint-dir",
        checkpoint,
        "--output",
        resumed_record,
        "--state-output",
        state,
    )
    assert done.returncode == 0, outcome(done.returncode, done.stderr)
    runs.started(done.stderr)
    resumed = read_record(resumed_record)
    assert resumed["environment_kind"] == "sandbox"
    assert resumed["recovery"]["attempt_number"] == 2
    assert resumed["task_verification"]["status"] == "passed"
    assert containers_of(first) == []
    assert '"out/summary.md"' in state.read_text("utf-8")


@pytest.mark.docker
def test_sandbox_run_killed_mid_call_is_refused(tmp_path: Path, runs: Runs) -> None:
    workflow, config = sandbox_quickstart(tmp_path, delays_ms={1: 60_000})
    checkpoint = tmp_path / "checkpoint"
    command = [
        *AKIT,
        "workflow",
        "run",
        str(workflow),
        "--config",
        str(config),
        "--checkpoint-dir",
        str(checkpoint),
    ]
    with subprocess.Popen(
        command, cwd=ROOT, stderr=subprocess.PIPE, text=True
    ) as child:
        assert child.stderr is not None
        seen = []
        for line in child.stderr:
            seen.append(line)
            if "op-000003 admitted: model request" in line:
                break
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=60)
    runs.started("".join(seen))
    done = akit(
        "workflow",
        "resume",
        workflow,
        "--config",
        config,
        "--checkpoint-dir",
        checkpoint,
    )
    assert done.returncode == 2, outcome(done.returncode, done.stderr)
    assert "reason: pending_operation" in done.stderr


@pytest.mark.docker
def test_sandbox_files_of_another_run_are_refused(tmp_path: Path, runs: Runs) -> None:
    """Run B's saved sandbox files (with a write A never made) cannot resume A."""
    workflow, config = sandbox_quickstart(tmp_path)
    checkpoints = {}
    for name, actions in (("a", "2"), ("b", "4")):
        checkpoints[name] = tmp_path / name
        done = akit(
            "workflow",
            "run",
            workflow,
            "--config",
            config,
            "--checkpoint-dir",
            checkpoints[name],
            "--pause-after-actions",
            actions,
        )
        assert done.returncode == 10, outcome(done.returncode, done.stderr)
        runs.started(done.stderr)
    shutil.rmtree(checkpoints["a"] / "artifacts")
    shutil.copytree(checkpoints["b"] / "artifacts", checkpoints["a"] / "artifacts")
    done = akit(
        "workflow",
        "resume",
        workflow,
        "--config",
        config,
        "--checkpoint-dir",
        checkpoints["a"],
    )
    assert done.returncode == 2, outcome(done.returncode, done.stderr)
    assert "reason: corrupt_checkpoint" in done.stderr
    assert "started" not in done.stderr  # refused before any container
