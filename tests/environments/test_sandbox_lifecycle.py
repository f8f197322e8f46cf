"""Sandbox lifecycle against a real engine: no container outlives its run."""

from __future__ import annotations

import itertools
import uuid

import aiodocker
import anyio
import pytest
from anyio.abc import TaskStatus
from anyio.lowlevel import checkpoint

from artemiskit._common._limits import MAX_FILE_BYTES
from artemiskit._errors import (
    EnvironmentFailureError,
    FileOperationError,
    UnsupportedError,
)
from artemiskit.environments.sandbox._engine import install_hint
from artemiskit.environments.sandbox._environment import (
    DockerSandboxEnvironment,
    DockerSandboxFactory,
    SandboxSettings,
)

from ._docker import (
    container_state,
    labelled_containers,
    remove_labelled,
    run_in_container,
)

_numbers = itertools.count(1)
#: Unique to this process: containers of other test processes on the same engine
#: (or leftovers of older code) never carry these run ids.
_PROCESS = uuid.uuid4().hex[:12]


def new_run_id(name: str) -> str:
    return f"lifecycle-{name}-{_PROCESS}-{next(_numbers)}"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.docker
async def test_normal_close_leaves_no_container() -> None:
    run_id = new_run_id("normal")
    environment = await DockerSandboxFactory().create(run_id=run_id, files={"a": "b"})
    assert await labelled_containers(run_id) == [environment.container_id]
    report = await environment.close()
    assert report.status == "complete"
    assert await labelled_containers(run_id) == []
    with pytest.raises(EnvironmentFailureError):
        await environment.read_file("a")


async def _running_container(run_id: str) -> str:
    """Observe the engine until the run's container is running."""
    while True:
        for container_id in await labelled_containers(run_id):
            try:
                state = await container_state(container_id)
            except aiodocker.DockerError as exc:  # gone between list and inspect
                if exc.status != 404:
                    raise
                continue
            if state["State"]["Running"]:  # type: ignore[index]
                return container_id
        await checkpoint()


@pytest.mark.docker
async def test_cancel_during_creation_leaves_no_container() -> None:
    run_id = new_run_id("cancel-create")
    # Enough initial files that creation is still writing them when cancelled.
    files = {f"f/{n}": "x" * MAX_FILE_BYTES for n in range(16)}
    created: list[DockerSandboxEnvironment] = []

    async def create(*, task_status: TaskStatus[None]) -> None:
        task_status.started()
        created.append(await DockerSandboxFactory().create(run_id=run_id, files=files))

    async with anyio.create_task_group() as group:
        await group.start(create)
        await _running_container(run_id)
        group.cancel_scope.cancel()
    for environment in created:
        await environment.close()
    assert created == [], "creation finished before it could be cancelled"
    assert await labelled_containers(run_id) == []


@pytest.mark.docker
async def test_cancel_during_a_file_operation_leaves_no_container() -> None:
    run_id = new_run_id("cancel-op")
    environment = await DockerSandboxFactory().create(run_id=run_id, files={"a": "b"})
    async with aiodocker.Docker() as docker:
        # A paused container cannot answer: the read is surely in flight.
        await docker.containers.container(environment.container_id).pause()
    async with anyio.create_task_group() as group:
        group.start_soon(environment.read_file, "a")
        await anyio.wait_all_tasks_blocked()
        group.cancel_scope.cancel()
    with pytest.raises(EnvironmentFailureError) as broken:
        await environment.read_file("a")
    assert broken.value.reason == "sandbox_broken"
    report = await environment.close()
    assert report.status == "complete"
    assert await labelled_containers(run_id) == []


@pytest.mark.docker
async def test_close_under_cancellation_still_cleans_up() -> None:
    run_id = new_run_id("cancelled-close")
    environment = await DockerSandboxFactory().create(run_id=run_id, files={})
    with anyio.CancelScope() as scope:
        scope.cancel()
        report = await environment.close()
    assert report.status == "complete"
    assert await labelled_containers(run_id) == []


@pytest.mark.docker
async def test_cleanup_that_times_out_is_reported_unresolved() -> None:
    run_id = new_run_id("timeout")
    environment = await DockerSandboxFactory().create(run_id=run_id, files={})
    try:
        report = await environment.close(timeout_ms=0)
        assert report.status == "unresolved"
        assert report.reason == "cleanup_timeout"
        assert report.unresolved == 1
        assert await environment.close() == report
        # Never under-reported (the container may be removing itself already).
        assert len(await labelled_containers(run_id)) <= report.unresolved
    finally:
        await remove_labelled(run_id)
    assert await labelled_containers(run_id) == []


@pytest.mark.docker
async def test_a_dead_helper_is_an_environment_failure() -> None:
    run_id = new_run_id("dead-helper")
    environment = await DockerSandboxFactory().create(run_id=run_id, files={"a": "b"})
    code, output = await run_in_container(
        environment.container_id,
        "kill -9 $(pidof sh | tr ' ' '\\n' | sort -n | head -1)",
    )
    assert code == 0, output
    with pytest.raises(EnvironmentFailureError):
        await environment.read_file("a")
    assert (await environment.close()).status == "complete"
    assert await labelled_containers(run_id) == []


@pytest.mark.docker
async def test_missing_image_is_unsupported_and_creates_nothing() -> None:
    run_id = new_run_id("no-image")
    factory = DockerSandboxFactory(SandboxSettings(image="artemiskit-absent:never"))
    with pytest.raises(UnsupportedError) as refused:
        await factory.create(run_id=run_id, files={})
    assert refused.value.exit_code == 3
    assert refused.value.reason == "sandbox_image_missing"
    assert "scripts/ci-docker.sh" in str(refused.value)
    assert install_hint("artemiskit-absent:never") in str(refused.value)
    assert await labelled_containers(run_id) == []


@pytest.mark.docker
async def test_invalid_initial_files_create_nothing() -> None:
    run_id = new_run_id("bad-files")
    with pytest.raises(FileOperationError) as refused:
        await DockerSandboxFactory().create(run_id=run_id, files={"../x": ""})
    assert refused.value.reason == "invalid_path"
    assert await labelled_containers(run_id) == []


async def test_unreachable_engine_is_unsupported() -> None:
    factory = DockerSandboxFactory(docker_url="unix:///nonexistent/docker.sock")
    with pytest.raises(UnsupportedError) as refused:
        await factory.create(run_id=new_run_id("no-engine"), files={})
    assert refused.value.exit_code == 3
    assert refused.value.reason == "sandbox_engine_unreachable"
    assert "scripts/ci-docker.sh" in str(refused.value)


async def test_unreachable_docker_host_is_unsupported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(UnsupportedError) as refused:
        await DockerSandboxFactory().create(run_id=new_run_id("no-host"), files={})
    assert refused.value.reason == "sandbox_engine_unreachable"


@pytest.mark.parametrize("anyio_backend", ["trio"])
async def test_trio_is_refused_clearly() -> None:
    with pytest.raises(UnsupportedError) as refused:
        await DockerSandboxFactory().create(run_id=new_run_id("trio"), files={})
    assert refused.value.exit_code == 3
    assert refused.value.reason == "sandbox_requires_asyncio"
    assert "asyncio" in str(refused.value)


def test_settings_refuse_root_and_bad_bounds() -> None:
    with pytest.raises(ValueError, match="non-zero"):
        SandboxSettings(user="0:0")
    with pytest.raises(ValueError, match="non-zero"):
        SandboxSettings(user="nobody")
    with pytest.raises(ValueError, match="work_dir"):
        SandboxSettings(work_dir="relative")
    with pytest.raises(ValueError, match="cleanup_timeout_ms"):
        DockerSandboxFactory(cleanup_timeout_ms=10_001)
    assert DockerSandboxFactory().default_cleanup_timeout_ms == 6_000
    assert DockerSandboxFactory().kind == "sandbox"


@pytest.mark.docker
async def test_close_of_a_paused_healthy_container_still_removes_it() -> None:
    # The helper cannot end by itself: close stops waiting for it and forces it.
    run_id = new_run_id("paused-close")
    environment = await DockerSandboxFactory().create(run_id=run_id, files={"a": "b"})
    async with aiodocker.Docker() as docker:
        await docker.containers.container(environment.container_id).pause()
    report = await environment.close()
    assert report.status == "complete"
    assert await labelled_containers(run_id) == []
