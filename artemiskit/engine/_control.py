"""`RunControl`: whether the run may take its next action, and where it may pause.

The public handle's ``cancel()`` lands here; the run driver sets the deadline and
the cancel scope; the driver and the tool-call executor ask before every action.
"""

from __future__ import annotations

import asyncio
import math
import types
from typing import TYPE_CHECKING

import anyio

from artemiskit.engine._detached import Abandoned
from artemiskit.engine._stops import stop_for

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Generator

    from artemiskit.engine._recovery import RunCheckpoints
    from artemiskit.engine._run_state import RunState
    from artemiskit.engine._state import Stop

__all__ = ["RunControl"]


class RunControl:
    """A run's cancel request, cancel scope and absolute deadline."""

    def __init__(self, run: RunState, checkpoints: RunCheckpoints) -> None:
        self._run = run
        self._checkpoints = checkpoints
        self.cancel_requested = False
        #: ``cancelled`` (`cancel`) or ``caller_cancelled`` (the caller's scope).
        self.cancel_reason = "cancelled"
        #: Set by `cancel` to wake the caller waiting for the run's turns.
        self.wake: anyio.Event | None = None
        #: Whether the caller finished the run without its turns' task (which
        #: did not stop within the drain period): that task must change nothing.
        self.abandoned = False
        self.deadline = math.inf
        self._scope: anyio.CancelScope | None = None
        #: Whether a checkpoint store records the run (else `commit` and
        #: `safe_boundary` do nothing, and callers may skip them).
        self.recording = checkpoints.enabled
        #: The event loop's clock (`anyio.current_time`), resolved by `start`.
        self.now: Callable[[], float] = anyio.current_time
        self._yield: Callable[[], Awaitable[None]] = anyio.lowlevel.checkpoint

    def start(self, remaining_s: float) -> None:
        """Set the deadline ``remaining_s`` from now, inside the running event loop.

        The running backend's clock and checkpoint are looked up here, not at
        every admission (anyio finds the backend anew at each call), and only
        once per backend in a process (`_backend_calls`). On asyncio the loop's
        own clock and ``sleep(0)`` are what `anyio.current_time` and
        `anyio.lowlevel.checkpoint` call there.
        """
        cancelled = anyio.get_cancelled_exc_class()
        calls = _BACKEND_CALLS.get(cancelled)
        if calls is None:
            calls = _BACKEND_CALLS[cancelled] = _backend_calls(cancelled)
        self.now, self._yield = calls
        if cancelled is asyncio.CancelledError:
            self.now = asyncio.get_running_loop().time
        self.deadline = self.now() + remaining_s

    def cancel(self, reason: str = "cancelled") -> None:
        """Stop new work now, and cancel whatever the run is waiting on."""
        if not self.cancel_requested:
            self.cancel_reason = reason
        self.cancel_requested = True
        if self._scope is not None:
            self._scope.cancel()
        if self.wake is not None:
            self.wake.set()

    def open_scope(self) -> anyio.CancelScope:
        """A new cancel scope for ``cancel()`` to reach (cancelled if already asked)."""
        self._scope = anyio.CancelScope()
        if self.cancel_requested:
            self._scope.cancel()
        return self._scope

    async def admission_stop(self) -> Stop | None:
        """Why nothing new may be admitted now: a cancel request or the deadline.

        `scheduling_point` then `stop_now`; the hot paths call the two
        themselves (one coroutine less per admission).
        """
        await self._yield()
        return self.stop_now()

    def scheduling_point(self) -> Awaitable[None]:
        """The checkpoint before an admission that yields (to await).

        It lets a pending cancellation in and gives the other tasks a turn; the
        explicit checks of `stop_now` hold even when a target never yields or
        shields itself from cancellation. An admission later in a step that
        already had its scheduling point (a tool call after its model
        request) need not call it in a run without a checkpoint store: the
        only cancellations that can reach the run's turns are the run's own
        (its cancel request and its deadline), which `stop_now` reports
        anyway, so a step costs one turn of the event loop.
        """
        return self._yield()

    def stop_now(self) -> Stop | None:
        """The stop a cancel request or the passed deadline calls for, if any."""
        if self.cancel_requested:
            return stop_for("cancelled", self.cancel_reason)
        if self.now() >= self.deadline:
            return stop_for("deadline_exceeded", "timeout_ms")
        return None

    async def commit(self) -> None:
        """Durably record the current state (before any invocation)."""
        if self.abandoned:
            raise Abandoned
        if self.recording:
            await self._checkpoints.commit(self._run.published())

    async def safe_boundary(self) -> bool:
        """Record the state at this boundary; ``False`` when the run pauses here.

        The boundary is written without waiting for the disk (where the store
        can): the admission that follows it, before any invocation, makes it
        durable with its own synced append, so a step costs one sync per
        admitted operation. A run that stops here instead commits its final
        snapshot when it ends.
        """
        if not self.recording:  # no store: nothing to record, no pause
            return True
        if self.abandoned:
            raise Abandoned
        pause = self._checkpoints.pause_due(self._run.state.counters)
        if pause is not None:
            self._run.stop(pause)
            return False
        await self._checkpoints.stage(self._run.published())
        return True


@types.coroutine
def _sleep0() -> Generator[None, None, None]:
    """``asyncio.sleep(0)`` in one frame: a bare yield is the loop's next turn."""
    yield


_BackendCalls = tuple["Callable[[], float]", "Callable[[], Awaitable[None]]"]

#: `_backend_calls` by the backend's cancellation exception (which tells the
#: backends apart); the asyncio clock is replaced by the running loop's own.
_BACKEND_CALLS: dict[type[BaseException], _BackendCalls] = {}


def _backend_calls(cancelled: type[BaseException]) -> _BackendCalls:
    """The running backend's clock and checkpoint."""
    now: Callable[[], float] = anyio.current_time
    checkpoint: Callable[[], Awaitable[None]] = anyio.lowlevel.checkpoint
    current_token = getattr(anyio.lowlevel, "current_token", None)
    if current_token is not None:  # anyio 4.11 and later
        backend = current_token().backend_class
        now = backend.current_time
        checkpoint = backend.checkpoint
    if cancelled is asyncio.CancelledError:
        checkpoint = _sleep0
    return now, checkpoint
