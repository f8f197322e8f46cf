"""Real-Docker helpers for the sandbox tests (no mocks)."""

from __future__ import annotations

import json
import os

import aiodocker
import anyio
from aiodocker.execs import Exec

from artemiskit.environments.sandbox._engine import DEFAULT_SANDBOX_IMAGE
from artemiskit.environments.sandbox._environment import RUN_ID_LABEL, SANDBOX_LABEL

SANDBOX_IMAGE = os.environ.get("ARTEMISKIT_SANDBOX_IMAGE", DEFAULT_SANDBOX_IMAGE)
#: How long test cleanup waits for the engine to finish removing a container.
REMOVAL_BOUND_S = 30


async def run_in_container(
    container_id: str, script: str, *, user: str = ""
) -> tuple[int, str]:
    """Run ``sh -c script`` in the container; return (exit code, stdout+stderr)."""
    async with aiodocker.Docker() as docker:
        execution, output = await _run(docker, container_id, script, user)
        exit_code = (await execution.inspect())["ExitCode"]
    return int(exit_code), output


async def output_in_container(container_id: str, script: str) -> str:
    """Run ``sh -c script`` in the container; return its stdout+stderr only.

    For a script that may end the container: the engine forgets an exec with
    its container, so its exit code may be gone by the time it ends.
    """
    async with aiodocker.Docker() as docker:
        _, output = await _run(docker, container_id, script, "")
    return output


async def _run(
    docker: aiodocker.Docker, container_id: str, script: str, user: str
) -> tuple[Exec, str]:
    container = docker.containers.container(container_id)
    execution = await container.exec(["sh", "-c", script], user=user)
    output = bytearray()
    async with execution.start(detach=False) as stream:
        while (message := await stream.read_out()) is not None:
            output.extend(message.data)
    return execution, output.decode("utf-8", "replace")


async def labelled_containers(run_id: str | None = None) -> list[str]:
    """Ids of containers carrying the sandbox label (of ``run_id`` if given)."""
    label = SANDBOX_LABEL + "=1" if run_id is None else f"{RUN_ID_LABEL}={run_id}"
    async with aiodocker.Docker() as docker:
        found = await docker.containers.list(
            all="true", filters=json.dumps({"label": [label]})
        )
    return [container.id for container in found]


async def remove_labelled(run_id: str) -> None:
    """Force-remove the containers of ``run_id`` and wait until they are gone.

    A container may be removing itself already (it is created with AutoRemove):
    the engine then answers 409, and the wait is bounded by ``REMOVAL_BOUND_S``.
    """
    async with aiodocker.Docker() as docker:
        for container_id in await labelled_containers(run_id):
            try:
                await docker.containers.container(container_id).delete(force=True)
            except aiodocker.DockerError as exc:
                if exc.status not in (404, 409):
                    raise
    with anyio.move_on_after(REMOVAL_BOUND_S):
        left = await labelled_containers(run_id)
        while left:
            await anyio.sleep(0.05)
            left = await labelled_containers(run_id)


async def container_state(container_id: str) -> dict[str, object]:
    """The engine's inspect document of a container."""
    async with aiodocker.Docker() as docker:
        return await docker.containers.container(container_id).show()
