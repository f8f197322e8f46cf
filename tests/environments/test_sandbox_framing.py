"""Sandbox file content travels as raw, length-framed bytes: any byte survives.

Against a real engine: hostile content round-trips exactly (and lands in the
container byte for byte), sizes around the helper's 64 KiB copy block and the
maximum file size work, and a helper that dies in the middle of a frame is a clean
`EnvironmentFailureError`, never a hang.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import AsyncIterator

import aiodocker
import pytest

from artemiskit._common._limits import MAX_FILE_BYTES
from artemiskit._errors import EnvironmentFailureError, FileOperationError
from artemiskit.environments._sandbox import (
    DockerSandboxEnvironment,
    DockerSandboxFactory,
)
from artemiskit.environments._sandbox_channel import HelperChannel

from ._docker import SANDBOX_IMAGE, remove_labelled, run_in_container

pytestmark = pytest.mark.docker

_PROCESS = uuid.uuid4().hex[:12]

HOSTILE = [
    "",
    "\x00",
    "\x00\x00a\x00",
    "\n",
    "line\nOK 5\nERR protocol\n",
    "no newline at the end",
    "\r\n\r\n",
    "é✓ 🙂 \u2028\u2029",
    "\ud800 lone surrogate \udfff",
    "\x10\x11 ctrl-p ctrl-q \x1b[0m \x04 eof",
    "".join(chr(c) for c in range(128)),
]
#: Around the helper's 64 KiB copy block and the attach stream's chunks.
SIZES = [1, 4095, 4096, 4097, 65535, 65536, 65537, 3 * 65536, MAX_FILE_BYTES]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def sandbox() -> AsyncIterator[DockerSandboxEnvironment]:
    run_id = f"framing-{_PROCESS}-{uuid.uuid4().hex[:8]}"
    environment = await DockerSandboxFactory().create(run_id=run_id, files={})
    yield environment
    report = await environment.close()
    if report.status != "complete":
        await remove_labelled(run_id)


async def _digest_in_container(sandbox: DockerSandboxEnvironment, path: str) -> str:
    code, output = await run_in_container(
        sandbox.container_id, f"sha256sum /work/{path}"
    )
    assert code == 0, output
    return output.split()[0]


@pytest.mark.parametrize("index", range(len(HOSTILE)))
async def test_hostile_content_round_trips_byte_for_byte(
    sandbox: DockerSandboxEnvironment, index: int
) -> None:
    content = HOSTILE[index]
    await sandbox.write_file("h/file.txt", content)
    assert await sandbox.read_file("h/file.txt") == content
    raw = content.encode("utf-8", "surrogatepass")
    assert await _digest_in_container(sandbox, "h/file.txt") == (
        hashlib.sha256(raw).hexdigest()
    )
    # The stream stays in step: the next request is answered normally.
    assert await sandbox.list_files() == ["h/file.txt"]


@pytest.mark.parametrize("size", SIZES)
async def test_sizes_around_block_boundaries_and_the_maximum(
    sandbox: DockerSandboxEnvironment, size: int
) -> None:
    unit = "\x00\n" + "x" * 60 + "é"  # 64 bytes in UTF-8
    content = unit * (size // 64) + "y" * (size % 64)
    assert len(content.encode("utf-8")) == size
    await sandbox.write_file("big.bin", content)
    assert await sandbox.read_file("big.bin") == content
    await sandbox.write_file("small.txt", "after")
    assert await sandbox.read_file("small.txt") == "after"


async def test_one_byte_over_the_maximum_is_refused_and_the_stream_stays_usable(
    sandbox: DockerSandboxEnvironment,
) -> None:
    with pytest.raises(FileOperationError) as refused:
        await sandbox.write_file("big.bin", "z" * (MAX_FILE_BYTES + 1))
    assert refused.value.reason == "file_too_large"
    await sandbox.write_file("ok.txt", "fine")
    assert await sandbox.read_file("ok.txt") == "fine"


async def test_bytes_that_are_not_utf8_read_back_with_replacement(
    sandbox: DockerSandboxEnvironment,
) -> None:
    code, output = await run_in_container(
        sandbox.container_id,
        r"printf 'a\377\376\000b\300\n' > /work/raw.bin",
    )
    assert code == 0, output
    assert await sandbox.read_file("raw.bin") == "a\ufffd\ufffd\x00b\ufffd\n"
    await sandbox.write_file("next.txt", "still in step")
    assert await sandbox.read_file("next.txt") == "still in step"


async def _scripted_channel(
    docker: aiodocker.Docker, script: str
) -> tuple[HelperChannel, str]:
    """A channel to a container whose 'helper' is ``script`` (real stream)."""
    container = await docker.containers.create(
        {
            "Image": SANDBOX_IMAGE,
            "Cmd": ["/bin/sh", "-c", script],
            "AttachStdin": True,
            "AttachStdout": True,
            "AttachStderr": True,
            "OpenStdin": True,
            "StdinOnce": True,
            "NetworkDisabled": True,
            "HostConfig": {"NetworkMode": "none", "AutoRemove": True},
        }
    )
    channel = HelperChannel(container.attach(stdin=True, stdout=True, stderr=True))
    await channel.connect()
    await container.start()
    return channel, container.id


@pytest.mark.parametrize(
    "script",
    [
        # Announces 1000 bytes, sends 10, dies.
        "read line; printf 'OK 1000\\n'; head -c 10 /dev/zero; exit 0",
        # Dies after half of the answer line.
        "read line; printf 'OK 10'; exit 0",
        # Killed by a signal in the middle of the content.
        "read line; printf 'OK 5000\\nabc'; kill -9 $$",
    ],
    ids=["short-content", "half-line", "killed"],
)
async def test_a_helper_that_dies_mid_frame_is_a_clean_failure(script: str) -> None:
    async with aiodocker.Docker() as docker:
        channel, container_id = await _scripted_channel(docker, script)
        try:
            with pytest.raises(EnvironmentFailureError) as failed:
                await channel.read_frame("R ~a\n", limit=MAX_FILE_BYTES)
            assert failed.value.reason == "sandbox_helper_gone"
        finally:
            await channel.close()
            try:
                await docker.containers.container(container_id).delete(force=True)
            except aiodocker.DockerError as exc:
                if exc.status not in (404, 409):
                    raise


@pytest.mark.parametrize(
    "answer", ["OK\\n", "OK -1\\n", "OK 01\\n", "OK 9999999999999\\n", "OK x\\n"]
)
async def test_a_malformed_or_oversized_length_is_a_protocol_error(
    answer: str,
) -> None:
    script = f"read line; printf '{answer}'; sleep 60"
    async with aiodocker.Docker() as docker:
        channel, container_id = await _scripted_channel(docker, script)
        try:
            with pytest.raises(EnvironmentFailureError) as failed:
                await channel.read_frame("R ~a\n", limit=MAX_FILE_BYTES)
            assert failed.value.reason == "sandbox_protocol"
        finally:
            await channel.close()
            try:
                await docker.containers.container(container_id).delete(force=True)
            except aiodocker.DockerError as exc:
                if exc.status not in (404, 409):
                    raise


async def test_an_unreadable_file_is_refused_and_the_stream_stays_usable(
    sandbox: DockerSandboxEnvironment,
) -> None:
    await sandbox.write_file("locked.txt", "secret")
    code, output = await run_in_container(
        sandbox.container_id, "chmod 000 /work/locked.txt"
    )
    assert code == 0, output
    with pytest.raises(FileOperationError) as refused:
        await sandbox.read_file("locked.txt")
    assert refused.value.reason == "invalid_path"
    await sandbox.write_file("open.txt", "fine")
    assert await sandbox.read_file("open.txt") == "fine"
