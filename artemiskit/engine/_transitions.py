"""The named transitions of a session: each takes a state and returns the next.

The session advances only through these functions, and only `RunState` (the one
owner of a run's state) calls them, so every change to what a checkpoint would
persist is visible here, in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from artemiskit.engine._faults import FaultSchedule
from artemiskit.engine._ledger import MAX_LEDGER, Ledger
from artemiskit.engine._state import (
    Denial,
    LocalState,
    OperationStatus,
    SessionState,
    Stop,
    TraceEntry,
)
from artemiskit.targets._protocol import Message, TargetResponse, ToolCall

if TYPE_CHECKING:
    from artemiskit.engine._preflight import PreflightSummary
    from artemiskit.records._verification import StateChange

__all__ = [
    "MAX_CHANGES",
    "MAX_LEDGER",
    "account_usage",
    "admit_operation",
    "answer_tool_call",
    "complete",
    "count_tool_attempt",
    "count_unmeasured",
    "finish_turn",
    "load_fixture",
    "open_turn",
    "record_change",
    "record_denial",
    "record_model_response",
    "record_preflight",
    "record_trace",
    "resume",
    "settle_operation",
    "start",
    "stop",
    "update_faults",
]

#: State-change evidence keeps this many entries; more are counted as omitted.
MAX_CHANGES = 200


def start(
    system: str | None, local: LocalState, faults: FaultSchedule | None = None
) -> SessionState:
    """The state of a run before its first turn."""
    conversation = (Message(role="system", content=system),) if system else ()
    return SessionState(
        conversation=conversation, local=local, faults=faults or FaultSchedule()
    )


def update_faults(state: SessionState, faults: FaultSchedule) -> SessionState:
    """Replace the fault schedule (a call began, a fault was consumed)."""
    if faults is state.faults:
        return state
    return attrs.evolve(state, faults=faults)


def open_turn(state: SessionState, user_text: str) -> SessionState:
    """Append the current turn's user message."""
    return attrs.evolve(
        state,
        turn_open=True,
        conversation=(*state.conversation, Message(role="user", content=user_text)),
    )


def admit_operation(
    state: SessionState,
    *,
    kind: str,
    tool: str | None = None,
    attempt: int = 1,
    ledger_limit: int = MAX_LEDGER,
) -> tuple[SessionState, str]:
    """Record an operation as admitted, before it is invoked; return its id.

    The ledger keeps the newest ``ledger_limit`` operations; older ones are
    counted in ``ledger_omitted``.
    """
    ledger, op_id = Ledger.of(state).admit(
        "model_request" if kind == "model_request" else "tool_call",
        tool=tool,
        attempt=attempt,
        limit=ledger_limit,
    )
    counters = state.counters
    if kind == "model_request":
        counters = attrs.evolve(
            counters,
            actions=counters.actions + 1,
            model_requests=counters.model_requests + 1,
            provider_retries=counters.provider_retries + (attempt > 1),
        )
    return attrs.evolve(state, **ledger.fields(), counters=counters), op_id


def settle_operation(
    state: SessionState,
    op_id: str,
    status: OperationStatus,
    reason: str | None = None,
) -> SessionState:
    """Mark an admitted operation succeeded, failed or unknown."""
    ledger = Ledger.of(state).settle(op_id, status, reason)
    return attrs.evolve(state, ledger=ledger.operations)


def count_tool_attempt(state: SessionState) -> SessionState:
    """Count one attempted tool call against ``max_actions`` and ``max_tool_calls``."""
    counters = state.counters
    return attrs.evolve(
        state,
        counters=attrs.evolve(
            counters,
            actions=counters.actions + 1,
            tool_calls=counters.tool_calls + 1,
        ),
    )


def count_unmeasured(state: SessionState) -> SessionState:
    """Count a model request whose usage is unknown (it failed or was cut off)."""
    counters = state.counters
    return attrs.evolve(
        state,
        counters=attrs.evolve(
            counters, unmeasured_responses=counters.unmeasured_responses + 1
        ),
    )


def account_usage(
    state: SessionState, response: TargetResponse, *, max_tokens: int | None
) -> SessionState:
    """Add a response's provider-reported usage (or its absence) to the counters."""
    if response.usage is None:
        return count_unmeasured(state)
    counters = attrs.evolve(
        state.counters,
        measured_responses=state.counters.measured_responses + 1,
        measured_input_tokens=state.counters.measured_input_tokens
        + response.usage.input_tokens,
        measured_output_tokens=state.counters.measured_output_tokens
        + response.usage.output_tokens,
    )
    overshoot = state.overshoot_tokens
    if max_tokens is not None and counters.measured_tokens > max_tokens:
        overshoot = counters.measured_tokens - max_tokens
    return attrs.evolve(state, counters=counters, overshoot_tokens=overshoot)


def record_model_response(
    state: SessionState, response: TargetResponse
) -> SessionState:
    """Append the assistant message and queue its tool calls (usage is separate)."""
    message = Message(
        role="assistant", content=response.text, tool_calls=response.tool_calls
    )
    final = state.final_response if response.tool_calls else response.text
    return attrs.evolve(
        state,
        conversation=(*state.conversation, message),
        pending_calls=response.tool_calls,
        final_response=final,
        cursor=attrs.evolve(state.cursor, step=state.cursor.step + 1),
    )


def answer_tool_call(
    state: SessionState,
    call: ToolCall,
    *,
    content: str,
    is_error: bool,
    trace: TraceEntry,
    local: LocalState | None = None,
) -> SessionState:
    """Append the tool result for ``call`` (the first pending call) and its trace."""
    remaining = state.pending_calls[1:]
    return attrs.evolve(
        state,
        conversation=(
            *state.conversation,
            Message(
                role="tool", content=content, tool_call_id=call.id, is_error=is_error
            ),
        ),
        pending_calls=remaining,
        trace=(*state.trace, trace),
        local=state.local if local is None else local,
    )


def record_denial(state: SessionState, denial: Denial) -> SessionState:
    """Remember a policy denial."""
    return attrs.evolve(state, denials=(*state.denials, denial))


def record_change(state: SessionState, change: StateChange) -> SessionState:
    """Keep state-change evidence, bounded."""
    if len(state.changes) >= MAX_CHANGES:
        return attrs.evolve(state, changes_omitted=state.changes_omitted + 1)
    return attrs.evolve(state, changes=(*state.changes, change))


def finish_turn(state: SessionState) -> SessionState:
    """Move the cursor to the next user turn."""
    cursor = attrs.evolve(state.cursor, turn=state.cursor.turn + 1, step=0)
    return attrs.evolve(state, cursor=cursor, turn_open=False)


def complete(state: SessionState) -> SessionState:
    """Mark every turn done."""
    return attrs.evolve(state, completed=True)


def stop(state: SessionState, stop_reason: Stop) -> SessionState:
    """Record why the execution stopped (the first stop wins)."""
    if state.stop is not None:
        return state
    return attrs.evolve(state, stop=stop_reason)


def record_preflight(state: SessionState, summary: PreflightSummary) -> SessionState:
    """Keep the probe's result so that a resumed run never repeats it."""
    return attrs.evolve(state, preflight=summary)


def load_fixture(
    state: SessionState,
    documents: dict[str, Any],
    records: dict[str, Any],
) -> SessionState:
    """Seed the local state with a referenced fixture's documents and records."""
    return attrs.evolve(
        state,
        local=attrs.evolve(
            state.local, documents=dict(documents), records=dict(records)
        ),
    )


def resume(state: SessionState) -> SessionState:
    """Continue a paused run: the pause is over, everything else is kept."""
    return attrs.evolve(state, stop=None)


def record_trace(state: SessionState, entry: TraceEntry) -> SessionState:
    """Add a trace entry that answers no call (a denial that stops the run)."""
    return attrs.evolve(state, trace=(*state.trace, entry))
