"""`RunControl`: whether the run may take its next action, and where it may pause.

The public handle's ``cancel()`` lands here; the run driver sets the deadline and
the cancel scope; the driver and the tool-call executor ask before every action.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import anyio

from artemiskit.engine._stops import stop_for

if TYPE_CHECKING:
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
        self.deadline = math.inf
        self._scope: anyio.CancelScope | None = None
        self._recording = checkpoints.enabled

    def cancel(self) -> None:
        """Stop new work now, and cancel whatever the run is waiting on."""
        self.cancel_requested = True
        if self._scope is not None:
            self._scope.cancel()

    def open_scope(self) -> anyio.CancelScope:
        """A new cancel scope for ``cancel()`` to reach (cancelled if already asked)."""
        self._scope = anyio.CancelScope()
        if self.cancel_requested:
            self._scope.cancel()
        return self._scope

    async def admission_stop(self, *, schedule: bool = True) -> Stop | None:
        """Why nothing new may be admitted now: a cancel request or the deadline.

        The scheduling point lets a pending cancellation in; the explicit checks
        hold even when a target never yields or shields itself from cancellation.
        With ``schedule=False`` (an admission later in a step that already had
        its scheduling point) a run without a checkpoint store yields only when
        a cancellation is pending, so a step costs one turn of the event loop;
        a checkpointed run, whose step waits for the disk anyway, always yields.
        """
        if schedule or self._recording:
            await anyio.lowlevel.checkpoint()
        else:
            await anyio.lowlevel.checkpoint_if_cancelled()
        if self.cancel_requested:
            return stop_for("cancelled", "cancelled")
        if anyio.current_time() >= self.deadline:
            return stop_for("deadline_exceeded", "timeout_ms")
        return None

    async def commit(self) -> None:
        """Durably record the current state (before any invocation)."""
        if self._recording:
            await self._checkpoints.commit(self._run.state)

    async def safe_boundary(self) -> bool:
        """Record the state at this boundary; ``False`` when the run pauses here.

        The boundary is written without waiting for the disk (where the store
        can): the admission that follows it, before any invocation, makes it
        durable with its own synced append, so a step costs one sync per
        admitted operation. A run that stops here instead commits its final
        snapshot when it ends.
        """
        if not self._recording:  # no store: nothing to record, no pause
            return True
        pause = self._checkpoints.pause_due(self._run.state.counters)
        if pause is not None:
            self._run.stop(pause)
            return False
        await self._checkpoints.stage(self._run.state)
        return True
