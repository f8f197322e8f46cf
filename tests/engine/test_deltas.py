"""State deltas replay exactly: apply_delta(old, state_delta(old, new)) == new."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from artemiskit.engine import _transitions as t
from artemiskit.engine._deltas import apply_delta, state_delta
from artemiskit.engine._state import LocalState, SessionState, TraceEntry
from artemiskit.targets import TargetResponse, ToolCall, Usage

STEPS = st.lists(
    st.sampled_from(["turn", "admit", "settle", "respond", "answer", "count"]),
    max_size=40,
)


def advance(state: SessionState, step: str, n: int) -> SessionState:
    if step == "turn":
        return t.open_turn(state, f"user {n}")
    if step == "admit":
        return t.admit_operation(state, kind="model_request")[0]
    if step == "settle" and state.ledger:
        return t.settle_operation(state, state.ledger[-1].id, "succeeded")
    if step == "respond":
        calls = (ToolCall(id=f"c{n}", name="read_file", arguments="{}"),) * (n % 3)
        response = TargetResponse(
            text=f"text {n}",
            tool_calls=calls,
            usage=Usage(input_tokens=n, output_tokens=1),
        )
        state = t.account_usage(state, response, max_tokens=None)
        return t.record_model_response(state, response)
    if step == "answer" and state.pending_calls:
        return t.answer_tool_call(
            state,
            state.pending_calls[0],
            content=f"result {n}",
            is_error=False,
            trace=TraceEntry(tool="read_file", status="succeeded"),
        )
    if step == "count":
        return t.count_tool_attempt(state)
    return state


@settings(max_examples=80, deadline=None)
@given(STEPS)
def test_deltas_replay_every_transition(steps: list[str]) -> None:
    state = t.start("system", LocalState())
    replayed = state
    for n, step in enumerate(steps):
        new = advance(state, step, n)
        delta = json.loads(json.dumps(state_delta(state, new)))
        replayed = apply_delta(replayed, delta)
        assert replayed == new
        state = new
