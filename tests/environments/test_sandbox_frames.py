"""The attach stream's frames reach the helper channel whole, however they arrive.

Without an engine: `FrameBuffer` splits frames cut anywhere across the connection's
reads, routes stdout and stderr apart and drops other streams; a stream of another
shape is read through ``read_out`` instead, with the same answers; the connection
pauses once far more than asked for is buffered and resumes when asked for more;
asyncio's read size is lowered on the connection's transport.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any, NamedTuple

import pytest

from artemiskit._errors import EnvironmentFailureError
from artemiskit.environments.sandbox._channel import HelperChannel
from artemiskit.environments.sandbox._frames import FrameBuffer


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _frame(stream: int, payload: bytes) -> bytes:
    return struct.pack(">BxxxL", stream, len(payload)) + payload


#: dd's record lines after a sized read: the file held exactly S bytes, fewer,
#: up to 2 S, more, none.
_EXACT = b"1+0 records in\n1+0 records out\n"
_SHORT = b"0+1 records in\n1+0 records out\n"
_LONGER = b"1+1 records in\n2+0 records out\n"
_LONGEST = b"2+0 records in\n2+0 records out\n"
_EMPTY = b"0+0 records in\n0+0 records out\n"


class _Message(NamedTuple):
    stream: int
    data: bytes


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.reading = True
        self.max_size = 256 * 1024
        self.written = bytearray()

    def is_reading(self) -> bool:
        return self.reading

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def write(self, data: Any) -> None:
        self.written += data


class _Protocol:
    def __init__(self, transport: _Transport) -> None:
        self.transport = transport
        self.parser: Any = None

    def set_parser(self, parser: Any, payload: Any) -> None:
        self.parser = parser

    async def _drain_helper(self) -> None:
        return None


class _Connection(NamedTuple):
    protocol: _Protocol
    transport: _Transport


class _Response(NamedTuple):
    connection: _Connection


class _ParsedStream:
    """The shape aiodocker's attach stream has: the parser is swapped in."""

    def __init__(self) -> None:
        transport = _Transport()
        self.protocol = _Protocol(transport)
        self._resp = _Response(_Connection(self.protocol, transport))
        self._queue = object()

    async def __aenter__(self) -> _ParsedStream:
        return self

    async def write_in(self, data: bytes) -> None:
        self._resp.connection.transport.write(data)

    async def read_out(self) -> None:
        raise AssertionError("the parser replaces read_out")

    def feed(self, data: bytes) -> None:
        self.protocol.parser.feed_data(data)


class _QueuedStream:
    """A stream of another shape: its frames come one by one from read_out."""

    def __init__(self, messages: list[_Message]) -> None:
        self._messages = messages
        self.written = bytearray()

    async def __aenter__(self) -> _QueuedStream:
        return self

    async def write_in(self, data: bytes) -> None:
        self.written += data

    async def read_out(self) -> _Message | None:
        await asyncio.sleep(0)
        return self._messages.pop(0) if self._messages else None


async def _parsed_channel() -> tuple[HelperChannel, _ParsedStream]:
    stream = _ParsedStream()
    channel = HelperChannel(stream)  # type: ignore[arg-type]
    await channel.connect()
    assert isinstance(stream.protocol.parser, FrameBuffer)
    return channel, stream


async def _feed(stream: _ParsedStream, chunks: list[bytes]) -> None:
    """Give the channel each chunk in turn, letting it read between them."""
    for chunk in chunks:
        await asyncio.sleep(0)
        stream.feed(chunk)


async def _pings_in_step(channel: HelperChannel, stream: _ParsedStream) -> None:
    """The next request is answered normally: nothing of an answer was left over."""
    pinging = asyncio.ensure_future(channel.ping())
    await asyncio.sleep(0)
    stream.feed(_frame(1, b"OK\n"))
    await pinging


@pytest.mark.anyio
async def test_frames_cut_anywhere_are_put_back_together() -> None:
    channel, stream = await _parsed_channel()
    wire = (
        _frame(1, b"OK 5\nab")
        + _frame(0, b"ignored stdin echo")
        + _frame(1, b"cde")
        + _frame(2, _EXACT)
    )
    reading = asyncio.ensure_future(channel.read_sized("R ~f =5\n", size=5))
    for byte in range(len(wire)):
        await asyncio.sleep(0)
        stream.feed(wire[byte : byte + 1])
    assert await reading == b"abcde"
    assert stream._resp.connection.transport.written == b"R ~f =5\n"


@pytest.mark.parametrize(
    ("wire", "expected"),
    [
        ([_frame(1, b"OK 3\nab"), _frame(1, b"\0"), _frame(2, _EXACT)], b"ab\0"),
        ([_frame(2, _EXACT), _frame(1, b"OK 3\nabc")], b"abc"),
        ([_frame(1, b"OK 3\nab\0"), _frame(2, _SHORT)], None),
        ([_frame(1, b"OK 3\nabcd\0\0"), _frame(2, _LONGER)], None),
        ([_frame(1, b"OK 3\nabcdef"), _frame(2, _LONGEST)], None),
        ([_frame(1, b"OK 3\n"), _frame(2, _EMPTY)], None),
    ],
    ids=["exact", "records-first", "shorter", "longer", "longest", "empty"],
)
@pytest.mark.anyio
async def test_a_sized_read_is_judged_by_the_records(
    wire: list[bytes], expected: bytes | None
) -> None:
    # One or two blocks of S bytes come (the last NUL padded) and dd's records:
    # the bytes are the file's only when it held exactly S bytes (one full
    # block, then its end); the stream stays in step in every case.
    channel, stream = await _parsed_channel()
    reading = asyncio.ensure_future(channel.read_sized("R ~f =3\n", size=3))
    await _feed(stream, wire)
    assert await reading == expected
    await _pings_in_step(channel, stream)


@pytest.mark.parametrize(
    "wire",
    [
        _frame(1, b"OK 3\nabc") + _frame(2, b"0+1 records in\n0+1 records out\n"),
        _frame(1, b"OK 3\nabc") + _frame(2, _EXACT + b"x\n"),
        _frame(1, b"OK 3\nabcdefg") + _frame(2, b"1+0 records in\n"),
        _frame(1, b"OK 4\nabc") + _frame(2, _EXACT),
    ],
    ids=["unknown-records", "more-stderr", "too-much-content", "other-size"],
)
@pytest.mark.anyio
async def test_a_sized_read_outside_its_form_is_a_protocol_error(wire: bytes) -> None:
    channel, stream = await _parsed_channel()
    reading = asyncio.ensure_future(channel.read_sized("R ~f =3\n", size=3))
    await asyncio.sleep(0)
    stream.feed(wire)
    with pytest.raises(EnvironmentFailureError) as failed:
        await reading
    assert failed.value.reason == "sandbox_protocol"


@pytest.mark.anyio
async def test_streamed_content_takes_its_count_from_stderr() -> None:
    channel, stream = await _parsed_channel()
    reading = asyncio.ensure_future(channel.read_frame("R ~f\n", limit=10))
    await asyncio.sleep(0)
    stream.feed(_frame(1, b"OK +\nxyz") + _frame(2, b"3\n"))
    assert await reading == b"xyz"


@pytest.mark.parametrize(
    ("wire", "ends", "reason"),
    [
        (_frame(1, b"OK 50\nabc"), True, "sandbox_helper_gone"),
        (
            _frame(1, b"OK +\nabc") + _frame(2, b"1234567890123456\n"),
            False,
            "sandbox_protocol",
        ),
    ],
    ids=["ends-midway", "long-stderr"],
)
@pytest.mark.anyio
async def test_a_broken_answer_fails_cleanly(
    wire: bytes, ends: bool, reason: str
) -> None:
    channel, stream = await _parsed_channel()
    reading = asyncio.ensure_future(channel.read_frame("R ~f\n", limit=100))
    await asyncio.sleep(0)
    stream.feed(wire)
    if ends:
        stream.protocol.parser.set_exception(ConnectionResetError())
    with pytest.raises(EnvironmentFailureError) as failed:
        await reading
    assert failed.value.reason == reason


@pytest.mark.anyio
async def test_the_connection_pauses_past_what_was_asked_and_resumes() -> None:
    channel, stream = await _parsed_channel()
    transport = stream._resp.connection.transport
    assert transport.max_size == 64 * 1024
    # Nobody reads: a flood past the slack pauses the connection.
    stream.feed(_frame(1, b"OK\n") + _frame(1, b"x" * (300 * 1024)))
    assert not transport.is_reading()
    assert await channel.request("P\n") == ""
    # Asking for more than is buffered resumes it.
    reading = asyncio.ensure_future(channel.read_sized("R ~f =400000\n", size=400000))
    await asyncio.sleep(0)
    assert transport.is_reading()
    reading.cancel()


@pytest.mark.anyio
async def test_a_stream_of_another_shape_is_read_frame_by_frame() -> None:
    stream = _QueuedStream(
        [
            _Message(1, b"OK 5\nab"),
            _Message(0, b"ignored"),
            _Message(1, b"cde"),
            _Message(2, _EXACT),
            _Message(1, b"OK +\nxy"),
            _Message(2, b"2\n"),
        ]
    )
    channel = HelperChannel(stream)  # type: ignore[arg-type]
    await channel.connect()
    assert await channel.read_sized("R ~f =5\n", size=5) == b"abcde"
    assert await channel.read_frame("R ~g\n", limit=10) == b"xy"
    with pytest.raises(EnvironmentFailureError) as failed:
        await channel.ping()
    assert failed.value.reason == "sandbox_helper_gone"
    assert stream.written == b"R ~f =5\nR ~g\nP\n"
