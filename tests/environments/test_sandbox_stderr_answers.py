"""The two requests answered on stderr alone: ``S PATH S`` and ``C PATH N``.

A read at an expected size (``S``) and a write copied by ``dd`` (``C``) are
answered by the ``dd`` that moves their content: its record lines on stderr, or a
last ``ERR <reason>`` line there. Against the real helper (with and without its
worker forked ahead) the answers are the same bytes as ``R PATH =S`` and
``W PATH N +``, refusals keep the stream in step, and a malformed request is a
protocol error; without an engine, scripted wire answers of every shape are taken
or refused as the protocol says.
"""

from __future__ import annotations

import asyncio

import pytest

from artemiskit._common._limits import MAX_FILE_BYTES
from artemiskit._errors import EnvironmentFailureError, FileOperationError
from artemiskit.environments.sandbox._engine import helper_program

from .test_sandbox_frames import (
    _EXACT,
    _feed,
    _frame,
    _parsed_channel,
    _pings_in_step,
)
from .test_sandbox_framing import _scripted_channel

pytestmark = pytest.mark.docker

_HELPER = "set -- /tmp\n" + helper_program()
_WITHOUT_WORKER = _HELPER.replace("spawn() {\n", "spawn() {\n    return 0\n", 1)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("script", [_HELPER, _WITHOUT_WORKER], ids=["worker", "own"])
@pytest.mark.parametrize(
    "content",
    [b"\0" * 33, b"a\0" * 300, b"y" * 513, bytes(range(256)) * 256, b"z\n" * 98304],
    ids=["nuls", "small-nuls", "just-large", "64k-binary", "192k"],
)
async def test_a_copied_write_is_answered_by_its_records(
    script: str, content: bytes
) -> None:
    async with _scripted_channel(script) as channel:
        await channel.write_copied(f"C ~f {len(content)}\n", content)
        limit = MAX_FILE_BYTES
        assert await channel.read_frame("R ~f\n", limit=limit) == content
        size = len(content)
        assert await channel.read_at_size(f"S ~f {size}\n", size=size) == content
        # Replacing a longer file leaves exactly the new bytes.
        await channel.write_copied("C ~f 700\n", b"\0" * 700)
        assert await channel.read_frame("R ~f\n", limit=limit) == b"\0" * 700
        await channel.ping()


@pytest.mark.parametrize("script", [_HELPER, _WITHOUT_WORKER], ids=["worker", "own"])
async def test_a_refused_copied_write_keeps_the_stream_in_step(script: str) -> None:
    async with _scripted_channel(script) as channel:
        await channel.request("W ~d/f 2\n", b"ok")
        for header, reason in [
            ("C ~d 600\n", "is_directory"),
            ("C ~d/f/x 600\n", "not_a_directory"),
            ("C ~d//x 600\n", "invalid_path"),
        ]:
            with pytest.raises(FileOperationError) as refused:
                await channel.write_copied(header, b"\n" * 600)
            assert refused.value.reason == reason
            # The payload was consumed: the next request is answered normally.
            assert await channel.read_frame("R ~d/f\n", limit=10) == b"ok"


@pytest.mark.parametrize("script", [_HELPER, _WITHOUT_WORKER], ids=["worker", "own"])
async def test_a_read_at_size_answers_on_stderr(script: str) -> None:
    async with _scripted_channel(script) as channel:
        await channel.request("W ~two 2\n", b"xy")
        await channel.write_copied("C ~end 3\n", b"ab\0")
        await channel.request("W ~d/f 1\n", b"z")
        assert await channel.read_at_size("S ~two 2\n", size=2) == b"xy"
        # A wrong expected size is disowned (shorter or longer file).
        assert await channel.read_at_size("S ~two 5\n", size=5) is None
        assert await channel.read_at_size("S ~two 1\n", size=1) is None
        # A file ending in NUL is told from a padded shorter one.
        assert await channel.read_at_size("S ~end 3\n", size=3) == b"ab\0"
        assert await channel.read_at_size("S ~end 4\n", size=4) is None
        for header, reason in [
            ("S ~none 4\n", "not_found"),
            ("S ~d 4\n", "is_directory"),
            ("S ~two/x 4\n", "not_a_directory"),
            ("S ~./two 2\n", "invalid_path"),
        ]:
            with pytest.raises(FileOperationError) as refused:
                await channel.read_at_size(header, size=4)
            assert refused.value.reason == reason
            assert await channel.read_at_size("S ~two 2\n", size=2) == b"xy"
        await channel.ping()


@pytest.mark.parametrize("header", ["S ~two 0\n", "S ~two x\n", "C ~two 0\n"])
async def test_a_malformed_stderr_request_is_a_protocol_error(header: str) -> None:
    async with _scripted_channel("printf xy > /tmp/two\n" + _HELPER) as channel:
        request = (
            channel.read_at_size(header, size=2)
            if header.startswith("S")
            else channel.write_copied(header, b"")
        )
        with pytest.raises(EnvironmentFailureError) as failed:
            await request
        assert failed.value.reason == "sandbox_protocol"


#: What dd and the helper put on stderr when a copied write could not be stored.
_FULL = (
    b"dd: error writing 'standard output': No space left on device\n"
    b"0+1 records in\n0+0 records out\nERR environment_full\n"
)


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        ([_frame(2, _EXACT)], None),
        ([_frame(2, _EXACT[:9]), _frame(2, _EXACT[9:])], None),
        ([_frame(2, b"ERR is_directory\n")], "is_directory"),
        ([_frame(2, _FULL[:70]), _frame(2, _FULL[70:])], "environment_full"),
    ],
    ids=["records", "records-cut", "refused", "full"],
)
@pytest.mark.anyio
async def test_a_copied_write_is_judged_by_its_stderr(
    wire: list[bytes], reason: str | None
) -> None:
    channel, stream = await _parsed_channel()
    writing = asyncio.ensure_future(channel.write_copied("C ~f 3\n", b"abc"))
    await _feed(stream, wire)
    if reason is None:
        await writing
    else:
        with pytest.raises(FileOperationError) as refused:
            await writing
        assert refused.value.reason == reason
    assert stream._resp.connection.transport.written == b"C ~f 3\nabc"
    # Nothing of the answer is left over: the next request is answered normally.
    await _pings_in_step(channel, stream)


@pytest.mark.parametrize(
    "wire",
    [
        _frame(1, b"OK\n"),
        _frame(2, b"ERR protocol\n"),
        _frame(2, b"ERR\n"),
        _frame(2, b"x" * 600),
        _frame(2, b"1+0 records in\n0+1 records out\n") + _frame(1, b"OK\n"),
    ],
    ids=["stdout", "protocol", "no-reason", "long-stderr", "records-then-stdout"],
)
@pytest.mark.anyio
async def test_a_copied_write_outside_its_form_is_a_protocol_error(
    wire: bytes,
) -> None:
    channel, stream = await _parsed_channel()
    writing = asyncio.ensure_future(channel.write_copied("C ~f 3\n", b"abc"))
    await asyncio.sleep(0)
    stream.feed(wire)
    with pytest.raises(EnvironmentFailureError) as failed:
        await writing
    assert failed.value.reason == "sandbox_protocol"


@pytest.mark.parametrize(
    ("wire", "expected"),
    [
        ([_frame(1, b"ab"), _frame(1, b"c"), _frame(2, _EXACT)], b"abc"),
        ([_frame(2, _EXACT), _frame(1, b"abc")], b"abc"),
        ([_frame(2, b"ERR not_found\n")], "not_found"),
        ([_frame(2, b"ERR not_"), _frame(2, b"found\n")], "not_found"),
    ],
    ids=["content-first", "records-first", "refused", "refusal-cut"],
)
@pytest.mark.anyio
async def test_a_read_at_size_takes_its_answer_from_stderr(
    wire: list[bytes], expected: bytes | str
) -> None:
    channel, stream = await _parsed_channel()
    reading = asyncio.ensure_future(channel.read_at_size("S ~f 3\n", size=3))
    await _feed(stream, wire)
    if isinstance(expected, bytes):
        assert await reading == expected
    else:
        with pytest.raises(FileOperationError) as refused:
            await reading
        assert refused.value.reason == expected
    await _pings_in_step(channel, stream)


@pytest.mark.parametrize(
    "wire",
    [
        _frame(1, b"abc") + _frame(2, b"ERR not_found\n"),
        _frame(2, b"ERR protocol\n"),
        _frame(1, b"OK 3\nabc") + _frame(2, _EXACT),
    ],
    ids=["content-and-refusal", "protocol", "answer-line"],
)
@pytest.mark.anyio
async def test_a_read_at_size_outside_its_form_is_a_protocol_error(
    wire: bytes,
) -> None:
    channel, stream = await _parsed_channel()
    reading = asyncio.ensure_future(channel.read_at_size("S ~f 3\n", size=3))
    await asyncio.sleep(0)
    stream.feed(wire)
    with pytest.raises(EnvironmentFailureError) as failed:
        await reading
    assert failed.value.reason == "sandbox_protocol"
