"""What a custom target returns is checked before the engine uses any of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest
from anyio.lowlevel import checkpoint

from artemiskit import (
    ArtemisKit,
    TargetError,
    TargetRequest,
    TargetResponse,
    ToolCall,
    Usage,
    WorkflowSession,
)
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict, write_workflow

READ = json.dumps({"path": "docs/policy.md"})


@attrs.define
class FixedTarget:
    """Answers every request with the same response, counting calls."""

    response: TargetResponse
    calls: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        return self.response


@attrs.define
class FailingTarget:
    """Raises a target failure on every request."""

    calls: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        raise TargetError("the provider failed", reason="provider_server_error")


def budgets(**caps: Any) -> dict[str, Any]:
    declared = {key: value for key, value in caps.items() if value is not None}
    return {"max_actions": 20, "timeout_ms": 30000, **declared}


@pytest.mark.parametrize("max_tokens", [None, 1000])
@pytest.mark.parametrize(
    ("input_tokens", "output_tokens"),
    [(-1, 2), (1.5, 2), (True, 2), ("5", 2), (3, -2), (3, 2.0), (3, None)],
)
async def test_malformed_usage_is_an_invalid_response_and_unmeasured(
    tmp_path: Path, input_tokens: Any, output_tokens: Any, max_tokens: int | None
) -> None:
    path = write_workflow(
        tmp_path, workflow_dict(budgets=budgets(max_tokens=max_tokens))
    )
    usage = Usage(input_tokens=input_tokens, output_tokens=output_tokens)
    target = FixedTarget(TargetResponse(text="Done.", usage=usage))
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    record = result.record
    assert target.calls == 1
    assert record.execution.reason == "invalid_target_response"
    assert result.exit_code == 2
    assert record.budget.usage_measurement == "unavailable"
    assert record.budget.used.input_tokens is None
    assert record.budget.used.output_tokens is None
    assert record.budget.unmeasured_responses == 1
    assert record.budget.measured_input_tokens == 0
    assert record.operations.failed == 1
    record_to_dict(record)  # validates against the shipped schema


async def test_a_failed_request_is_not_measured_as_free(tmp_path: Path) -> None:
    path = write_workflow(tmp_path, workflow_dict(budgets=budgets(max_tokens=1000)))
    target = FailingTarget()
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    assert result.record.execution.reason == "provider_server_error"
    assert result.exit_code == 7
    assert result.record.budget.usage_measurement == "unavailable"
    assert result.record.budget.unmeasured_responses == 1


@pytest.mark.parametrize(
    "calls",
    [
        (ToolCall(id="", name="read_file", arguments=READ),),
        (
            ToolCall(id="same", name="read_file", arguments=READ),
            ToolCall(id="same", name="read_file", arguments=READ),
        ),
    ],
    ids=["empty-id", "duplicate-id"],
)
async def test_empty_or_duplicate_tool_call_ids_are_refused(
    tmp_path: Path, calls: tuple[ToolCall, ...]
) -> None:
    path = write_workflow(tmp_path)
    usage = Usage(input_tokens=1, output_tokens=1)
    target = FixedTarget(TargetResponse(tool_calls=calls, usage=usage))
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    record = result.record
    assert record.execution.reason == "invalid_target_response"
    assert result.exit_code == 2
    assert record.budget.used.tool_calls == 0
    assert record.tools == ()
    assert [m.role for m in result.transcript] == ["user"]
    assert record.budget.usage_measurement == "unavailable"


FOUR_TURNS = {"turns": [{"user": f"Turn {n}."} for n in range(4)]}


@attrs.define
class CancellingTarget:
    """Calls ``session.cancel()`` from inside its first request, never yielding
    outside a shield, so only the engine's own checks can stop new work."""

    response: TargetResponse
    shield: bool = False
    session: WorkflowSession | None = None
    calls: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        assert self.session is not None
        self.session.cancel()
        if self.shield:
            with anyio.CancelScope(shield=True):
                await checkpoint()
        return self.response


@pytest.mark.parametrize("shield", [False, True], ids=["plain", "shielded"])
@pytest.mark.parametrize(
    "response",
    [
        TargetResponse(text="Done.", usage=Usage(input_tokens=1, output_tokens=1)),
        TargetResponse(
            tool_calls=(
                ToolCall(id="a", name="read_document", arguments='{"id": "d"}'),
                ToolCall(id="b", name="read_document", arguments='{"id": "d"}'),
            ),
            usage=Usage(input_tokens=1, output_tokens=1),
        ),
    ],
    ids=["text", "tool-calls"],
)
@pytest.mark.parametrize("turns", [1, 4])
async def test_cancel_from_a_target_that_never_yields_stops_new_admissions(
    tmp_path: Path, response: TargetResponse, shield: bool, turns: int
) -> None:
    workflow = workflow_dict(
        conversation={"turns": FOUR_TURNS["turns"][:turns]},
        tools=[{"name": "read_document", "allow": {"ids": ["*"]}}],
        environment={"state": {"documents": {"d": {"title": "t", "content": "c"}}}},
        outcomes=[],
    )
    path = write_workflow(tmp_path, workflow)
    target = CancellingTarget(response, shield=shield)
    session = await ArtemisKit().create_workflow_session(workflow=path, target=target)
    target.session = session
    result = await session.run()
    record = result.record
    assert target.calls == 1
    assert record.execution.status == "cancelled"
    assert result.exit_code == 130
    assert record.budget.used.model_requests == 1
    assert record.budget.used.tool_calls == 0
    assert record.task_verification.status == "unavailable"


async def test_a_cancel_that_lands_before_a_tool_call_says_so_once(
    tmp_path: Path,
) -> None:
    """The tool call's admission sees the cancel without yielding: one stop event.

    Nothing more is admitted after the model request, and the run announces
    its stop exactly once, with the cancel's reason.
    """
    workflow = workflow_dict(
        tools=[{"name": "read_document", "allow": {"ids": ["*"]}}],
        environment={"state": {"documents": {"d": {"title": "t", "content": "c"}}}},
        outcomes=[],
    )
    path = write_workflow(tmp_path, workflow)
    call = ToolCall(id="a", name="read_document", arguments='{"id": "d"}')
    target = CancellingTarget(
        TargetResponse(tool_calls=(call,), usage=Usage(input_tokens=1, output_tokens=1))
    )
    session = await ArtemisKit().create_workflow_session(workflow=path, target=target)
    target.session = session
    events = session.events()
    result = await session.run()
    seen = [event async for event in events]
    stops = [event for event in seen if event.type == "execution_stopped"]
    assert [(e.status, e.reason) for e in stops] == [("cancelled", "cancelled")]
    admitted = [event for event in seen if event.type == "operation_admitted"]
    assert [event.status for event in admitted] == ["model_request"]
    assert result.record.execution.reason == "cancelled"
    assert result.record.operations.total == 1


@attrs.define
class LateTarget:
    """Returns only after the workflow's 1 ms deadline has certainly passed,
    without ever yielding to the event loop."""

    calls: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        start = anyio.current_time()
        while anyio.current_time() < start + 0.005:
            pass
        return TargetResponse(
            text="Done.", usage=Usage(input_tokens=1, output_tokens=1)
        )


async def test_a_passed_deadline_stops_new_admissions(tmp_path: Path) -> None:
    workflow = workflow_dict(
        conversation=FOUR_TURNS,
        budgets={"max_actions": 20, "timeout_ms": 1},
        outcomes=[],
    )
    path = write_workflow(tmp_path, workflow)
    target = LateTarget()
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    record = result.record
    # The first request is admitted only if creating the environment took less
    # than 1 ms; either way nothing is admitted once the deadline has passed.
    assert target.calls <= 1
    assert record.budget.used.model_requests == target.calls
    assert record.execution.status == "deadline_exceeded"
    assert record.execution.reason == "timeout_ms"
    assert result.exit_code == 6


@attrs.define
class HangingTarget:
    """Never answers: only cancellation or the deadline ends its request."""

    started: anyio.Event = attrs.Factory(anyio.Event)

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.started.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")


async def test_a_request_cut_off_by_cancel_is_unmeasured(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    target = HangingTarget()
    session = await ArtemisKit().create_workflow_session(workflow=path, target=target)

    async def cancel_once_started() -> None:
        await target.started.wait()
        session.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(cancel_once_started)
        result = await session.run()
    budget = result.record.budget
    assert result.record.execution.status == "cancelled"
    assert budget.used.model_requests == 1
    assert budget.usage_measurement == "unavailable"
    assert budget.unmeasured_responses == 1
    assert budget.used.input_tokens is None
    assert result.record.operations.unknown == 1


async def test_a_request_cut_off_by_the_deadline_is_unmeasured(
    tmp_path: Path,
) -> None:
    workflow = workflow_dict(budgets={"max_actions": 20, "timeout_ms": 1000})
    path = write_workflow(tmp_path, workflow)
    result = await ArtemisKit().run_workflow(workflow=path, target=HangingTarget())
    budget = result.record.budget
    assert result.record.execution.status == "deadline_exceeded"
    assert budget.used.model_requests == 1
    assert budget.usage_measurement == "unavailable"
    assert budget.unmeasured_responses == 1
