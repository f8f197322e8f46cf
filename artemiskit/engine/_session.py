"""`WorkflowSession`: the public handle of one execution.

A session runs its workflow once. The handle starts the run and shares it among
callers (``run``), hands out event readers (``events``), and forwards ``pause`` and
``cancel``; `RunDriver` does the work: it creates a fresh environment, drives the
target turn by turn, admits every tool call before it runs, counts every action
against the budgets, and finishes with bounded cleanup, outcome evaluation and a
metadata-only record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio

from artemiskit._errors import SessionStateError
from artemiskit.engine._driver import RunDriver
from artemiskit.engine._result import WorkflowResult

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from artemiskit.engine._events import SessionEvent
    from artemiskit.engine._plan import SessionPlan
    from artemiskit.engine._state import SessionState

__all__ = ["WorkflowResult", "WorkflowSession"]


class WorkflowSession:
    """One execution of a workflow against a target in a fresh environment.

    Create it with `create_agent_workflow_session` or
    `ArtemisKit.create_workflow_session`. ``run()`` executes once: repeated and
    concurrent calls share the execution and return the same result.
    """

    def __init__(self, plan: SessionPlan) -> None:
        """Take a checked plan (`SessionPlan.check`); the engine seeds its state."""
        self._driver = RunDriver(plan)
        workflow = plan.workflow
        self._workflow = workflow
        self._started = False
        self._finished = False
        # made only when a second caller or a pause waits (most runs have neither)
        self._done: anyio.Event | None = None
        self._result: WorkflowResult | None = None
        #: What the execution raised instead of returning a result, if it did.
        self._error: BaseException | None = None

    @property
    def run_id(self) -> str:
        """The run's identity (a resumed run keeps its first attempt's)."""
        return self._driver.run_id

    @property
    def attempt_id(self) -> str:
        """This attempt's identity."""
        return self._driver.attempt_id

    @property
    def checkpointing(self) -> bool:
        """Whether this session writes a checkpoint."""
        return self._driver.checkpoints.enabled

    def __repr__(self) -> str:
        """Identities and status only: never the conversation or the state."""
        if self._result is not None:
            status = self._result.record.execution.status
        else:
            status = "running" if self._started else "not_started"
        return (
            f"WorkflowSession(run_id={self.run_id!r}, "
            f"attempt_id={self.attempt_id!r}, workflow={self._workflow.name!r}, "
            f"status={status!r})"
        )

    @property
    def state(self) -> SessionState:
        """The current session state (sensitive: holds the conversation)."""
        return self._driver.run.published()

    @property
    def result(self) -> WorkflowResult | None:
        """The result once the execution finished, else ``None``."""
        return self._result

    def events(self, *, buffer: int = 1024) -> AsyncIterator[SessionEvent]:
        """A new reader of this session's metadata events.

        Each reader gets every event emitted after this call, in its own bounded
        buffer; a reader too slow to keep up loses events (counted in the
        record's ``events.dropped``) but never slows the engine. Iteration ends
        when the session finishes.

        Args:
            buffer: How many events this reader may fall behind before events
                are dropped for it.
        """
        if buffer < 1:
            raise SessionStateError(
                "buffer must be at least 1", reason="invalid_option"
            )
        return self._driver.hub.subscribe(buffer)

    def cancel(self) -> None:
        """Stop new work; the run drains cleanup and records ``cancelled``.

        Cancellation is not rollback: effects already made stay made.
        """
        self._driver.control.cancel()

    async def pause(self) -> None:
        """Pause at the next safe boundary and wait until the pause is confirmed.

        An operation in progress settles first; the environment's files are saved
        into the checkpoint and its cleanup is confirmed before the checkpoint is
        marked resumable. The run's result (``execution.status: paused``, exit 10)
        says whether it is.

        Raises:
            SessionStateError: This session has no checkpoint store, so there is
                nowhere to pause into.
        """
        if not self.checkpointing:
            raise SessionStateError(
                "pause needs a checkpoint store: create the session with a "
                "checkpoint option to make it pausable",
                reason="no_checkpoint_store",
            )
        self._driver.checkpoints.request_pause()
        await self._until_finished()

    async def _until_finished(self) -> None:
        """Wait until the started execution finished (at once if none is running)."""
        if not self._started or self._finished:
            return
        if self._done is None:
            self._done = anyio.Event()
        await self._done.wait()

    async def run(self) -> WorkflowResult:
        """Execute the workflow once and return its result.

        Concurrent and repeated calls share the same execution: they return its
        result, or raise again the error it raised (for example a refused
        checkpoint). Cancelling the caller cancels the execution like
        `cancel()`: cleanup drains, the interrupted result becomes available as
        `result` (and is what later calls return), and the cancellation
        propagates.

        Raises:
            SessionStateError: The execution was cancelled before it could keep
                a result (``no_result``), for a later call.
        """
        if self._started:
            await self._until_finished()
            return self._outcome()
        self._started = True
        try:
            self._result = await self._driver.execute()
        except anyio.get_cancelled_exc_class():
            self._result = self._driver.interrupted
            raise
        except BaseException as exc:
            self._error = exc
            raise
        finally:
            self._driver.hub.close()
            self._finished = True
            if self._done is not None:
                self._done.set()
        return self._result

    def _outcome(self) -> WorkflowResult:
        """The finished execution's result, or the error it raised, again."""
        if self._result is not None:
            return self._result
        if self._error is not None:
            raise self._error
        raise SessionStateError(
            "the execution was cancelled before it kept a result; a new run needs "
            "a new session",
            reason="no_result",
        )
