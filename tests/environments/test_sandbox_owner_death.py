"""A sandbox container never outlives its owner (SPEC 11), even after SIGKILL.

A real ``akit workflow run`` is killed with SIGKILL while its scripted model request
waits (``delay_ms``) and its container, holding the run's files, is running. Nothing
of the owner is left to clean up, so the container must stop and remove itself: the
helper ends on end of input (the engine closes the container's stdin when the
owner's attach connection drops) and the container is created to remove itself.
"""

from __future__ import annotations

import signal
import subprocess
import time
from typing import TYPE_CHECKING

import aiodocker
import anyio
import pytest

from tests._cli import AKIT

from ._docker import container_state, labelled_containers
from .test_sandbox_cli import (
    ROOT,
    RUN_STARTED,
    TIMEOUT_S,
    Runs,
    containers_of,
    outcome,
    runs,
    sandbox_quickstart,
)

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["runs"]  # the fixture, re-exported for pytest

#: How long a dead owner's container may take to go ("within seconds"); a bound
#: for polling, never a duration the test asserts.
GONE_WITHIN_S = 30


async def _running(run_id: str) -> bool:
    for container_id in await labelled_containers(run_id):
        try:
            state = await container_state(container_id)
        except aiodocker.DockerError as exc:  # gone between list and inspect
            if exc.status != 404:
                raise
            continue
        if state["State"]["Running"]:  # type: ignore[index]
            return True
    return False


def wait_until_running(run_id: str) -> None:
    """Poll the engine until the run's container runs (bounded)."""
    deadline = time.monotonic() + TIMEOUT_S
    while not anyio.run(_running, run_id):
        assert time.monotonic() < deadline, f"no running container for {run_id}"
        time.sleep(0.05)


def wait_until_gone(run_id: str) -> list[str]:
    """Poll the engine until no container of the run is left; return what is left."""
    deadline = time.monotonic() + GONE_WITHIN_S
    while (left := containers_of(run_id)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


@pytest.mark.docker
@pytest.mark.parametrize("checkpointed", [False, True], ids=["plain", "checkpointed"])
def test_a_sigkilled_owner_leaves_no_container(
    tmp_path: Path, runs: Runs, checkpointed: bool
) -> None:
    # The model request after the read waits 60 s: the run is mid-flight, with its
    # files in the container, when SIGKILL arrives.
    workflow, config = sandbox_quickstart(tmp_path, delays_ms={1: 60_000})
    command = [*AKIT, "workflow", "run", str(workflow), "--config", str(config)]
    if checkpointed:
        command += ["--checkpoint-dir", str(tmp_path / "checkpoint")]
    seen: list[str] = []
    with subprocess.Popen(
        command, cwd=ROOT, stderr=subprocess.PIPE, text=True
    ) as child:
        assert child.stderr is not None
        for line in child.stderr:
            seen.append(line)
            if RUN_STARTED.search(line):
                run_id = runs.started(line)
            if "op-000003 admitted: model request" in line:
                break
        else:
            child.wait(timeout=TIMEOUT_S)
            pytest.fail(outcome(child.returncode, "".join(seen)))
        wait_until_running(run_id)
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=TIMEOUT_S)
    assert child.returncode == -signal.SIGKILL
    assert wait_until_gone(run_id) == [], "the container outlived its killed owner"
