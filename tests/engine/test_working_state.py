"""The state owner's working copy: a state once handed out never changes.

Within a step `RunState` changes its own copy of the state in place; the first
transition after the state was published (to the checkpointing, to a caller
reading ``session.state``) copies it first. These tests hold on to published
states and check that later transitions leave them exactly as they were.
"""

from __future__ import annotations

from typing import Any

import anyio
import attrs

from artemiskit import ArtemisKit, TargetRequest, TargetResponse, WorkflowSession
from artemiskit._common._converter import CONVERTER
from artemiskit.engine import _transitions as t
from artemiskit.engine._events import EventHub
from artemiskit.engine._run_state import RunState
from artemiskit.engine._state import LocalState, SessionState, TraceEntry
from tests._builders import workflow_dict
from tests._runs import DONE, call, calling, workflow_of

READ = {"path": "docs/policy.md"}
READ_ONCE = {"id": "read", "tool_called": "read_file", "min": 1}


def _frozen_copy(state: SessionState) -> object:
    return CONVERTER.unstructure(state, SessionState)


def test_a_published_state_stays_as_it_was_through_later_transitions() -> None:
    run = RunState(t.start(None, LocalState()), hub=EventHub(run_id="r"))
    run.open_turn("Read the policy.")
    kept: list[tuple[SessionState, object]] = []
    for step in range(3):
        op_id = run.admit("model_request")
        kept.append((run.published(), _frozen_copy(run.state)))
        response = calling(call("read_file", READ, call_id=f"c{step}"))
        run.settle_response(op_id, response, max_tokens=None, record=True)
        op_id = run.admit_tool_attempt("read_file", 1)
        run.settle_tool_success(
            op_id,
            run.state.pending_calls[0],
            reason=None,
            content="{}",
            trace=TraceEntry(tool="read_file", status="succeeded"),
            local=None,
            change=None,
        )
    for state, then in kept:
        assert _frozen_copy(state) == then
    assert run.state.counters.actions == 6
    assert len(run.state.conversation) == 7


def test_in_place_steps_build_what_the_pure_transitions_build() -> None:
    start = t.open_turn(t.start(None, LocalState()), "Read the policy.")
    run = RunState(start, hub=EventHub(run_id="r"))
    state = start
    response = calling(call("read_file", READ))
    trace = TraceEntry(tool="read_file", status="succeeded")
    op_id = run.admit("model_request")
    state, same_id = t.admit_operation(state, kind="model_request")
    assert op_id == same_id
    run.settle_response(op_id, response, max_tokens=None, record=True)
    state = t.settle_response(state, op_id, response, max_tokens=None, record=True)
    op_id = run.admit_tool_attempt("read_file", 1)
    state, _ = t.admit_operation(
        state, kind="tool_call", tool="read_file", count_attempt=True
    )
    fields: dict[str, Any] = {
        "reason": None,
        "content": "{}",
        "trace": trace,
        "local": None,
        "change": None,
    }
    run.settle_tool_success(op_id, response.tool_calls[0], **fields)
    state = t._replace(
        state, **t.tool_success_fields(state, op_id, response.tool_calls[0], **fields)
    )
    assert run.state == state
    assert run.state is not start
    assert start == t.open_turn(t.start(None, LocalState()), "Read the policy.")
    assert attrs.evolve(run.state) == state


class _Watching:
    """Keeps ``session.state`` at every request, with its content at that time."""

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.session: WorkflowSession | None = None
        self.kept: list[tuple[SessionState, object]] = []

    async def respond(self, request: TargetRequest) -> TargetResponse:
        assert self.session is not None
        state = self.session.state
        self.kept.append((state, _frozen_copy(state)))
        await anyio.lowlevel.checkpoint()
        if len(self.kept) > self.steps:
            return DONE
        return calling(call("read_file", READ, call_id=f"c{len(self.kept)}"))


async def test_a_state_a_caller_read_during_the_run_never_changes() -> None:
    workflow = workflow_of(workflow_dict(outcomes=[READ_ONCE]))
    target = _Watching(steps=3)
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow, target=target
    )
    target.session = session
    result = await session.run()
    assert result.exit_code == 0
    assert len(target.kept) == 4
    for state, then in target.kept:
        assert _frozen_copy(state) == then
    counts = [state.counters.model_requests for state, _ in target.kept]
    assert counts == [1, 2, 3, 4]
