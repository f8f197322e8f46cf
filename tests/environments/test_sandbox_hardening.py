"""Each hardening setting of the sandbox, proved from inside a real container."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import AsyncIterator

import pytest

from artemiskit._common._limits import MAX_FILE_BYTES
from artemiskit._errors import FileOperationError
from artemiskit.environments.sandbox._environment import (
    RUN_ID_LABEL,
    SANDBOX_LABEL,
    DockerSandboxEnvironment,
    DockerSandboxFactory,
    SandboxSettings,
)

from ._docker import container_state, labelled_containers, run_in_container

pytestmark = pytest.mark.docker

MIB = 1024 * 1024
SETTINGS = SandboxSettings(
    memory_bytes=96 * MIB,
    pids_limit=24,
    tmpfs_size_bytes=6 * MIB,
    nano_cpus=500_000_000,
)
_numbers = itertools.count(1)
#: Unique to this process (see test_sandbox_lifecycle.py).
_PROCESS = uuid.uuid4().hex[:12]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def sandbox() -> AsyncIterator[DockerSandboxEnvironment]:
    run_id = f"hardening-{_PROCESS}-{next(_numbers)}"
    environment = await DockerSandboxFactory(SETTINGS).create(
        run_id=run_id, files={"notes/a.txt": "hello"}
    )
    try:
        yield environment
    finally:
        report = await environment.close()
    assert report.status == "complete"
    assert await labelled_containers(run_id) == []


async def test_only_the_loopback_interface(sandbox: DockerSandboxEnvironment) -> None:
    code, output = await run_in_container(sandbox.container_id, "ls /sys/class/net")
    assert (code, output.split()) == (0, ["lo"])
    state = await container_state(sandbox.container_id)
    assert state["HostConfig"]["NetworkMode"] == "none"  # type: ignore[index]


async def test_root_filesystem_is_read_only(sandbox: DockerSandboxEnvironment) -> None:
    for target in ("/x", "/etc/passwd", "/tmp/x", "/bin/x"):
        code, output = await run_in_container(
            sandbox.container_id, f"echo x > {target}"
        )
        assert code != 0
        assert "Read-only file system" in output


async def test_no_capabilities_and_no_new_privileges(
    sandbox: DockerSandboxEnvironment,
) -> None:
    code, output = await run_in_container(sandbox.container_id, "cat /proc/1/status")
    assert code == 0
    fields = dict(line.split(":", 1) for line in output.splitlines() if ":" in line)
    for capability in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert fields[capability].strip() == "0000000000000000", capability
    assert fields["NoNewPrivs"].strip() == "1"


async def test_everything_runs_as_the_non_root_user(
    sandbox: DockerSandboxEnvironment,
) -> None:
    code, output = await run_in_container(
        sandbox.container_id, "id -u; id -g; stat -c '%u %g' /work /work/notes/a.txt"
    )
    assert code == 0
    assert output.split("\n")[:4] == ["65534", "65534", "65534 65534", "65534 65534"]
    code, output = await run_in_container(
        sandbox.container_id, "for s in /proc/[0-9]*/status; do grep ^Uid: $s; done"
    )
    assert code == 0
    uids = {line.split()[1] for line in output.splitlines() if line.startswith("Uid")}
    assert uids == {"65534"}


async def test_ipc_namespace_is_private_without_shm(
    sandbox: DockerSandboxEnvironment,
) -> None:
    code, output = await run_in_container(sandbox.container_id, "ls -d /dev/shm")
    assert code != 0
    assert "No such file" in output
    state = await container_state(sandbox.container_id)
    assert state["HostConfig"]["IpcMode"] == "none"  # type: ignore[index]


async def test_a_fork_loop_is_stopped_by_the_pid_limit(
    sandbox: DockerSandboxEnvironment,
) -> None:
    code, output = await run_in_container(
        sandbox.container_id,
        "i=0; while [ $i -lt 200 ]; do sleep 600 & i=$((i+1)); done; echo finished",
    )
    assert code != 0
    assert "can't fork" in output
    assert "finished" not in output


async def test_the_tmpfs_work_dir_is_size_bounded(
    sandbox: DockerSandboxEnvironment,
) -> None:
    code, output = await run_in_container(
        sandbox.container_id, "dd if=/dev/zero of=/work/fill bs=1M count=64"
    )
    assert code != 0
    assert "No space left on device" in output
    code, output = await run_in_container(
        sandbox.container_id, "rm /work/fill; df -k /work | tail -1"
    )
    assert code == 0
    assert output.split()[1] == str(SETTINGS.tmpfs_size_bytes // 1024)
    # Through the helper, a full tmpfs is the same refusal as the 64 MiB bound.
    block = "x" * MAX_FILE_BYTES
    for n in range(5):
        await sandbox.write_file(f"big/{n}", block)
    with pytest.raises(FileOperationError) as refused:
        await sandbox.write_file("big/5", block)
    assert refused.value.reason == "environment_full"
    assert await sandbox.list_files("big") == [f"big/{n}" for n in range(5)]
    assert await sandbox.read_file("notes/a.txt") == "hello"


async def test_the_work_dir_is_not_executable(
    sandbox: DockerSandboxEnvironment,
) -> None:
    await sandbox.write_file("run.sh", "#!/bin/sh\necho ran\n")
    code, output = await run_in_container(
        sandbox.container_id, "chmod +x /work/run.sh; /work/run.sh"
    )
    assert code != 0
    assert "ran" not in output.replace("run.sh", "")


async def test_limits_init_and_labels(sandbox: DockerSandboxEnvironment) -> None:
    state = await container_state(sandbox.container_id)
    host = state["HostConfig"]
    assert isinstance(host, dict)
    assert host["Memory"] == host["MemorySwap"] == SETTINGS.memory_bytes
    assert host["NanoCpus"] == SETTINGS.nano_cpus
    assert host["PidsLimit"] == SETTINGS.pids_limit
    assert host["ReadonlyRootfs"] is True
    assert host["CapDrop"] == ["ALL"]
    assert host["SecurityOpt"] == ["no-new-privileges"]
    assert host["Init"] is True
    config = state["Config"]
    assert isinstance(config, dict)
    assert config["User"] == "65534:65534"
    assert config["Labels"][SANDBOX_LABEL] == "1"
    assert config["Labels"][RUN_ID_LABEL] == sandbox.run_id
    code, output = await run_in_container(sandbox.container_id, "cat /proc/1/cmdline")
    assert code == 0
    assert output.split("\0")[0].endswith("docker-init")
