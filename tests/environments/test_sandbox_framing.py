"""Sandbox file content travels as raw, length-framed bytes: any byte survives.

Against a real engine: hostile content round-trips exactly (and lands in the
container byte for byte), sizes around the helper's builtin limit, its 64 KiB copy
block and the maximum file size work, a file changing while it is read never puts
the stream out of step, and a helper that dies in the middle of a frame is a clean
`EnvironmentFailureError`, never a hang.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import aiodocker
import anyio
import pytest

from artemiskit._common._limits import MAX_FILE_BYTES
from artemiskit._errors import EnvironmentFailureError, FileOperationError
from artemiskit.environments.sandbox._channel import (
    BUILTIN_READ_BYTES,
    BUILTIN_WRITE_NULS,
    HelperChannel,
)
from artemiskit.environments.sandbox._engine import helper_program
from artemiskit.environments.sandbox._environment import (
    DockerSandboxEnvironment,
    DockerSandboxFactory,
)

from ._docker import (
    REMOVAL_BOUND_S,
    SANDBOX_IMAGE,
    output_in_container,
    remove_labelled,
    run_in_container,
)

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
#: Around the helper's builtin limit, its 64 KiB copy block and the attach
#: stream's chunks.
SIZES = [
    1,
    BUILTIN_READ_BYTES - 1,
    BUILTIN_READ_BYTES,
    BUILTIN_READ_BYTES + 1,
    4095,
    4096,
    4097,
    65535,
    65536,
    65537,
    3 * 65536,
    MAX_FILE_BYTES,
]


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
async def test_content_without_nul_round_trips_at_every_size(
    sandbox: DockerSandboxEnvironment, size: int
) -> None:
    # Without NUL, a file of up to the builtin limit is moved by shell builtins
    # alone; backslashes, newlines and multibyte characters count as bytes.
    unit = "é\\\n" + "x" * 60  # 64 bytes in UTF-8
    content = unit * (size // 64) + "y" * (size % 64)
    assert len(content.encode("utf-8")) == size
    await sandbox.write_file("plain.txt", content)
    assert await sandbox.read_file("plain.txt") == content
    assert await _digest_in_container(sandbox, "plain.txt") == (
        hashlib.sha256(content.encode("utf-8")).hexdigest()
    )


@pytest.mark.parametrize(
    "content",
    [
        "\0" * BUILTIN_WRITE_NULS,
        "\0" * (BUILTIN_WRITE_NULS + 1),
        "\0\n" * (BUILTIN_READ_BYTES // 2),
        "\0" * (BUILTIN_READ_BYTES + 1),
    ],
    ids=["builtin-nuls", "hinted-nuls", "small-half-nul", "large-nul"],
)
async def test_content_of_nul_bytes_round_trips(
    sandbox: DockerSandboxEnvironment, content: str
) -> None:
    # Many NULs in a small payload are hinted to the helper's dd (W PATH N +).
    await sandbox.write_file("nul.bin", content)
    assert await sandbox.read_file("nul.bin") == content
    assert await _digest_in_container(sandbox, "nul.bin") == (
        hashlib.sha256(content.encode()).hexdigest()
    )
    await sandbox.write_file("after.txt", "in step")
    assert await sandbox.read_file("after.txt") == "in step"


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


@contextlib.asynccontextmanager
async def _scripted_channel(script: str) -> AsyncIterator[HelperChannel]:
    """A channel to a container whose 'helper' is ``script`` (real stream).

    The channel is closed and the container removed when the block ends.
    """
    async with aiodocker.Docker() as docker:
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
        try:
            await channel.connect()
            await container.start()
            yield channel
        finally:
            await channel.close()
            try:
                await docker.containers.container(container.id).delete(force=True)
            except aiodocker.DockerError as exc:
                if exc.status not in (404, 409):
                    raise


@pytest.mark.parametrize(
    "script",
    [
        # Announces 1000 bytes, sends 10, dies.
        "read line; printf 'OK 1000\\n'; head -c 10 /dev/zero; exit 0",
        # Dies after half of the answer line.
        "read line; printf 'OK 10'; exit 0",
        # Killed by a signal in the middle of the content.
        "read line; printf 'OK 5000\\nabc'; kill -9 $$",
        # Streams content, dies before its count.
        "read line; printf 'OK +\\nabc'; exit 0",
        # Streams content and its count, dies before the last bytes.
        "read line; printf 'OK +\\nabc'; echo 5 >&2; exit 0",
    ],
    ids=["short-content", "half-line", "killed", "no-count", "short-stream"],
)
async def test_a_helper_that_dies_mid_frame_is_a_clean_failure(script: str) -> None:
    async with _scripted_channel(script) as channel:
        with pytest.raises(EnvironmentFailureError) as failed:
            await channel.read_frame("R ~a\n", limit=MAX_FILE_BYTES)
        assert failed.value.reason == "sandbox_helper_gone"


async def test_a_request_after_the_helper_is_gone_is_a_clean_failure() -> None:
    # The helper ends; once its end is seen, the engine has closed the stream.
    # Any request sent after that (a ping, a read or write answered by dd) is
    # the helper's end again, never the closed connection's own error.
    async with _scripted_channel("read line; exit 0") as channel:
        with pytest.raises(EnvironmentFailureError) as ended:
            await channel.ping()
        assert ended.value.reason == "sandbox_helper_gone"
        requests: list[Callable[[], Awaitable[object]]] = [
            channel.ping,
            lambda: channel.read_at_size("S ~big 4096\n", size=4096),
            lambda: channel.write_copied("C ~big 4096\n", b"y" * 4096),
        ]
        for request in requests:
            with pytest.raises(EnvironmentFailureError) as failed:
                await request()
            assert failed.value.reason == "sandbox_helper_gone"


@pytest.mark.parametrize(
    "answer",
    [
        "OK\\n",
        "OK -1\\n",
        "OK 01\\n",
        "OK 9999999999999\\n",
        "OK x\\n",
        "OK +\\nabc'; printf 'x\\n' >&2; printf '",
        "OK +\\nabc'; printf '03\\n' >&2; printf '",
        "OK +\\nabc'; printf '9999999\\n' >&2; printf '",
        "OK +\\nabc'; printf '12345678901234567' >&2; printf '",
    ],
)
async def test_a_malformed_or_oversized_length_is_a_protocol_error(
    answer: str,
) -> None:
    script = f"read line; printf '{answer}'; sleep 60"
    async with _scripted_channel(script) as channel:
        with pytest.raises(EnvironmentFailureError) as failed:
            await channel.read_frame("R ~a\n", limit=MAX_FILE_BYTES)
        assert failed.value.reason == "sandbox_protocol"


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


@pytest.mark.parametrize("first", ["count", "content"])
async def test_a_streamed_content_is_taken_by_its_count_in_either_order(
    first: str,
) -> None:
    # The count comes on stderr, which the engine forwards apart from stdout.
    count, content = "printf '5\\n' >&2", "printf 'OK +\\na\\0\\nb\\n'"
    steps = [count, content] if first == "count" else [content, count]
    script = f"read line; {'; '.join(steps)}; read line; printf 'OK\\n'; sleep 60"
    async with _scripted_channel(script) as channel:
        assert await channel.read_frame("R ~a\n", limit=MAX_FILE_BYTES) == (b"a\0\nb\n")
        await channel.ping()


#: A writer in the container that rewrites ``/work/f`` with two contents in
#: turn until ``/work/stop`` exists (shell builtins only: it changes fast). It
#: says "started" once the file exists.
_REWRITER = (
    'a=$(head -c {a} /dev/zero | tr "\\0" a); b=$(head -c {b} /dev/zero | tr "\\0" b); '
    ": > /work/f; echo started; while [ ! -e /work/stop ]; do "
    'printf %s "$a" > /work/f; printf %s "$b" > /work/f; done'
)


@pytest.mark.parametrize(
    ("a", "b"),
    [(100, 300), (70_000, 2_000)],
    ids=["builtin-sizes", "streamed-sizes"],
)
async def test_a_file_changing_while_it_is_read_never_puts_the_stream_out_of_step(
    sandbox: DockerSandboxEnvironment, a: int, b: int
) -> None:
    async with aiodocker.Docker() as docker:
        container = docker.containers.container(sandbox.container_id)
        execution = await container.exec(["sh", "-c", _REWRITER.format(a=a, b=b)])
        async with execution.start(detach=False) as stream:
            message = await stream.read_out()
            assert message is not None
            assert message.data == b"started\n"
            seen: set[int] = set()
            # At least 60 reads, more (bounded) until the writer, which a loaded
            # machine may hold back, has been seen at work.
            for count in range(5_000):
                if count >= 60 and len(seen) > 2:
                    break
                text = await sandbox.read_file("f")
                # A read may be torn (the writer truncates and rewrites under
                # it), but it holds file bytes only, never part of an answer.
                assert re.fullmatch(f"[ab]{{0,{max(a, b)}}}", text), len(text)
                seen.add(len(text))
            await sandbox.write_file("stop", "")
        # The reads saw the file change, and every answer kept the stream in step.
        assert len(seen) > 1
        await sandbox.write_file("after.txt", "in step")
        assert await sandbox.read_file("after.txt") == "in step"


@pytest.mark.parametrize("size", [64, 64 * 1024])
async def test_an_unwritable_file_is_refused_and_the_stream_stays_usable(
    sandbox: DockerSandboxEnvironment, size: int
) -> None:
    await sandbox.write_file("locked.txt", "before")
    code, output = await run_in_container(
        sandbox.container_id, "chmod 444 /work/locked.txt"
    )
    assert code == 0, output
    with pytest.raises(FileOperationError) as refused:
        await sandbox.write_file("locked.txt", "\n" * size)
    assert refused.value.reason == "invalid_path"
    assert await sandbox.read_file("locked.txt") == "before"
    await sandbox.write_file("open.txt", "fine")
    assert await sandbox.read_file("open.txt") == "fine"


@pytest.mark.parametrize("content", ["x" * 64, "\0x\0" * 21, "y" * 64 * 1024])
async def test_a_write_into_a_full_work_dir_is_environment_full(
    sandbox: DockerSandboxEnvironment, content: str
) -> None:
    code, output = await run_in_container(
        sandbox.container_id, "dd if=/dev/zero of=/work/fill bs=1M count=100"
    )
    assert code != 0, output
    with pytest.raises(FileOperationError) as refused:
        await sandbox.write_file("new/file.txt", content)
    assert refused.value.reason == "environment_full"
    assert await sandbox.list_files() == ["fill"]
    code, output = await run_in_container(sandbox.container_id, "rm /work/fill")
    assert code == 0, output
    await sandbox.write_file("new/file.txt", content)
    assert await sandbox.read_file("new/file.txt") == content


async def test_the_hints_choose_a_path_never_the_answer() -> None:
    # The real helper, on a scratch dir: the write hint ("+": use dd) and the
    # expected size of a read choose how the bytes move, never which bytes.
    script = "set -- /tmp\n" + helper_program()
    async with _scripted_channel(script) as channel:
        await channel.request("W ~nul 3 +\n", b"a\0b")
        await channel.request("W ~two 2\n", b"xy")
        await channel.request("W ~none 0 +\n")
        await channel.request("W ~end 3 +\n", b"ab\0")
        limit = MAX_FILE_BYTES
        assert await channel.read_frame("R ~nul\n", limit=limit) == b"a\0b"
        assert await channel.read_sized("R ~nul =3\n", size=3) == b"a\0b"
        assert await channel.read_frame("R ~two\n", limit=limit) == b"xy"
        assert await channel.read_sized("R ~two =2\n", size=2) == b"xy"
        assert await channel.read_frame("R ~none\n", limit=limit) == b""
        # A wrong expected size is disowned (shorter or longer file).
        assert await channel.read_sized("R ~two =5\n", size=5) is None
        assert await channel.read_sized("R ~two =1\n", size=1) is None
        # A file ending in NUL is told from a padded shorter one.
        assert await channel.read_sized("R ~end =3\n", size=3) == b"ab\0"
        assert await channel.read_sized("R ~end =2\n", size=2) is None
        assert await channel.read_sized("R ~end =4\n", size=4) is None
        assert await channel.read_frame("R ~end\n", limit=limit) == b"ab\0"
        await channel.ping()


@pytest.mark.parametrize("header", ["R ~two +\n", "R ~two =0\n", "R ~two =x\n"])
async def test_a_malformed_read_hint_is_a_protocol_error(header: str) -> None:
    script = "set -- /tmp\nprintf xy > /tmp/two\n" + helper_program()
    async with _scripted_channel(script) as channel:
        with pytest.raises(EnvironmentFailureError) as failed:
            await channel.read_frame(header, limit=MAX_FILE_BYTES)
        assert failed.value.reason == "sandbox_protocol"


@pytest.mark.parametrize(
    "change",
    [
        "printf %0700d 7 > /work/f",  # longer than written
        "printf %0600d 7 > /work/f",  # shorter than written
        "printf %0650d 7 > /work/f",  # the same size, other bytes
        "printf 'a\\0b' > /work/f",  # small, with a NUL
        ": > /work/f",  # empty
        "printf %0649d 7 > /work/f; printf '\\0' >> /work/f",  # ends in NUL
    ],
    ids=["longer", "shorter", "same-size", "small", "empty", "nul-ending"],
)
async def test_a_file_changed_inside_the_container_reads_back_as_it_is(
    sandbox: DockerSandboxEnvironment, change: str
) -> None:
    await sandbox.write_file("f", "w" * 650)
    code, output = await run_in_container(sandbox.container_id, change)
    assert code == 0, output
    _, expected = await run_in_container(sandbox.container_id, "cat /work/f")
    assert await sandbox.read_file("f") == expected
    await sandbox.write_file("after.txt", "in step")
    assert await sandbox.read_file("after.txt") == "in step"


#: Kills the helper's worker, once there is one, and prints its pid just
#: before. The helper is the container's first ``sh``; its worker is the live
#: ``sh`` it forked. Right after a large operation there may be none yet (the
#: helper forks it once the copier, a ``dd``, has ended), and the ``dd`` may
#: still be its child (a zombie until reaped, or being reaped): /proc is
#: polled, bounded, with builtins only, until the worker is there.
_KILL_THE_WORKER = (
    "h=$(pidof sh | tr ' ' '\\n' | sort -n | head -1); i=0; "
    "while [ $i -lt 100000 ]; do "
    "for s in /proc/[0-9]*/stat; do "
    "read -r pid comm state ppid _ < $s 2>/dev/null || continue; "
    'if [ "$ppid" = "$h" ] && [ "$comm" = "(sh)" ] && [ "$state" != Z ]; then '
    'echo "$pid"; kill -9 "$pid"; exit; fi; done; '
    "i=$((i + 1)); done; echo 'no worker'; exit 1"
)


@pytest.mark.parametrize("operation", ["write", "read"])
async def test_a_killed_copier_ends_the_helper_cleanly(
    sandbox: DockerSandboxEnvironment, operation: str
) -> None:
    # A large write, and a read at the size written, is copied by a process
    # the helper forked ahead of it. If that process is killed, the helper
    # ends: its next payload may be half read, or its answer half sent, so the
    # stream is never trusted again, and the next operation is a clean failure.
    await sandbox.write_file("big.txt", "x" * 4096)
    # The script kills the worker as its last act: the helper ends, and with
    # it the container and every process in it, maybe the script before it
    # exits (SIGKILL), and the exec's record (its exit code) with the container.
    # Its output says it found the worker; the rest of the test, that it
    # killed it.
    output = await output_in_container(sandbox.container_id, _KILL_THE_WORKER)
    assert re.fullmatch(r"[0-9]+\n", output), output
    large = (
        sandbox.write_file("big.txt", "y" * 4096)
        if operation == "write"
        else sandbox.read_file("big.txt")
    )
    with pytest.raises(EnvironmentFailureError) as failed:
        await large
    assert failed.value.reason == "sandbox_helper_gone"
    # The container ended with its helper (it is not running, or already gone).
    async with aiodocker.Docker() as docker:
        container = docker.containers.container(sandbox.container_id)
        try:
            with anyio.fail_after(REMOVAL_BOUND_S):
                await container.wait(condition="not-running")
        except aiodocker.DockerError as exc:
            if exc.status != 404:  # 404: removed already
                raise


async def test_without_a_copier_the_helper_answers_the_same() -> None:
    # If the helper cannot fork its copier ahead, it runs each dd itself: the
    # same answers, at every size and for a file changed behind its back.
    script = "set -- /tmp\n" + helper_program().replace(
        "spawn() {\n", "spawn() {\n    return 0\n", 1
    )
    async with _scripted_channel(script) as channel:
        await channel.request("W ~big 700\n", b"x\0" * 350)
        await channel.request("W ~text 700\n", b"y" * 700)
        assert await channel.read_sized("R ~text =700\n", size=700) == b"y" * 700
        assert await channel.read_sized("R ~text =699\n", size=699) is None
        assert await channel.read_sized("R ~text =701\n", size=701) is None
        assert await channel.read_sized("R ~big =700\n", size=700) == (b"x\0" * 350)
        assert await channel.read_sized("R ~big =300\n", size=300) is None
        limit = MAX_FILE_BYTES
        assert await channel.read_frame("R ~big\n", limit=limit) == b"x\0" * 350
        await channel.ping()
