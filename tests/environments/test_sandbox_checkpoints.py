"""Checkpoints with the Docker sandbox: files saved on pause, a fresh container on
resume, a sandbox run killed mid-call or between operations refused on resume, and
saved files of another run refused.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests._cli import AKIT

from ._docker import SANDBOX_IMAGE
from .test_sandbox_cli import (
    ROOT,
    TIMEOUT_S,
    Runs,
    akit,
    containers_of,
    outcome,
    read_record,
    runs,
    sandbox_quickstart,
)
from .test_sandbox_owner_death import wait_until_gone, wait_until_running

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


REFUSALS = ("pending_operation", "crashed_attempt", "active_sandbox_crash")


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        pytest.param(
            "sandbox", "active_sandbox_crash", marks=pytest.mark.docker, id="sandbox"
        ),
        pytest.param("simulated", "crashed_attempt", id="simulated"),
    ],
)
def test_a_run_killed_between_operations_is_refused_for_its_environment(
    tmp_path: Path, runs: Runs, kind: str, reason: str
) -> None:
    """SIGKILL while alive between operations: no call in flight, not paused.

    The child (`_gated_run`) commits the boundary after the read (operations 1
    and 2 settled) and then waits before admitting operation 3, so its checkpoint
    is ``active`` with nothing pending. Resume refuses it for the environment it
    had: a sandbox whose container was running (``active_sandbox_crash``), or a
    simulated one (``crashed_attempt``), never as a pending operation.
    """
    workflow, config = sandbox_quickstart(tmp_path, kind=kind)
    checkpoint = tmp_path / "checkpoint"
    script = workflow.parent / "quickstart.script.yaml"
    command = [
        sys.executable,
        "-m",
        "tests.environments._gated_run",
        str(workflow),
        str(script),
        SANDBOX_IMAGE,
        str(checkpoint),
        "op-000003",
    ]
    seen: list[str] = []
    with subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdout is not None
        for line in child.stdout:
            seen.append(line)
            if line == "gated\n":
                break
        else:
            child.wait(timeout=TIMEOUT_S)
            pytest.fail(outcome(child.returncode, "".join(seen)))
        run_id = runs.started("".join(seen))
        if kind == "sandbox":
            wait_until_running(run_id)  # alive, mid-run, its container up
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=TIMEOUT_S)
    assert child.returncode == -signal.SIGKILL
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
    assert f"reason: {reason}" in done.stderr
    for other in REFUSALS:
        if other != reason:
            assert other not in done.stderr
    assert wait_until_gone(run_id) == []
