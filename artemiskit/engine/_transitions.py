"""The named transitions of a session: each takes a state and returns the next.

The session advances only through these functions, and only `RunState` (the one
owner of a run's state) calls them, so every change to what a checkpoint would
persist is visible here, in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._slots import slot_builder, slot_evolver
from artemiskit.engine._faults import FaultSchedule
from artemiskit.engine._ledger import MAX_LEDGER, Ledger, append_operation
from artemiskit.engine._state import (
    Counters,
    Cursor,
    Denial,
    LocalState,
    Operation,
    Operations,
    OperationStatus,
    SessionState,
    Stop,
    TraceEntry,
)
from artemiskit.targets._protocol import Message, TargetResponse, ToolCall, new_message

if TYPE_CHECKING:
    from artemiskit.engine._preflight import PreflightSummary
    from artemiskit.records._verification import StateChange

__all__ = [
    "MAX_CHANGES",
    "MAX_LEDGER",
    "account_usage",
    "admission_fields",
    "admit_operation",
    "answer_fields",
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
    "response_fields",
    "resume",
    "settle_operation",
    "settle_response",
    "settlement_fields",
    "start",
    "stop",
    "tool_success_fields",
    "update_faults",
]

#: State-change evidence keeps this many entries; more are counted as omitted.
MAX_CHANGES = 200

_evolve_state = slot_evolver(SessionState)
_counters = slot_builder(Counters)
_operation = slot_builder(Operation)
_message = new_message
_cursor = slot_builder(Cursor)


def _replace(state: SessionState, **changes: Any) -> SessionState:
    """``attrs.evolve`` for the per-step transitions, without its generic machinery.

    `SessionState` has no validators or converters (a test pins this; with
    some, `slot_evolver` would fall back to ``attrs.evolve``), so a copy of its
    slots with ``changes`` applied is exactly what ``attrs.evolve`` builds.
    """
    return _evolve_state(state, changes)


def _counted(
    counters: Counters,
    *,
    actions: int = 0,
    model_requests: int = 0,
    tool_calls: int = 0,
    unmeasured: int = 0,
    provider_retries: int = 0,
) -> Counters:
    return _counters(
        counters.actions + actions,
        counters.model_requests + model_requests,
        counters.tool_calls + tool_calls,
        counters.measured_input_tokens,
        counters.measured_output_tokens,
        counters.measured_responses,
        counters.unmeasured_responses + unmeasured,
        counters.provider_retries + provider_retries,
    )


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
    return _replace(state, faults=faults)


def open_turn(state: SessionState, user_text: str) -> SessionState:
    """Append the current turn's user message."""
    return _replace(
        state,
        turn_open=True,
        conversation=state.conversation + (Message(role="user", content=user_text),),
    )


def admit_operation(state: SessionState, **options: Any) -> tuple[SessionState, str]:
    """Record an operation as admitted, before it is invoked; return its id.

    ``options`` are those of `admission_fields`, which says what changes.
    """
    fields, op_id = admission_fields(state, **options)
    return _replace(state, **fields), op_id


def admission_fields(
    state: SessionState,
    *,
    kind: str,
    tool: str | None = None,
    attempt: int = 1,
    ledger_limit: int = MAX_LEDGER,
    count_attempt: bool = False,
) -> tuple[dict[str, Any], str]:
    """The changed fields of `admit_operation`, and the operation's id.

    The ledger keeps the newest ``ledger_limit`` operations; older ones are
    counted in ``ledger_omitted``. With ``count_attempt`` a tool call is also
    counted as attempted (`count_tool_attempt` and this, in one copy).
    """
    operations, omitted, op_id = append_operation(
        state.ledger,
        state.ledger_omitted,
        state.next_operation,
        "model_request" if kind == "model_request" else "tool_call",
        tool=tool,
        attempt=attempt,
        limit=ledger_limit,
    )
    counters = state.counters
    if kind == "model_request":  # `_counted`, unrolled: every step admits
        counters = _counters(
            counters.actions + 1,
            counters.model_requests + 1,
            counters.tool_calls,
            counters.measured_input_tokens,
            counters.measured_output_tokens,
            counters.measured_responses,
            counters.unmeasured_responses,
            counters.provider_retries + (attempt > 1),
        )
    elif count_attempt:
        counters = _counters(
            counters.actions + 1,
            counters.model_requests,
            counters.tool_calls + 1,
            counters.measured_input_tokens,
            counters.measured_output_tokens,
            counters.measured_responses,
            counters.unmeasured_responses,
            counters.provider_retries,
        )
    fields = {
        "ledger": operations,
        "ledger_omitted": omitted,
        "next_operation": state.next_operation + 1,
        "counters": counters,
    }
    return fields, op_id


def settle_operation(
    state: SessionState,
    op_id: str,
    status: OperationStatus,
    reason: str | None = None,
) -> SessionState:
    """Mark an admitted operation succeeded, failed or unknown."""
    fields = settlement_fields(state, op_id, status, reason)
    return _replace(state, **fields) if fields else state


def settlement_fields(
    state: SessionState,
    op_id: str,
    status: OperationStatus,
    reason: str | None = None,
) -> dict[str, Any]:
    """The changed fields of `settle_operation` (none when ``op_id`` is not kept)."""
    ledger = _settled(state, op_id, status, reason)
    return {} if ledger is state.ledger else {"ledger": ledger}


def _settled(
    state: SessionState, op_id: str, status: OperationStatus, reason: str | None
) -> Operations:
    """The ledger with ``op_id`` settled (the latest operation, almost always)."""
    operations = state.ledger
    last = operations.last if type(operations) is Operations else None
    if last is None or last.id != op_id:
        return Ledger.of(state).settle(op_id, status, reason).operations
    return operations.replace_last(
        _operation(last.id, last.kind, status, last.tool, last.attempt, reason)
    )


def count_tool_attempt(state: SessionState) -> SessionState:
    """Count one attempted tool call against ``max_actions`` and ``max_tool_calls``."""
    return _replace(state, counters=_counted(state.counters, actions=1, tool_calls=1))


def count_unmeasured(state: SessionState) -> SessionState:
    """Count a model request whose usage is unknown (it failed or was cut off)."""
    return _replace(state, counters=_counted(state.counters, unmeasured=1))


def account_usage(
    state: SessionState, response: TargetResponse, *, max_tokens: int | None
) -> SessionState:
    """Add a response's provider-reported usage (or its absence) to the counters."""
    return _replace(state, **_usage(state, response, max_tokens))


def _usage(
    state: SessionState, response: TargetResponse, max_tokens: int | None
) -> dict[str, Any]:
    """The changed fields of `account_usage`."""
    if response.usage is None:
        return {"counters": _counted(state.counters, unmeasured=1)}
    before = state.counters
    counters = _counters(
        before.actions,
        before.model_requests,
        before.tool_calls,
        before.measured_input_tokens + response.usage.input_tokens,
        before.measured_output_tokens + response.usage.output_tokens,
        before.measured_responses + 1,
        before.unmeasured_responses,
        before.provider_retries,
    )
    overshoot = state.overshoot_tokens
    if max_tokens is not None and counters.measured_tokens > max_tokens:
        overshoot = counters.measured_tokens - max_tokens
    return {"counters": counters, "overshoot_tokens": overshoot}


def settle_response(
    state: SessionState,
    op_id: str,
    response: TargetResponse,
    *,
    max_tokens: int | None,
    record: bool = False,
) -> SessionState:
    """Settle a model request that answered, and count its usage (one step).

    The same as `settle_operation` then `account_usage` (then
    `record_model_response` with ``record``), in one copy.
    """
    return _replace(
        state,
        **response_fields(state, op_id, response, max_tokens=max_tokens, record=record),
    )


def response_fields(
    state: SessionState,
    op_id: str,
    response: TargetResponse,
    *,
    max_tokens: int | None,
    record: bool = False,
) -> dict[str, Any]:
    """The changed fields of `settle_response`."""
    fields = _usage(state, response, max_tokens)
    if record:
        fields.update(_recorded(state, response))
    fields["ledger"] = _settled(state, op_id, "succeeded", None)
    return fields


def record_model_response(
    state: SessionState, response: TargetResponse
) -> SessionState:
    """Append the assistant message and queue its tool calls (usage is separate)."""
    return _replace(state, **_recorded(state, response))


def _recorded(state: SessionState, response: TargetResponse) -> dict[str, Any]:
    """The changed fields of `record_model_response`."""
    message = _message("assistant", response.text, response.tool_calls, None, False)
    final = state.final_response if response.tool_calls else response.text
    return {
        "conversation": state.conversation + (message,),
        "pending_calls": response.tool_calls,
        "final_response": final,
        "cursor": _cursor(state.cursor.turn, state.cursor.step + 1),
    }


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
    return _replace(
        state, **answer_fields(state, call, content, is_error, trace, local)
    )


def answer_fields(
    state: SessionState,
    call: ToolCall,
    content: str,
    is_error: bool,
    trace: TraceEntry,
    local: LocalState | None,
) -> dict[str, Any]:
    """The changed fields of `answer_tool_call`."""
    return {
        "conversation": state.conversation
        + (_message("tool", content, (), call.id, is_error),),
        "pending_calls": state.pending_calls[1:],
        "trace": state.trace + (trace,),
        "local": state.local if local is None else local,
    }


def tool_success_fields(
    state: SessionState,
    op_id: str,
    call: ToolCall,
    *,
    reason: str | None,
    content: str,
    trace: TraceEntry,
    local: LocalState | None,
    change: StateChange | None,
) -> dict[str, Any]:
    """A tool call that succeeded: settle it, keep its evidence, answer the call.

    The changed fields of `settle_operation`, `record_change` (when there is a
    change) and `answer_tool_call` in that order, in one copy.
    """
    fields = answer_fields(state, call, content, False, trace, local)
    if change is not None:
        fields.update(_change(state, change))
    fields["ledger"] = _settled(state, op_id, "succeeded", reason)
    return fields


def record_denial(state: SessionState, denial: Denial) -> SessionState:
    """Remember a policy denial."""
    return _replace(state, denials=state.denials + (denial,))


def record_change(state: SessionState, change: StateChange) -> SessionState:
    """Keep state-change evidence, bounded."""
    return _replace(state, **_change(state, change))


def _change(state: SessionState, change: StateChange) -> dict[str, Any]:
    """The changed fields of `record_change`."""
    if len(state.changes) >= MAX_CHANGES:
        return {"changes_omitted": state.changes_omitted + 1}
    return {"changes": state.changes + (change,)}


def finish_turn(state: SessionState) -> SessionState:
    """Move the cursor to the next user turn."""
    return _replace(state, cursor=_cursor(state.cursor.turn + 1, 0), turn_open=False)


def complete(state: SessionState) -> SessionState:
    """Mark every turn done."""
    return _replace(state, completed=True)


def stop(state: SessionState, stop_reason: Stop) -> SessionState:
    """Record why the execution stopped (the first stop wins)."""
    if state.stop is not None:
        return state
    return _replace(state, stop=stop_reason)


def record_preflight(state: SessionState, summary: PreflightSummary) -> SessionState:
    """Keep the probe's result so that a resumed run never repeats it."""
    return _replace(state, preflight=summary)


def load_fixture(
    state: SessionState,
    documents: dict[str, Any],
    records: dict[str, Any],
) -> SessionState:
    """Seed the local state with a referenced fixture's documents and records."""
    return _replace(
        state,
        local=attrs.evolve(
            state.local, documents=dict(documents), records=dict(records)
        ),
    )


def resume(state: SessionState) -> SessionState:
    """Continue a paused run: the pause is over, everything else is kept."""
    return _replace(state, stop=None)


def record_trace(state: SessionState, entry: TraceEntry) -> SessionState:
    """Add a trace entry that answers no call (a denial that stops the run)."""
    return _replace(state, trace=state.trace + (entry,))
