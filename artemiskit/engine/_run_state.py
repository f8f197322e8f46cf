"""`RunState`: the one owner of a run's session state.

Every change to what a checkpoint persists goes through a method here, and each
method applies one named transition of `artemiskit.engine._transitions`; nothing
else in the engine replaces the state. The methods that the record's readers
observe as events (a stop, a settled operation) emit them here too.

The per-step transitions change a working copy: the first transition after the
state was handed out (`RunState.published`: to the checkpointing, to a caller)
copies it, later ones set the copy's fields in place, so a step that hands
nothing out (a run without a checkpoint store) copies the state only once, and
every state handed out stays exactly as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit._common._slots import slot_evolver, slot_updater
from artemiskit.engine import _transitions as t
from artemiskit.engine._ledger import MAX_LEDGER, Ledger
from artemiskit.engine._state import SessionState

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.engine._events import EventHub
    from artemiskit.engine._faults import FaultSchedule
    from artemiskit.engine._preflight import PreflightSummary
    from artemiskit.engine._state import (
        Denial,
        LocalState,
        OperationStatus,
        Stop,
        TraceEntry,
    )
    from artemiskit.records._verification import StateChange
    from artemiskit.targets._protocol import TargetResponse, ToolCall

__all__ = ["RunState"]

_evolve = slot_evolver(SessionState)
_update = slot_updater(SessionState)


class RunState:
    """Holds the session state of one run and advances it through transitions.

    Attributes:
        state: The current session state, to read (only the methods here change
            it). A plain attribute: the engine reads it about thirty times a
            step. Whoever keeps the state object itself takes it from
            `published` instead.
    """

    def __init__(
        self, state: SessionState, *, hub: EventHub, ledger_limit: int = MAX_LEDGER
    ) -> None:
        self.state = state
        self._hub = hub
        self._ledger_limit = ledger_limit
        #: Whether ``state`` is a copy made here that nobody else holds.
        self._owned = False

    def published(self) -> SessionState:
        """The current state, for a holder that may keep it; it never changes again."""
        self._owned = False
        return self.state

    def _apply(self, changes: Mapping[str, Any]) -> None:
        """Change fields: in the working copy, or in a new copy if it was published."""
        if not changes:
            return
        if self._owned:
            _update(self.state, changes)
        else:
            self.state = _evolve(self.state, changes)
            self._owned = True

    def _adopt(self, state: SessionState) -> None:
        """Take the state a whole transition returned (a new copy, or the same)."""
        if state is not self.state:
            self.state = state
            self._owned = True

    @classmethod
    def start(
        cls,
        system: str | None,
        local: LocalState,
        faults: FaultSchedule,
        *,
        hub: EventHub,
        ledger_limit: int = MAX_LEDGER,
    ) -> RunState:
        """The state of a run before its first turn."""
        return cls(t.start(system, local, faults), hub=hub, ledger_limit=ledger_limit)

    def restore(self, state: SessionState) -> None:
        """Continue from a paused checkpoint's state."""
        self._adopt(t.resume(state))

    def load_fixture(self, documents: dict[str, Any], records: dict[str, Any]) -> None:
        """Seed the local state with a referenced fixture's data."""
        self._adopt(t.load_fixture(self.state, documents, records))

    def stop(self, stop: Stop) -> None:
        """Record why the execution stopped (the first stop wins) and say so."""
        self._adopt(t.stop(self.state, stop))
        self._hub.emit("execution_stopped", status=stop.status, reason=stop.reason)

    def open_turn(self, user_text: str) -> None:
        """Append the current turn's user message."""
        self._adopt(t.open_turn(self.state, user_text))

    def finish_turn(self) -> None:
        """Move to the next user turn."""
        self._adopt(t.finish_turn(self.state))

    def complete(self) -> None:
        """Mark every turn done."""
        self._adopt(t.complete(self.state))

    def admit(self, kind: str, *, tool: str | None = None, attempt: int = 1) -> str:
        """Admit an operation before it is invoked; return its id."""
        fields, op_id = t.admission_fields(
            self.state,
            kind=kind,
            tool=tool,
            attempt=attempt,
            ledger_limit=self._ledger_limit,
        )
        self._apply(fields)
        return op_id

    def admit_tool_attempt(self, tool: str, attempt: int) -> str:
        """Count a tool-call attempt and admit it before it is invoked; its id."""
        fields, op_id = t.admission_fields(
            self.state,
            kind="tool_call",
            tool=tool,
            attempt=attempt,
            ledger_limit=self._ledger_limit,
            count_attempt=True,
        )
        self._apply(fields)
        return op_id

    def settle(
        self, op_id: str, status: OperationStatus, reason: str | None = None
    ) -> None:
        """Settle an admitted operation and say so."""
        self._apply(t.settlement_fields(self.state, op_id, status, reason))
        self._hub.emit(
            "operation_settled", operation_id=op_id, status=status, reason=reason
        )

    def settle_response(
        self,
        op_id: str,
        response: TargetResponse,
        *,
        max_tokens: int | None,
        record: bool = False,
    ) -> None:
        """Settle a model request that answered, count its usage, and say so.

        With ``record`` the answer is also recorded (`record_model_response`).
        """
        self._apply(
            t.response_fields(
                self.state, op_id, response, max_tokens=max_tokens, record=record
            )
        )
        usage = response.usage
        self._hub.emit(
            "operation_settled",
            operation_id=op_id,
            status="succeeded",
            reason=None,
            input_tokens=None if usage is None else usage.input_tokens,
            output_tokens=None if usage is None else usage.output_tokens,
        )

    def settle_unmeasured(
        self, op_id: str, status: OperationStatus, reason: str
    ) -> None:
        """Settle a request without a valid response: its usage is unknown."""
        self._adopt(t.count_unmeasured(self.state))
        self.settle(op_id, status, reason)

    def settle_interrupted(self) -> None:
        """Mark every operation still admitted as interrupted (outcome unknown)."""
        for op in tuple(Ledger.of(self.state).unsettled()):
            self._apply(
                t.settlement_fields(self.state, op.id, "unknown", "interrupted")
            )

    def settle_abandoned(self) -> None:
        """Settle every operation still admitted as one that did not stop.

        The run was cancelled or passed its deadline and the target (or a tool
        handler) ignored it for the whole drain period: the outcome is unknown,
        a model request's usage too.
        """
        for op in tuple(Ledger.of(self.state).unsettled()):
            if op.kind == "model_request":
                self.settle_unmeasured(op.id, "unknown", "target_did_not_stop")
            else:
                self.settle(op.id, "unknown", "tool_did_not_stop")

    def count_tool_attempt(self) -> None:
        """Count one attempted tool call."""
        self._adopt(t.count_tool_attempt(self.state))

    def account_usage(
        self, response: TargetResponse, *, max_tokens: int | None
    ) -> None:
        """Add a response's reported usage (or its absence) to the counters."""
        self._adopt(t.account_usage(self.state, response, max_tokens=max_tokens))

    def record_model_response(self, response: TargetResponse) -> None:
        """Append the assistant message and queue its tool calls."""
        self._adopt(t.record_model_response(self.state, response))

    def answer_tool_call(
        self,
        call: ToolCall,
        *,
        content: str,
        is_error: bool,
        trace: TraceEntry,
        local: LocalState | None = None,
    ) -> None:
        """Answer the first pending call and trace it."""
        self._apply(t.answer_fields(self.state, call, content, is_error, trace, local))

    def settle_tool_success(
        self,
        op_id: str,
        call: ToolCall,
        *,
        reason: str | None,
        content: str,
        trace: TraceEntry,
        local: LocalState | None,
        change: StateChange | None,
    ) -> None:
        """Settle a tool call that succeeded, keep its evidence, answer it; say so."""
        self._apply(
            t.tool_success_fields(
                self.state,
                op_id,
                call,
                reason=reason,
                content=content,
                trace=trace,
                local=local,
                change=change,
            )
        )
        self._hub.emit(
            "operation_settled", operation_id=op_id, status="succeeded", reason=reason
        )

    def record_denial(self, denial: Denial) -> None:
        """Remember a policy denial."""
        self._adopt(t.record_denial(self.state, denial))

    def record_trace(self, entry: TraceEntry) -> None:
        """Trace a call that gets no answer (a denial that stops the run)."""
        self._adopt(t.record_trace(self.state, entry))

    def record_change(self, change: StateChange) -> None:
        """Keep state-change evidence, bounded."""
        self._adopt(t.record_change(self.state, change))

    def record_preflight(self, summary: PreflightSummary) -> None:
        """Keep the probe's result."""
        self._adopt(t.record_preflight(self.state, summary))

    def update_faults(self, faults: FaultSchedule) -> None:
        """Replace the fault schedule."""
        self._adopt(t.update_faults(self.state, faults))
