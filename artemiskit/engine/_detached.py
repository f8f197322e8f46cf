"""`Detached`: the part of a run that its caller may have to leave behind.

A target or a tool handler that ignores cancellation (a shielded wait, a worker
thread that cannot be abandoned) would hold ``run()`` for as long as it likes if it
ran in the caller's task: no cancel scope can take a task back from shielded code.
So the turns of a run go in a task of their own, started outside the caller's task
tree (an asyncio task, a trio system task), whose end the caller awaits. When the
run is cancelled or its deadline passes, the caller waits for that task at most the
drain period; if it has not ended, the caller finishes the run without it and the
task is left to end on its own, its result ignored.

One task per run (not per call), so a step costs nothing more.
"""

from __future__ import annotations

import asyncio
import contextvars
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

__all__ = ["Abandoned", "Detached"]

#: Detached asyncio tasks, kept alive until they end (the loop holds only weak
#: references to tasks).
_RUNNING: set[asyncio.Task[None]] = set()


class Abandoned(BaseException):
    """Raised in a detached task that its run left behind, to end it quietly."""


class Detached:
    """A coroutine function run in a task outside the caller's task tree.

    Args:
        work: What the task runs.
        wake: Set when the task ended; others may set it too (a cancel request),
            to wake whoever waits for either.
    """

    def __init__(self, work: Callable[[], Awaitable[None]], wake: anyio.Event) -> None:
        self._work = work
        self.wake = wake
        #: Made only when someone waits for the end (`wait_ended`): most runs
        #: end without a drain.
        self._ended: anyio.Event | None = None
        self.finished = False
        self._error: BaseException | None = None

    def start(self) -> None:
        """Start the task on the running backend."""
        if anyio.get_cancelled_exc_class() is asyncio.CancelledError:
            task = asyncio.get_running_loop().create_task(self._run())
            _RUNNING.add(task)
            task.add_done_callback(_RUNNING.discard)
        else:
            import trio

            trio.lowlevel.spawn_system_task(
                self._run, context=contextvars.copy_context()
            )

    async def _run(self) -> None:
        try:
            await self._work()
        except Abandoned:
            pass
        except BaseException as exc:  # kept for the caller, who raises it
            self._error = exc
        finally:
            self.finished = True
            if self._ended is not None:
                self._ended.set()
            self.wake.set()

    async def wait_ended(self) -> None:
        """Wait until the task ended (at once when it has)."""
        if self.finished:
            return
        if self._ended is None:
            self._ended = anyio.Event()
        await self._ended.wait()

    def outcome(self) -> None:
        """Raise what the task raised, if anything (once it finished).

        A cancellation that reached the task from outside the run (its event
        loop shutting down) is not the caller's to raise.
        """
        error = self._error
        self._error = None
        if error is not None and not isinstance(error, anyio.get_cancelled_exc_class()):
            raise error

    def __repr__(self) -> str:
        return f"Detached(finished={self.finished!r})"
