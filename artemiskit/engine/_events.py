"""Bounded metadata events with several readers that can never block the engine.

Each reader has its own bounded buffer. The engine never waits for a reader: an
event that does not fit a reader's buffer is dropped for that reader and counted,
and the record discloses the drops. Events carry ids, names of catalogue tools,
statuses and reason codes — never arguments, text or paths.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import AsyncIterator, Callable

import anyio
import attrs

__all__ = ["EventHub", "EventTap", "SessionEvent"]

#: A synchronous sink of every event: (wall-clock ns, type, fields). It must not
#: block and must bound what it keeps (the telemetry recorder does both).
EventTap = Callable[[int, str, "dict[str, str | int | None]"], None]


@attrs.frozen(kw_only=True)
class SessionEvent:
    """One metadata event of a session.

    Attributes:
        sequence: 1-based position in the session's event stream; a gap seen by a
            reader means events were dropped for it.
        type: What happened, e.g. ``operation_admitted``.
        run_id: The run the event belongs to.
        turn: The cursor's turn, when relevant.
        step: The cursor's step, when relevant.
        operation_id: The ledger entry, when relevant.
        tool: A catalogue tool name, when relevant (never a name the model made up).
        status: A status, when relevant.
        reason: A reason code, when relevant.
        input_tokens: Provider-reported input tokens of a settled model request.
        output_tokens: Provider-reported output tokens of a settled model request.
    """

    sequence: int
    type: str
    run_id: str
    turn: int | None = None
    step: int | None = None
    operation_id: str | None = None
    tool: str | None = None
    status: str | None = None
    reason: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None


class _Reader(AsyncIterator[SessionEvent]):
    def __init__(self, capacity: int) -> None:
        self._queue: deque[SessionEvent] = deque()
        self._capacity = capacity
        self._closed = False
        self._wakeup: anyio.Event | None = None
        self.dropped = 0

    def push(self, event: SessionEvent) -> None:
        if len(self._queue) >= self._capacity:
            self.dropped += 1
            return
        self._queue.append(event)
        self._wake()

    def close(self) -> None:
        self._closed = True
        self._wake()

    def _wake(self) -> None:
        if self._wakeup is not None:
            self._wakeup.set()

    async def __anext__(self) -> SessionEvent:
        while not self._queue:
            if self._closed:
                raise StopAsyncIteration
            self._wakeup = anyio.Event()
            await self._wakeup.wait()
            self._wakeup = None
        return self._queue.popleft()


class EventHub:
    """Fans events out to every reader's bounded buffer."""

    def __init__(self, *, run_id: str, capacity: int = 1024) -> None:
        #: The run events are stamped with (a resume adopts the paused run's).
        self.run_id = run_id
        self._capacity = capacity
        self._readers: list[_Reader] = []
        self._taps: list[EventTap] = []
        self._closed = False
        self.emitted = 0

    @property
    def dropped(self) -> int:
        """Events dropped across all readers."""
        return sum(reader.dropped for reader in self._readers)

    @property
    def readers(self) -> int:
        """How many readers subscribed."""
        return len(self._readers)

    def subscribe(self, buffer: int | None = None) -> AsyncIterator[SessionEvent]:
        """A new reader, receiving every event emitted from now on.

        Args:
            buffer: How many events this reader may fall behind before events
                are dropped for it (default: the hub's capacity).
        """
        reader = _Reader(buffer or self._capacity)
        if self._closed:
            reader.close()
        self._readers.append(reader)
        return reader

    def tap(self, sink: EventTap) -> None:
        """Hand every event from now on to ``sink``, stamped with the wall clock.

        A tap is not a reader: it is not counted in ``readers`` or ``dropped``.
        """
        self._taps.append(sink)

    def emit(self, type: str, **fields: str | int | None) -> None:
        """Emit one event to every reader without ever waiting.

        The event is counted always, but built only when someone reads.
        """
        self.emitted += 1
        if self._taps:
            now = time.time_ns()
            for sink in self._taps:
                sink(now, type, fields)
        if not self._readers:
            return
        event = SessionEvent(
            sequence=self.emitted,
            type=type,
            run_id=self.run_id,
            **fields,  # type: ignore[arg-type]
        )
        for reader in self._readers:
            reader.push(event)

    def close(self) -> None:
        """End every reader's stream after the events already buffered."""
        self._closed = True
        for reader in self._readers:
            reader.close()
