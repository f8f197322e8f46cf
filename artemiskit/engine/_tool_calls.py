"""Answering the model's tool calls: admission, the fault schedule, bounded retries.

Each pending call is counted as attempted, admitted (declared → input schema →
allow) or denied, then executed attempt by attempt. Between admission and execution
the fault schedule may inject a declared fault; only ``unavailable_tool`` and
``timeout`` fail before any effect, so only they are retried, within
``retry.max_attempts``, every attempt counted against the budgets.

A handler that raises (anything but cancellation) stops the run as a runtime
failure: the attempt is settled ``failed`` for a ``read`` tool and ``unknown`` for a
``write`` tool (its effect cannot be known), and `ToolCallExecutor.failure` names the
tool and the exception's type, never its text. Every call that stops the run is
traced, so the record's per-tool summary counts it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import anyio

from artemiskit._common._slots import slot_builder
from artemiskit._errors import ArtemisError, FileOperationError
from artemiskit.engine._admission import ArgumentVerdicts, admit_tool_call
from artemiskit.engine._detached import Abandoned
from artemiskit.engine._faults import RETRYABLE_KINDS, ScheduledFault
from artemiskit.engine._state import Denial, Stop, TraceEntry
from artemiskit.engine._stops import stop_for
from artemiskit.engine._tool_invocation import (
    Invoked,
    MalformedOutputError,
    invoke_tool,
)
from artemiskit.tools._tool import ToolFailure

if TYPE_CHECKING:
    from artemiskit.engine._budget import Budget
    from artemiskit.engine._control import RunControl
    from artemiskit.engine._events import EventHub
    from artemiskit.engine._run_state import RunState
    from artemiskit.engine._tool_tables import ToolTables
    from artemiskit.environments._base import Environment
    from artemiskit.targets._protocol import ToolCall
    from artemiskit.tools._catalogue import Catalogue
    from artemiskit.workflow._model import Workflow

__all__ = ["ToolCallExecutor", "holds_cancellation"]


def holds_cancellation(exc: BaseException) -> bool:
    """Whether ``exc`` is, or is a group holding, the backend's cancellation."""
    if not isinstance(exc, BaseExceptionGroup):
        return False
    cancelled = anyio.get_cancelled_exc_class()
    return exc.subgroup(lambda e: isinstance(e, cancelled)) is not None


_trace = slot_builder(TraceEntry)


class ToolCallExecutor:
    """Answers the model's pending tool calls, given its collaborators explicitly.

    Args:
        workflow: The workflow (declared tools, policy, retry, budgets).
        catalogue: The tools this run knows (built-in and registered).
        tables: The declared tools by name, under ``catalogue``.
        run: The owner of the session state.
        control: Cancel request, deadline and safe boundaries.
        budget: The run's budget rules.
        hub: Where events go.
    """

    def __init__(
        self,
        *,
        workflow: Workflow,
        catalogue: Catalogue,
        tables: ToolTables,
        run: RunState,
        control: RunControl,
        budget: Budget,
        hub: EventHub,
    ) -> None:
        self._workflow = workflow
        self._catalogue = catalogue
        self._run = run
        self._control = control
        self._budget = budget
        self._hub = hub
        self._declared = tables.declared
        self._tools = tables.tools
        self._allow = tables.allow_copies()
        self._verdicts = ArgumentVerdicts()
        #: What stopped the run when a handler raised: the tool and the type.
        self.failure: str | None = None

    async def _retry_stop(self) -> Stop | None:
        """Why a retry of a tool call may not be admitted, or ``None``.

        A retry yields; a first attempt (`run_pending`) does not in a run
        without a checkpoint store: its step's model request was the
        scheduling point, and `RunControl.stop_now` sees a cancel request or
        the deadline without one (`RunControl.scheduling_point`).
        """
        return await self._control.admission_stop() or self._budget.tool_call_stop(
            self._run.state.counters
        )

    async def run_pending(self, environment: Environment) -> bool:
        """Answer every pending tool call; False when the execution stopped."""
        control = self._control
        while self._run.state.pending_calls:
            if control.recording:
                if not await control.safe_boundary():
                    return False
                # a checkpointed step waits for the disk anyway: it yields
                await control.scheduling_point()
            call = self._run.state.pending_calls[0]
            stop = control.stop_now() or self._budget.tool_call_stop(
                self._run.state.counters
            )
            if stop is not None:
                self._run.stop(stop)
                return False
            admission = admit_tool_call(
                call,
                self._declared,
                self._tools,
                self._allow,
                verdicts=self._verdicts,
            )
            if admission.denial is not None:
                self._run.count_tool_attempt()
                if not self._deny(call, admission.denial):
                    return False
                continue
            assert admission.arguments is not None
            await self._execute_tool(environment, call, admission.arguments)
            if self._run.state.stop is not None:
                return False
        return True

    def _deny(self, call: ToolCall, reason: str) -> bool:
        """Record a denial; False when policy stops the run on denial."""
        tool = call.name if call.name in self._catalogue else None
        self._run.record_denial(Denial(tool=tool, reason=reason))
        self._hub.emit("tool_denied", tool=tool, reason=reason)
        trace = TraceEntry(
            tool=tool or "undeclared", status="denied", attempts=0, reason=reason
        )
        if self._workflow.policy.on_denial == "stop":
            self._run.record_trace(trace)
            self._run.stop(stop_for("policy_denied", reason))
            return False
        content = json.dumps({"error": {"code": "policy_denied", "reason": reason}})
        self._run.answer_tool_call(call, content=content, is_error=True, trace=trace)
        return True

    def _answer_failure(
        self, call: ToolCall, code: str, message: str, attempts: int
    ) -> None:
        content = json.dumps({"error": {"code": code, "message": message}})
        trace = TraceEntry(
            tool=call.name, status="failed", attempts=attempts, reason=code
        )
        self._run.answer_tool_call(call, content=content, is_error=True, trace=trace)

    async def _execute_tool(
        self, environment: Environment, call: ToolCall, arguments: dict[str, Any]
    ) -> None:
        """Run one admitted logical call, attempt by attempt."""
        name = call.name
        faults = self._run.state.faults
        schedule, occurrence = faults.begin_call(name)
        if schedule is not faults:  # occurrence 0: no fault names the tool
            self._run.update_faults(schedule)
        max_attempts = self._workflow.retry.max_attempts
        attempt = 1
        faulted = False
        code = ""
        while True:
            if attempt > 1:
                stop = await self._retry_stop()
                if stop is not None:
                    self._finish_call(attempt - 1, succeeded=False, faulted=faulted)
                    self._stop_call(name, attempt - 1, code, stop)
                    return
            fault = None
            if occurrence:
                schedule, fault = self._run.state.faults.take(name, occurrence)
                self._run.update_faults(schedule)
            op_id = self._run.admit_tool_attempt(name, attempt)
            if self._control.recording:
                await self._control.commit()
            self._hub.emit("operation_admitted", operation_id=op_id, tool=name)
            if fault is not None:
                faulted = True
                self._hub.emit(
                    "fault_injected", operation_id=op_id, tool=name, reason=fault.kind
                )
            if fault is not None and fault.kind in RETRYABLE_KINDS:
                if fault.kind == "timeout" and fault.timeout_ms:
                    await anyio.sleep(fault.timeout_ms / 1000)
                code = f"fault_{fault.kind}"
                self._run.settle(op_id, "failed", code)
                if attempt < max_attempts:
                    self._hub.emit("retry_scheduled", tool=name, reason=code)
                    attempt += 1
                    continue
                self._answer_failure(
                    call, code, "the tool failed (declared fault)", attempt
                )
                self._finish_call(attempt, succeeded=False, faulted=True)
                return
            if fault is not None and fault.kind == "malformed_result":
                self._run.settle(op_id, "failed", "fault_malformed_result")
                self._finish_call(attempt, succeeded=False, faulted=True)
                self._stop_call(
                    name,
                    attempt,
                    "fault_malformed_result",
                    stop_for("invalid_evidence", "malformed_result"),
                )
                return
            await self._attempt(environment, call, arguments, op_id, fault, attempt)
            if faulted:
                self._finish_call(
                    attempt,
                    succeeded=self._run.state.stop is None
                    and self._run.state.trace[-1].status == "succeeded",
                    faulted=faulted,
                )
            return

    def _stop_call(self, tool: str, attempts: int, code: str, stop: Stop) -> None:
        """Trace a call that stops the run (it gets no answer), then stop."""
        self._run.record_trace(_trace(tool, "failed", attempts, code))
        self._run.stop(stop)

    def _finish_call(self, attempts: int, *, succeeded: bool, faulted: bool) -> None:
        if not faulted:  # only a call that met a fault is counted
            return
        schedule = self._run.state.faults.finish_call(
            attempts=attempts, succeeded=succeeded, faulted=faulted
        )
        self._run.update_faults(schedule)

    def _handler_raised(
        self, tool: str, effect: str, op_id: str, attempt: int, exc: BaseException
    ) -> None:
        """A handler raised: a recorded tool failure that stops the run.

        The exception's text is never kept (it may hold arguments or file
        contents); its type names what went wrong. A write tool that raised may
        have had its effect, so its attempt is settled ``unknown``.
        """
        self._run.settle(
            op_id, "unknown" if effect == "write" else "failed", "tool_raised"
        )
        self.failure = f"tool {tool!r} raised {type(exc).__name__}"
        self._stop_call(
            tool, attempt, "tool_raised", stop_for("runtime_failure", "tool_raised")
        )

    async def _attempt(
        self,
        environment: Environment,
        call: ToolCall,
        arguments: dict[str, Any],
        op_id: str,
        fault: ScheduledFault | None,
        attempt: int,
    ) -> None:
        """Execute one attempt (or serve a read fixture) and answer the call."""
        name = call.name
        if fault is not None and fault.kind in ("stale_read", "incomplete_read"):
            assert fault.fixture is not None
            result = Invoked(output=dict(fault.fixture), local=None, change=None)
        else:
            tool = self._tools[name]
            if tool.effect == "write":
                # a reader woken by the admission's event runs before the effect
                # (trio runs a batch of tasks in random order, so it takes this
                # point and the environment's own to be sure on every loop)
                await self._control.scheduling_point()
            try:
                try:
                    result = await invoke_tool(
                        tool,
                        arguments,
                        environment=environment,
                        local=self._run.state.local,
                        allow=self._allow[name],
                        new_id=lambda prefix: f"{prefix}-{op_id.removeprefix('op-')}",
                    )
                finally:
                    if self._control.abandoned:  # the run ended without this call
                        raise Abandoned
            except MalformedOutputError:
                self._run.settle(op_id, "failed", "malformed_result")
                self._stop_call(
                    name,
                    attempt,
                    "malformed_result",
                    stop_for("invalid_evidence", "malformed_result"),
                )
                return
            except (ToolFailure, FileOperationError) as exc:
                code = exc.code if isinstance(exc, ToolFailure) else exc.reason
                self._run.settle(op_id, "failed", code)
                self._answer_failure(call, code, str(exc), attempt)
                return
            except ArtemisError as exc:
                self._run.settle(op_id, "unknown", exc.reason)
                self._run.record_trace(_trace(name, "failed", attempt, exc.reason))
                raise
            except (Abandoned, anyio.get_cancelled_exc_class(), KeyboardInterrupt):
                # an interrupted handler's attempt is settled with the run's
                # other unsettled operations (unknown, interrupted)
                raise
            except BaseException as exc:
                if holds_cancellation(exc):
                    raise
                self._handler_raised(name, tool.effect, op_id, attempt, exc)
                return
        output = result.output
        content = result.encoded
        if fault is not None and fault.kind == "conflicting_instructions":
            output = {**output, "content": f"{output['content']}\n\n{fault.content}"}
            content = None
        if content is None:
            content = json.dumps(output, ensure_ascii=False)
        reason = None if fault is None else f"fault_{fault.kind}"
        self._run.settle_tool_success(
            op_id,
            call,
            reason=reason,
            content=content,
            trace=_trace(name, "succeeded", attempt, None),
            local=result.local,
            change=result.change,
        )
