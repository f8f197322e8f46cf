"""Sandbox operations run one at a time, whoever calls them and whenever.

Against a real engine: operations started together from many tasks (large and
small, reads and writes) are served one after another, each with its own bytes;
an operation cancelled before it starts sends nothing and leaves the sandbox
usable.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import anyio
import pytest

from artemiskit.environments.sandbox._environment import (
    DockerSandboxEnvironment,
    DockerSandboxFactory,
)

from ._docker import remove_labelled

pytestmark = pytest.mark.docker


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def sandbox() -> AsyncIterator[DockerSandboxEnvironment]:
    run_id = f"concurrency-{uuid.uuid4().hex[:12]}"
    environment = await DockerSandboxFactory().create(run_id=run_id, files={})
    yield environment
    report = await environment.close()
    if report.status != "complete":
        await remove_labelled(run_id)


def _content(index: int) -> str:
    # Large (copied by dd, read at its size) and small (shell builtins) in turn.
    size = 64 * 1024 + index if index % 2 else 40 + index
    return chr(ord("a") + index) * size


async def test_operations_started_together_are_served_one_at_a_time(
    sandbox: DockerSandboxEnvironment,
) -> None:
    read_back: dict[int, str] = {}

    async def write_then_read(index: int) -> None:
        await sandbox.write_file(f"c/{index}.txt", _content(index))
        read_back[index] = await sandbox.read_file(f"c/{index}.txt")

    async with anyio.create_task_group() as group:
        for index in range(12):
            group.start_soon(write_then_read, index)
    assert read_back == {index: _content(index) for index in range(12)}
    assert await sandbox.list_files("c") == sorted(
        f"c/{index}.txt" for index in range(12)
    )


async def test_an_operation_cancelled_before_it_starts_leaves_the_sandbox_usable(
    sandbox: DockerSandboxEnvironment,
) -> None:
    await sandbox.write_file("kept.txt", "x" * 70_000)
    with anyio.CancelScope() as scope:
        scope.cancel()
        await sandbox.write_file("never.txt", "y" * 70_000)
    assert scope.cancelled_caught
    assert await sandbox.list_files() == ["kept.txt"]
    assert await sandbox.read_file("kept.txt") == "x" * 70_000
