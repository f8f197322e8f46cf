"""The helper's output as the container's attach stream carries it, split by stream.

Docker multiplexes a container's stdout and stderr on the attach connection as
frames: an 8-byte header (the stream number, three zero bytes, the payload length,
big-endian) then the payload. aiodocker's `Stream.read_out` hands out one frame at
a time, each copied three times and woken through a queue; for a file of 64 KiB
that is most of the host's work. `FrameBuffer` is installed as the connection's
payload parser instead (`attach`): it appends each payload to one buffer per stream
as bytes arrive and wakes the single reader only once what it asked for is there.
When the connection does not have the expected shape (another aiodocker), the
buffer is filled from `Stream.read_out` instead, with the same result.

Memory stays bounded: past what the reader asked for (or `_SLACK_BYTES` when no
one reads), the connection stops reading until the reader takes the bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aiodocker.stream import Stream

__all__ = ["FrameBuffer"]

_HEADER_BYTES = 8
_STDOUT = 1
_STDERR = 2
#: Bytes buffered beyond what the reader asked for before the connection pauses.
_SLACK_BYTES = 256 * 1024
#: The most bytes one socket read takes (asyncio's default is 256 KiB).
_RECV_BYTES = 64 * 1024


class FrameBuffer:
    """The stdout and stderr bytes of one attach stream, for one reader at a time.

    Args:
        stream: The attached stream (already entered).
    """

    def __init__(self, stream: Stream) -> None:
        self.out = bytearray()
        self.err = bytearray()
        self._stream = stream
        self._ended = False
        self._partial = b""
        self._waiter: asyncio.Future[None] | None = None
        self._want_out = 0
        self._seen_err = 0
        self._transport: asyncio.Transport | None = None
        self._parsing = False

    def attach(self) -> None:
        """Become the connection's payload parser, if it has the expected shape.

        Call it once the stream is entered and before the container starts, so
        that no frame has been parsed by aiodocker yet.
        """
        response = getattr(self._stream, "_resp", None)
        connection = getattr(response, "connection", None)
        protocol: Any = getattr(connection, "protocol", None)
        transport = getattr(protocol, "transport", None)
        queue = getattr(self._stream, "_queue", None)
        if not isinstance(transport, asyncio.Transport):
            return
        # asyncio reads a socket into a new buffer of `max_size` bytes: at its
        # default of 256 KiB the allocator maps and unmaps that buffer on every
        # read, which costs more than the bytes it carries; 64 KiB comes from the
        # heap. (Transports without the attribute, such as uvloop's, keep theirs.)
        if isinstance(getattr(transport, "max_size", None), int):
            with contextlib.suppress(AttributeError):
                setattr(transport, "max_size", _RECV_BYTES)  # noqa: B010
        if queue is None or not callable(getattr(protocol, "set_parser", None)):
            return
        self._transport = transport
        self._parsing = True
        protocol.set_parser(self, queue)

    # The parser interface aiohttp calls (see ResponseHandler.data_received).
    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        """Take the connection's next bytes: complete frames go to their stream."""
        if self._partial:
            data = self._partial + data
            self._partial = b""
        view = memoryview(data)
        size = len(data)
        start = 0
        while size - start >= _HEADER_BYTES:
            length = int.from_bytes(data[start + 4 : start + _HEADER_BYTES], "big")
            end = start + _HEADER_BYTES + length
            if end > size:
                break
            self._append(data[start], view[start + _HEADER_BYTES : end])
            start = end
        if start < size:
            self._partial = bytes(view[start:])
        self._wake()
        return False, b""

    def feed_eof(self) -> None:
        """The connection ended: the helper has no more output."""
        self._ended = True
        self._wake()

    def set_exception(self, exc: BaseException, exc_cause: object = None) -> None:
        """The connection failed: for the reader, the helper has no more output."""
        self.feed_eof()

    @property
    def ended(self) -> bool:
        """Whether the stream has ended (or failed): the helper sends no more.

        The connection is gone then too, so nothing more can be sent to the helper.
        """
        return self._ended

    def _append(self, kind: int, payload: memoryview | bytes) -> None:
        if kind == _STDOUT:
            self.out += payload
        elif kind == _STDERR:
            self.err += payload

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is None or waiter.done():
            self._pause_if_full()
            return
        if (
            self._ended
            or len(self.out) >= self._want_out
            or len(self.err) != self._seen_err
        ):
            waiter.set_result(None)
        else:
            self._pause_if_full()

    def _pause_if_full(self) -> None:
        transport = self._transport
        if (
            transport is not None
            and len(self.out) + len(self.err) > self._want_out + _SLACK_BYTES
            and transport.is_reading()
        ):
            transport.pause_reading()

    async def more(self, *, out_at_least: int) -> bool:
        """Wait for new output: stdout reaching ``out_at_least`` bytes, or stderr.

        Returns:
            False when the stream has ended and nothing new came; else True.
        """
        out, err = len(self.out), len(self.err)
        if not self._parsing:
            message = await self._stream.read_out()
            if message is None:
                self._ended = True
                return False
            self._append(message.stream, message.data)
            return True
        self._want_out = max(out_at_least, out + 1)
        self._seen_err = err
        transport = self._transport
        if transport is not None and not transport.is_reading():
            transport.resume_reading()
        while not self._ended and len(self.out) < self._want_out:
            if len(self.err) != err:
                break
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return len(self.out) != out or len(self.err) != err or not self._ended
