"""Messages between the suite's process and a worker process, over a socket pair.

Each message is a pickled object behind its 8-byte length. Neither end ever
blocks its event loop: a message larger than the socket holds goes out as the
other end reads it (the sender waits, the loop does not), and a reader woken by
the first bytes of a message keeps what came and waits for the rest.

What a process finished sending before it died stays readable by the other
end, then end of file: a reader sees every message its peer sent whole, and a
message cut short by a death never reads as one.
"""

from __future__ import annotations

import collections
import itertools
import pickle
import socket
import struct
from typing import Any

import anyio

__all__ = ["Channel"]

_LENGTH = struct.Struct("!Q")
#: The most read from the socket at once.
_CHUNK = 1 << 18
#: Whether one call writes several buffers (``sendmsg``; not on Windows).
_GATHER = hasattr(socket.socket, "sendmsg")
#: The most buffers written at once (below every system's ``IOV_MAX``).
_BUFFERS = 512


class Channel:
    """One end of a socket pair, carrying whole pickled messages both ways.

    Args:
        end: This process's end of the pair (made non-blocking here).
    """

    def __init__(self, end: socket.socket) -> None:
        end.setblocking(False)
        self._end = end
        self._inbox = bytearray()
        #: Frames posted and not yet written, oldest first.
        self._outbox: collections.deque[memoryview] = collections.deque()
        self._draining = anyio.Lock()

    def fileno(self) -> int:
        """The socket's descriptor."""
        return self._end.fileno()

    def post(self, message: Any) -> None:
        """Queue ``message``: it goes out with the next `flush`, `drain` or `send`.

        Messages posted one after the other go out in one write.

        Raises:
            pickle.PicklingError: It cannot be pickled (nothing was queued).
        """
        payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        self._outbox.append(memoryview(_LENGTH.pack(len(payload))))
        self._outbox.append(memoryview(payload))

    async def send(self, message: Any) -> None:
        """Send ``message`` (and any posted before it): return once it is all written.

        Raises:
            OSError: The other end is gone.
        """
        self.post(message)
        await self.drain()

    async def drain(self) -> None:
        """Write every posted message, waiting for room in the socket if needed.

        Raises:
            OSError: The other end is gone.
        """
        self.flush()
        if not self._outbox:
            return
        async with self._draining:
            while self._outbox:
                await anyio.wait_writable(self._end)
                self.flush()

    def flush(self) -> None:
        """Write what the socket takes now, without waiting.

        Raises:
            OSError: The other end is gone.
        """
        outbox = self._outbox
        while outbox:
            try:
                if _GATHER:
                    written = self._end.sendmsg(itertools.islice(outbox, _BUFFERS))
                else:  # Windows
                    written = self._end.send(outbox[0])
            except BlockingIOError:
                return
            while written:
                head = outbox[0]
                if written < len(head):
                    outbox[0] = head[written:]
                    break
                written -= len(head)
                outbox.popleft()

    def _message(self) -> tuple[bool, Any]:
        """The first whole message already read, if there is one."""
        inbox = self._inbox
        if len(inbox) < _LENGTH.size:
            return False, None
        (length,) = _LENGTH.unpack_from(inbox)
        end = _LENGTH.size + length
        if len(inbox) < end:
            return False, None
        payload = inbox[_LENGTH.size : end]
        # Taken before it is unpickled: a message that cannot be is gone too.
        del inbox[:end]
        return True, pickle.loads(payload)

    def holds_message(self) -> bool:
        """Whether a whole message was read already (`receive` returns at once)."""
        inbox = self._inbox
        if len(inbox) < _LENGTH.size:
            return False
        length: int = _LENGTH.unpack_from(inbox)[0]
        return len(inbox) >= _LENGTH.size + length

    async def receive(self) -> Any:
        """The next message.

        Raises:
            Exception: The message cannot be unpickled here (what it names
                cannot be imported, for one): it is dropped, the next follows.
            EOFError: The other end closed (or died) before another whole message.
            OSError: The socket failed.
        """
        while True:
            whole, message = self._message()
            if whole:
                return message
            await anyio.wait_readable(self._end)
            try:
                data = self._end.recv(_CHUNK)
            except BlockingIOError:
                continue
            if not data:
                raise EOFError("the other end closed")
            self._inbox += data

    def close(self) -> None:
        """Close this end (the other end reads end of file)."""
        self._end.close()
