"""Answering the model's tool calls: admission, the fault schedule, bounded retries.

Each pending call is counted as attempted, admitted (declared → input schema →
allow) or denied, then executed attempt by attempt. Between admission and execution
the fault schedule may inject a declared fault; only ``unavailable_tool`` and
``timeout`` fail before any effect, so only they are retried, within
``retry.max_attempts``, every attempt counted against the budgets.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import anyio

from artemiskit._errors import ArtemisError, FileOperationError
from artemiskit.engine import _transitions as t
from artemiskit.engine._admission import admit_tool_call
from artemiskit.engine._budget import tool_call_stop
from artemiskit.engine._faults import RETRYABLE_KINDS, ScheduledFault
from artemiskit.engine._state import Denial, Stop, TraceEntry
from artemiskit.engine._tool_invocation import (
    Invoked,
    MalformedOutputError,
    invoke_tool,
)
from artemiskit.tools._tool import ToolFailure

if TYPE_CHECKING:
    from artemiskit.engine._events import EventHub
    from artemiskit.engine._state import OperationStatus, SessionState
    from artemiskit.environments._base import Environment
    from artemiskit.targets._protocol import ToolCall
    from artemiskit.tools._catalogue import Catalogue
    from artemiskit.workflow._model import ToolDeclaration, Workflow

__all__ = ["ToolCallRunner"]


class ToolCallRunner:
    """The tool-call half of `WorkflowSession` (kept apart to keep both readable)."""

    _workflow: Workflow
    _state: SessionState
    _hub: EventHub
    _declared: dict[str, ToolDeclaration]
    _catalogue: Catalogue
    _ledger_limit: int

    def _set(self, state: SessionState) -> None:
        raise NotImplementedError

    def _stop(self, stop: Stop) -> None:
        raise NotImplementedError

    def _settle(
        self, op_id: str, status: OperationStatus, reason: str | None = None
    ) -> None:
        raise NotImplementedError

    async def _commit(self) -> None:
        raise NotImplementedError

    async def _safe_boundary(self) -> bool:
        raise NotImplementedError

    async def _admission_stop(self) -> Stop | None:
        raise NotImplementedError

    async def _tool_call_stop(self) -> Stop | None:
        """Why another tool-call attempt may not be admitted, or ``None``."""
        return await self._admission_stop() or tool_call_stop(
            self._state.counters, self._workflow.budgets
        )

    async def _run_tool_calls(self, environment: Environment) -> bool:
        """Answer every pending tool call; False when the execution stopped."""
        while self._state.pending_calls:
            if not await self._safe_boundary():
                return False
            call = self._state.pending_calls[0]
            stop = await self._tool_call_stop()
            if stop is not None:
                self._stop(stop)
                return False
            self._set(t.count_tool_attempt(self._state))
            admission = admit_tool_call(call, self._declared, self._catalogue)
            if admission.denial is not None:
                if not self._deny(call, admission.denial):
                    return False
                continue
            assert admission.arguments is not None
            await self._execute_tool(environment, call, admission.arguments)
            if self._state.stop is not None:
                return False
        return True

    def _deny(self, call: ToolCall, reason: str) -> bool:
        """Record a denial; False when policy stops the run on denial."""
        tool = call.name if call.name in self._catalogue else None
        self._set(t.record_denial(self._state, Denial(tool=tool, reason=reason)))
        self._hub.emit("tool_denied", tool=tool, reason=reason)
        trace = TraceEntry(
            tool=tool or "undeclared", status="denied", attempts=0, reason=reason
        )
        if self._workflow.policy.on_denial == "stop":
            self._set(t.record_trace(self._state, trace))
            self._stop(Stop(status="policy_denied", reason=reason, exit_code=4))
            return False
        content = json.dumps({"error": {"code": "policy_denied", "reason": reason}})
        self._set(
            t.answer_tool_call(
                self._state, call, content=content, is_error=True, trace=trace
            )
        )
        return True

    def _answer_failure(
        self, call: ToolCall, code: str, message: str, attempts: int
    ) -> None:
        content = json.dumps({"error": {"code": code, "message": message}})
        trace = TraceEntry(
            tool=call.name, status="failed", attempts=attempts, reason=code
        )
        self._set(
            t.answer_tool_call(
                self._state, call, content=content, is_error=True, trace=trace
            )
        )

    async def _execute_tool(
        self, environment: Environment, call: ToolCall, arguments: dict[str, Any]
    ) -> None:
        """Run one admitted logical call, attempt by attempt."""
        name = call.name
        schedule, occurrence = self._state.faults.begin_call(name)
        self._set(t.update_faults(self._state, schedule))
        max_attempts = self._workflow.retry.max_attempts
        attempt = 1
        faulted = False
        while True:
            if attempt > 1:
                stop = await self._tool_call_stop()
                if stop is not None:
                    self._finish_call(attempt - 1, succeeded=False, faulted=faulted)
                    self._stop(stop)
                    return
                self._set(t.count_tool_attempt(self._state))
            schedule, fault = self._state.faults.take(name, occurrence)
            self._set(t.update_faults(self._state, schedule))
            state, op_id = t.admit_operation(
                self._state,
                kind="tool_call",
                tool=name,
                attempt=attempt,
                ledger_limit=self._ledger_limit,
            )
            self._set(state)
            await self._commit()
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
                self._settle(op_id, "failed", code)
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
                self._settle(op_id, "failed", "fault_malformed_result")
                self._finish_call(attempt, succeeded=False, faulted=True)
                self._stop(
                    Stop(
                        status="invalid_evidence",
                        reason="malformed_result",
                        exit_code=7,
                    )
                )
                return
            await self._attempt(environment, call, arguments, op_id, fault, attempt)
            self._finish_call(
                attempt,
                succeeded=self._state.stop is None
                and self._state.trace[-1].status == "succeeded",
                faulted=faulted,
            )
            return

    def _finish_call(self, attempts: int, *, succeeded: bool, faulted: bool) -> None:
        schedule = self._state.faults.finish_call(
            attempts=attempts, succeeded=succeeded, faulted=faulted
        )
        self._set(t.update_faults(self._state, schedule))

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
            try:
                result = await invoke_tool(
                    self._catalogue[name],
                    arguments,
                    environment=environment,
                    local=self._state.local,
                    allow=self._declared[name].allow.as_mapping(),
                    new_id=lambda prefix: f"{prefix}-{op_id.removeprefix('op-')}",
                )
            except MalformedOutputError:
                self._settle(op_id, "failed", "malformed_result")
                self._stop(
                    Stop(
                        status="invalid_evidence",
                        reason="malformed_result",
                        exit_code=7,
                    )
                )
                return
            except (ToolFailure, FileOperationError) as exc:
                code = exc.code if isinstance(exc, ToolFailure) else exc.reason
                self._settle(op_id, "failed", code)
                self._answer_failure(call, code, str(exc), attempt)
                return
            except ArtemisError as exc:
                self._settle(op_id, "unknown", exc.reason)
                raise
        output = result.output
        if fault is not None and fault.kind == "conflicting_instructions":
            output = {**output, "content": f"{output['content']}\n\n{fault.content}"}
        reason = None if fault is None else f"fault_{fault.kind}"
        self._settle(op_id, "succeeded", reason)
        if result.change is not None:
            self._set(t.record_change(self._state, result.change))
        self._set(
            t.answer_tool_call(
                self._state,
                call,
                content=json.dumps(output, ensure_ascii=False),
                is_error=False,
                trace=TraceEntry(tool=name, status="succeeded", attempts=attempt),
                local=result.local,
            )
        )
