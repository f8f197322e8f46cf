"""What one step costs, counted in structure, never in time (SPEC 10).

A step (a model request and the tool call it asks for) gives the event loop one
scheduling point of its own, at the model request's admission, besides those of
the target and the environment; the tool call it admits does not yield (without a
checkpoint store): its admission checks the run's cancel request and deadline
explicitly (`test_never_retried` and the cancel tests show that a cancel still
lands before the next action). The per-step
copies of the state and ledger entries are built by `slot_builder` and
`slot_evolver`, which must build exactly what attrs builds.
"""

from __future__ import annotations

import anyio
import attrs
import pytest
from anyio.lowlevel import checkpoint

from artemiskit import ArtemisKit, TargetRequest, TargetResponse
from artemiskit._common._slots import is_fast, slot_builder, slot_evolver, slot_updater
from artemiskit.engine import (
    _driver,
    _evidence,
    _ledger,
    _tool_invocation,
    _transitions as t,
)
from artemiskit.engine._state import Counters, LocalState, Operation, SessionState
from artemiskit.records._record import new_operation_entry, new_tool_summary
from artemiskit.targets._protocol import new_message, new_target_request
from artemiskit.tools._tool import new_tool_context
from tests._builders import workflow_dict
from tests._runs import DONE, call, calling, workflow_of

STEPS = 4
READ_ONCE = {"id": "read", "tool_called": "read_file", "min": 1}


class _CountingTarget:
    """Reads the ticker at each request, yields once, asks for one read per step."""

    def __init__(self, ticks: list[int]) -> None:
        self.ticks = ticks
        self.seen: list[int] = []

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.seen.append(self.ticks[0])
        await checkpoint()
        if len(self.seen) > STEPS:
            return DONE
        read = {"path": "docs/policy.md"}
        return calling(call("read_file", read, call_id=f"c{len(self.seen)}"))


async def test_a_step_yields_once_besides_its_target_and_environment() -> None:
    ticks = [0]
    finished = anyio.Event()
    target = _CountingTarget(ticks)
    workflow = workflow_of(workflow_dict(outcomes=[READ_ONCE]))

    async def ticker() -> None:
        while not finished.is_set():
            ticks[0] += 1
            await checkpoint()

    async with anyio.create_task_group() as group:
        group.start_soon(ticker)
        await checkpoint()
        result = await ArtemisKit().run_workflow(workflow=workflow, target=target)
        finished.set()
    assert result.exit_code == 0
    assert result.record.budget.used.tool_calls == STEPS
    # the other task ran once per scheduling point: per step the target's own
    # and the model admission's; the tool call's admission and the simulated
    # read have none (trio orders the tasks of one batch at random, so one tick
    # may land on either side of a request)
    ticked = target.seen[-1] - target.seen[0]
    assert ticked <= 2 * STEPS + 1


def test_a_slot_builder_builds_what_the_class_builds() -> None:
    operation = slot_builder(Operation)("op-000007", "tool_call", "failed", "x", 2, "r")
    assert operation == Operation(
        id="op-000007",
        kind="tool_call",
        status="failed",
        tool="x",
        attempt=2,
        reason="r",
    )
    assert type(operation) is Operation
    counters = slot_builder(Counters)(1, 2, 3, 4, 5, 6, 7, 8)
    assert counters == Counters(
        actions=1,
        model_requests=2,
        tool_calls=3,
        measured_input_tokens=4,
        measured_output_tokens=5,
        measured_responses=6,
        unmeasured_responses=7,
        provider_retries=8,
    )


def test_a_slot_evolver_copies_and_replaces() -> None:
    state = SessionState(counters=Counters(actions=3))
    evolved = slot_evolver(SessionState)(state, {"completed": True})
    assert evolved == attrs.evolve(state, completed=True)
    assert state.completed is False


@attrs.frozen
class _Checked:
    value: int = attrs.field(validator=attrs.validators.instance_of(int))


def test_a_class_that_validates_keeps_its_checks_through_the_helpers() -> None:
    # a validator added to a class never breaks the modules that build it fast:
    # its builder and evolver fall back to the class's own __init__
    build = slot_builder(_Checked)
    assert build(3) == _Checked(3)
    assert not is_fast(build)
    with pytest.raises(TypeError, match="value"):
        build("three")
    evolve = slot_evolver(_Checked)
    assert evolve(_Checked(3), {"value": 4}) == _Checked(4)
    with pytest.raises(TypeError, match="value"):
        evolve(_Checked(3), {"value": "four"})
    with pytest.raises(TypeError, match="_Checked"):
        slot_updater(_Checked)


def test_the_hot_classes_keep_their_fast_constructors() -> None:
    # each made in its class's own module; the engine only uses them
    owned = (
        new_message,
        new_target_request,
        new_tool_summary,
        new_operation_entry,
        new_tool_context,
    )
    assert all(is_fast(build) for build in owned)
    assert _driver._request is new_target_request
    assert _evidence._operation_entry is new_operation_entry
    assert _tool_invocation._context is new_tool_context
    assert is_fast(_ledger._operation)
    assert is_fast(t._counters)
    assert is_fast(t._evolve_state)


def test_a_counted_admission_is_a_count_then_an_admission() -> None:
    state = t.start(None, LocalState())
    folded, folded_id = t.admit_operation(
        state, kind="tool_call", tool="read_file", attempt=2, count_attempt=True
    )
    stepwise, stepwise_id = t.admit_operation(
        t.count_tool_attempt(state), kind="tool_call", tool="read_file", attempt=2
    )
    assert (folded, folded_id) == (stepwise, stepwise_id)


def test_a_recorded_settlement_is_a_settlement_then_a_record() -> None:
    state = t.open_turn(t.start(None, LocalState()), "Read the notes.")
    admitted, op_id = t.admit_operation(state, kind="model_request")
    response = calling(call("read_file", {"path": "docs/policy.md"}))
    folded = t.settle_response(admitted, op_id, response, max_tokens=None, record=True)
    stepwise = t.record_model_response(
        t.settle_response(admitted, op_id, response, max_tokens=None), response
    )
    assert folded == stepwise
