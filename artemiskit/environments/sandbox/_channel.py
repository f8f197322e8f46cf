"""The host side of the sandbox helper protocol (see ``helper.sh``).

One `HelperChannel` drives the one long-lived helper process of a container over the
container's attached stdin/stdout stream: a header line per request, one answer line
per request. File content travels as raw bytes framed by its length (``W PATH N``
then N bytes; a read answers ``OK N`` then N bytes, or ``OK +`` then the bytes with
their count N as a line on the helper's stderr, or, read at an expected size S,
``OK S`` then one or two blocks of S bytes with ``dd``'s record lines on stderr),
never encoded. Two forms are answered on stderr alone, by the ``dd`` that moves
their content, so no answer line waits for the helper: a read at an expected size
``S PATH S`` (the blocks, then the records, no line before them) and a write
copied by ``dd``, ``C PATH N`` (the records say all N bytes are in the file).
Requests never overlap (the environment holds a lock), and a request interrupted
halfway leaves the stream out of step, so the environment stops using the channel
after that.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import TYPE_CHECKING, NoReturn

from artemiskit._errors import EnvironmentFailureError
from artemiskit.environments._file_rules import REFUSAL_MESSAGES, refusal
from artemiskit.environments.sandbox._frames import FrameBuffer

if TYPE_CHECKING:
    from aiodocker.stream import Stream

__all__ = [
    "BUILTIN_READ_BYTES",
    "BUILTIN_WRITE_NULS",
    "MAX_ANSWER_BYTES",
    "HelperChannel",
    "decode_listing",
    "decode_text",
    "encode_path",
]

_SIZE = re.compile(r"(0|[1-9][0-9]{0,9})")
#: The size of an ``OK +`` read: its count follows on stderr.
_STREAMED = "+"
#: The longest stderr line accepted for a count (at most 10 digits).
_MAX_COUNT_LINE = 16
#: The most stderr bytes accepted at once: a count line, dd's two record lines,
#: or a refusal line.
_MAX_STDERR_BYTES = 40
#: The most stderr bytes of a copied write that failed: dd's message and record
#: lines, then the helper's refusal line.
_MAX_COPY_FAILURE_BYTES = 512
#: dd's record lines after a read at an expected size S (``bs=S count=2
#: conv=sync``), and how many blocks of S bytes they say were sent: the file
#: held exactly S bytes (the only answer taken), fewer, more, or none.
_RECORD_BLOCKS = {
    b"1+0 records in\n1+0 records out\n": 1,
    b"0+1 records in\n1+0 records out\n": 1,
    b"1+1 records in\n2+0 records out\n": 2,
    b"2+0 records in\n2+0 records out\n": 2,
    b"0+0 records in\n0+0 records out\n": 0,
}
_RECORDS_EXACT = b"1+0 records in\n1+0 records out\n"
_REFUSAL = b"ERR "
#: How a refusal line (valid or not) starts: on stderr, it ends the answer.
_REFUSAL_START = b"ERR"

_PLAIN_PATH = re.compile(r"[A-Za-z0-9._/-]+")

# The longest answer line accepted: a full listing of a 64 MiB tmpfs of tiny files
# stays far below this; anything longer means the helper is not ours.
MAX_ANSWER_BYTES = 128 * 1024 * 1024
#: The helper's ``$small``: a file larger than this is read by a process (``dd``),
#: and one whose size the host expects is read as ``S PATH S`` (one process, no
#: attempt with builtins first); a larger write is copied by ``dd`` (``C``).
BUILTIN_READ_BYTES = 512
#: A small write payload with more NUL bytes than this is copied by ``dd`` too
#: (``C``): one ``dd`` beats the helper's builtins, one step per NUL.
BUILTIN_WRITE_NULS = 32


def encode_path(path: str) -> str:
    """Return the wire form of a normalized path.

    A path of only ``[A-Za-z0-9._/-]`` is sent as ``~`` and the path, which the
    helper checks without starting a process; any other path as the base64 of
    the path plus ``.``.
    """
    if _PLAIN_PATH.fullmatch(path):
        return "~" + path
    raw = path.encode("utf-8", "surrogatepass") + b"."
    return base64.b64encode(raw).decode("ascii")


def decode_text(raw: bytes) -> str:
    """Return the text of a file's raw content from the helper."""
    try:
        return raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace")


def decode_listing(payload: str) -> list[str]:
    """Return the sorted relative paths of a base64 ``find -print0`` payload."""
    paths: list[str] = []
    for entry in _b64decode(payload).split(b"\0"):
        if not entry:
            continue
        text = entry.decode("utf-8", "surrogateescape")
        paths.append(text.removeprefix("./"))
    return sorted(paths)


def _raise_refusal(line: bytes) -> NoReturn:
    """Raise the refusal of an ``ERR <reason>`` line, or a protocol error."""
    if line.startswith(_REFUSAL):
        reason = line[len(_REFUSAL) :].decode("ascii", "replace")
        if reason in REFUSAL_MESSAGES:
            raise refusal(reason)
    raise _protocol_error()


def _protocol_error() -> EnvironmentFailureError:
    return EnvironmentFailureError(
        "the sandbox helper answered outside its protocol", reason="sandbox_protocol"
    )


def _helper_gone() -> EnvironmentFailureError:
    return EnvironmentFailureError(
        "the sandbox helper stopped accepting requests", reason="sandbox_helper_gone"
    )


def _b64decode(payload: str) -> bytes:
    try:
        return base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise EnvironmentFailureError(
            "the sandbox helper sent malformed data", reason="sandbox_protocol"
        ) from exc


class HelperChannel:
    """Requests to the helper process of one container, one at a time.

    Args:
        stream: The attached stdin/stdout stream of the container.
    """

    def __init__(self, stream: Stream) -> None:
        self._stream = stream
        self._frames = FrameBuffer(stream)
        self._buffer = self._frames.out
        self._scanned = 0
        self._errors = self._frames.err
        self._closed = False

    async def connect(self) -> None:
        """Attach to the container (before it starts, so no input is missed)."""
        await self._stream.__aenter__()
        self._frames.attach()

    async def ping(self) -> None:
        """Check that the helper answers.

        Raises:
            EnvironmentFailureError: The helper does not answer as expected.
        """
        await self.request("P\n")

    async def read_frame(self, header: str, *, limit: int) -> bytes:
        """Send one request answered by N raw bytes; return the bytes.

        The answer is ``OK N`` then the N bytes, or ``OK +`` then the bytes, their
        count N coming as the line ``N`` on the helper's stderr (the helper learns
        it only once they are sent).

        Args:
            header: The request line, ending in a newline.
            limit: The largest N accepted; a larger one is a protocol error.

        Raises:
            FileOperationError: The helper refused the request (a complete answer).
            EnvironmentFailureError: The helper is gone (also midway through the
                bytes) or answered outside protocol.
        """
        size = await self.request(header)
        if size == _STREAMED:
            size = await self._read_count(limit)
        if _SIZE.fullmatch(size) is None or int(size) > limit:
            raise _protocol_error()
        return await self._read_exactly(int(size))

    async def read_sized(self, header: str, *, size: int) -> bytes | None:
        """Send a read of a file expected to hold ``size`` bytes (``R PATH =S``).

        The helper sends the file in blocks of ``size`` bytes, at most two, the
        last padded with NULs, and ``dd``'s record lines on stderr, which say
        how many blocks came and whether the file held exactly ``size`` bytes
        (one full block, then its end).

        Args:
            header: The request line, ending in a newline.
            size: The expected size, as in the header.

        Returns:
            The bytes, or ``None`` when the file did not hold exactly ``size``.

        Raises:
            FileOperationError: The helper refused the request (a complete answer).
            EnvironmentFailureError: The helper is gone (also midway through the
                bytes) or answered outside protocol.
        """
        if await self.request(header) != str(size):
            raise _protocol_error()
        return await self._read_blocks(size)

    async def read_at_size(self, header: str, *, size: int) -> bytes | None:
        """Send a read answered on stderr (``S PATH S``); see `read_sized`.

        The same blocks and records as ``R PATH =S``, without the ``OK S`` line
        before them: the records, or a refusal, come as lines on the helper's
        stderr, so the answer is the ``dd`` that sends the blocks, alone.

        Args:
            header: The request line, ending in a newline.
            size: The expected size, as in the header.

        Returns:
            The bytes, or ``None`` when the file did not hold exactly ``size``.

        Raises:
            FileOperationError: The helper refused the request (a complete answer).
            EnvironmentFailureError: The helper is gone (also midway through the
                bytes) or answered outside protocol.
        """
        await self._send(header)
        return await self._read_blocks(size)

    async def write_copied(self, header: str, payload: bytes) -> None:
        """Send a write copied by ``dd`` (``C PATH N`` and N > 0 bytes).

        Its answer comes on the helper's stderr alone: ``dd``'s record lines,
        exactly ``1+0 records in`` and ``1+0 records out`` when all N bytes are
        in the file; otherwise (``dd``'s message and records first if it ran)
        a last line ``ERR <reason>``.

        Args:
            header: The request line, ending in a newline.
            payload: The N bytes of content.

        Raises:
            FileOperationError: The helper refused the write (a complete answer).
            EnvironmentFailureError: The helper is gone or answered outside protocol.
        """
        await self._send(header, payload)
        while self._errors != _RECORDS_EXACT:
            if self._buffer or len(self._errors) > _MAX_COPY_FAILURE_BYTES:
                raise _protocol_error()
            if self._errors.endswith(b"\n"):
                last = self._errors[:-1].rpartition(b"\n")[2]
                if last.startswith(_REFUSAL_START):
                    self._errors.clear()
                    _raise_refusal(bytes(last))
            await self._fill(stderr_limit=_MAX_COPY_FAILURE_BYTES)
        self._errors.clear()

    async def request(self, header: str, payload: bytes = b"") -> str:
        """Send one request and return the text after ``OK``.

        Args:
            header: The request line, ending in a newline.
            payload: The bytes that follow the header (write requests only).

        Returns:
            The answer's payload (empty when the answer is a bare ``OK``).

        Raises:
            FileOperationError: The helper refused the request (a complete answer).
            EnvironmentFailureError: The helper is gone or answered outside protocol.
        """
        await self._send(header, payload)
        line = await self._read_line()
        if line == b"OK":
            return ""
        if line.startswith(b"OK "):
            return line[3:].decode("ascii", "replace")
        _raise_refusal(line)

    async def _send(self, header: str, payload: bytes = b"") -> None:
        if self._closed:
            raise EnvironmentFailureError(
                "the sandbox helper channel is closed", reason="sandbox_closed"
            )
        # A helper that ended (a killed worker ends it) closes the stream; once
        # the connection is gone, aiodocker's write_in fails an assertion.
        if self._frames.ended:
            raise _helper_gone()
        try:
            await self._stream.write_in(header.encode("ascii") + payload)
        except (OSError, RuntimeError) as exc:
            raise _helper_gone() from exc

    async def _fill(
        self, size: int = 0, *, stderr_limit: int = _MAX_STDERR_BYTES
    ) -> None:
        """Wait for more of the helper's output (stdout up to ``size`` bytes)."""
        if not await self._frames.more(out_at_least=size):
            raise EnvironmentFailureError(
                "the sandbox helper exited", reason="sandbox_helper_gone"
            )
        if len(self._errors) > stderr_limit:
            raise _protocol_error()

    async def _read_count(self, limit: int) -> str:
        """Return the count line of an ``OK +`` answer from the helper's stderr.

        Nothing else may be on stderr; the content it counts collects in the
        buffer meanwhile, and more than ``limit`` bytes of it is a protocol error.
        """
        while (end := self._errors.find(b"\n")) < 0:
            if len(self._buffer) > limit or len(self._errors) > _MAX_COUNT_LINE:
                raise _protocol_error()
            await self._fill()
        if end != len(self._errors) - 1:
            raise _protocol_error()
        count = self._errors[:end].decode("ascii", "replace")
        self._errors.clear()
        return count

    async def _read_blocks(self, size: int) -> bytes | None:
        """Take a sized read's blocks by the records on stderr (see `read_sized`)."""
        records = await self._read_records(2 * size)
        blocks = _RECORD_BLOCKS.get(records)
        # Nothing but the blocks the records count comes before the next request.
        if blocks is None or len(self._buffer) > blocks * size:
            raise _protocol_error()
        data = await self._read_exactly(blocks * size)
        return data if records == _RECORDS_EXACT else None

    async def _read_records(self, limit: int) -> bytes:
        """Return dd's two record lines from the helper's stderr.

        The content they describe collects in the buffer meanwhile; more than
        ``limit`` bytes of it is a protocol error. A refusal line there instead
        (an ``S`` read) is raised, once nothing but it came.
        """
        while self._errors.count(b"\n") < 2:
            if len(self._buffer) > limit:
                raise _protocol_error()
            if self._errors.startswith(_REFUSAL_START) and self._errors.endswith(b"\n"):
                if self._buffer:
                    raise _protocol_error()
                line = bytes(self._errors[:-1])
                self._errors.clear()
                _raise_refusal(line)
            # Woken by stderr only, or by more content than there may be.
            await self._fill(limit + 1)
        records = bytes(self._errors)
        self._errors.clear()
        return records

    async def _read_exactly(self, size: int) -> bytes:
        while len(self._buffer) < size:
            await self._fill(size)
        if len(self._buffer) == size:
            data = bytes(self._buffer)
            self._buffer.clear()
        else:
            with memoryview(self._buffer) as view:
                data = bytes(view[:size])
            del self._buffer[:size]
        self._scanned = 0
        return data

    async def _read_line(self) -> bytes:
        while True:
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                self._scanned = 0
                return line
            self._scanned = len(self._buffer)
            if self._scanned > MAX_ANSWER_BYTES:
                raise EnvironmentFailureError(
                    "the sandbox helper answer is too long", reason="sandbox_protocol"
                )
            await self._fill()

    async def close(self) -> None:
        """Close the stream; the helper sees end of input. Idempotent."""
        if self._closed:
            return
        self._closed = True
        await self._stream.close()
