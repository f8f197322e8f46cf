"""A target or tool that ignores cancellation cannot hold ``run()``.

After a cancel request, a caller's cancellation or the deadline, the run waits at
most the drain period (the cleanup timeout) for the call in flight. A call that did
not stop by then is left behind: ``run()`` returns, the operation is settled
``unknown`` with ``target_did_not_stop`` (``tool_did_not_stop``), and the
left-behind call changes nothing when it ends.

The stubborn call waits, shielded, for an event the test sets only after ``run()``
returned; a guard sets it after a long time, so that a broken drain fails the
assertions instead of hanging the test.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import anyio
import attrs

from artemiskit import (
    ArtemisKit,
    TargetRequest,
    TargetResponse,
    Tool,
    WorkflowResult,
    WorkflowSession,
    parse_agent_workflow,
)
from artemiskit.tools import ToolContext, ToolResult
from tests._builders import workflow_dict
from tests._runs import DONE, ReplayTarget, call, calling

#: Long enough never to matter when the drain works; ends a broken test.
GUARD_S = 30


@attrs.define
class Stubborn:
    """Shields its wait from cancellation until ``release`` is set."""

    started: anyio.Event = attrs.Factory(anyio.Event)
    release: anyio.Event = attrs.Factory(anyio.Event)
    stopped: anyio.Event = attrs.Factory(anyio.Event)

    async def wait(self) -> None:
        self.started.set()
        try:
            with anyio.CancelScope(shield=True):
                await self.release.wait()
        finally:
            self.stopped.set()

    async def respond(self, request: TargetRequest) -> TargetResponse:
        await self.wait()
        return DONE


async def _run_until(
    session: WorkflowSession, stubborn: Stubborn, interrupt: Any
) -> tuple[WorkflowResult | None, bool]:
    """Run, interrupt once the stubborn call started; whether run() returned first."""
    results: list[WorkflowResult | None] = []
    returned = anyio.Event()
    caller = anyio.CancelScope()

    async def go() -> None:
        with caller:
            results.append(await session.run())
        if not results:
            results.append(session.result)
        returned.set()

    async with anyio.create_task_group() as group:
        group.start_soon(go)
        await stubborn.started.wait()
        interrupt(session, caller)
        with anyio.move_on_after(GUARD_S) as guard:
            await returned.wait()
        stubborn.release.set()
    await stubborn.stopped.wait()
    return results[0], not guard.cancelled_caught


def _model_ops(result: WorkflowResult) -> list[Any]:
    return [e for e in result.record.timeline.entries if e.kind == "model_request"]


async def test_a_cancelled_run_returns_though_the_target_ignores_it() -> None:
    stubborn = Stubborn()
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow_dict(outcomes=[]), target=stubborn, cleanup_timeout_ms=50
    )
    result, returned_first = await _run_until(
        session, stubborn, lambda s, _: s.cancel()
    )
    assert returned_first
    assert result is not None
    record = result.record
    assert (record.execution.status, record.execution.reason) == (
        "cancelled",
        "cancelled",
    )
    (op,) = _model_ops(result)
    assert (op.status, op.reason) == ("unknown", "target_did_not_stop")
    assert record.operations.unknown == 1
    assert record.budget.unmeasured_responses == 1
    assert record.exit_code == 130


async def test_a_callers_cancellation_returns_though_the_target_ignores_it() -> None:
    stubborn = Stubborn()
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow_dict(outcomes=[]), target=stubborn, cleanup_timeout_ms=50
    )
    result, returned_first = await _run_until(
        session, stubborn, lambda _, scope: scope.cancel()
    )
    assert returned_first
    assert result is not None
    assert result.record.execution.reason == "caller_cancelled"
    (op,) = _model_ops(result)
    assert (op.status, op.reason) == ("unknown", "target_did_not_stop")


async def test_the_deadline_holds_though_the_target_ignores_it() -> None:
    stubborn = Stubborn()
    data = workflow_dict(outcomes=[], budgets={"max_actions": 5, "timeout_ms": 100})
    session = await ArtemisKit().create_workflow_session(
        workflow=data, target=stubborn, cleanup_timeout_ms=50
    )
    result, returned_first = await _run_until(session, stubborn, lambda *_: None)
    assert returned_first
    assert result is not None
    assert result.record.execution.status == "deadline_exceeded"
    (op,) = _model_ops(result)
    assert (op.status, op.reason) == ("unknown", "target_did_not_stop")


async def test_a_tool_that_ignores_cancellation_is_left_behind_too() -> None:
    stubborn = Stubborn()

    async def handler(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
        await stubborn.wait()
        await ctx.environment.write_file("out/late.md", "late")
        return ToolResult(output={})

    tool = Tool(
        name="stubborn",
        description="Ignores cancellation.",
        input_schema={"type": "object"},
        output_schema={"type": "object"},
        effect="write",
        handler=handler,
    )
    data = workflow_dict(tools=[{"name": "stubborn"}], outcomes=[])
    workflow = parse_agent_workflow(json.dumps(data), tools=[tool])
    session = await ArtemisKit(tools=[tool]).create_workflow_session(
        workflow=workflow,
        target=ReplayTarget([calling(call("stubborn", {}))]),
        cleanup_timeout_ms=50,
    )
    result, returned_first = await _run_until(
        session, stubborn, lambda s, _: s.cancel()
    )
    assert returned_first
    assert result is not None
    (op,) = [e for e in result.record.timeline.entries if e.kind == "tool_call"]
    assert (op.status, op.reason) == ("unknown", "tool_did_not_stop")
    assert result.state is not None
    assert "out/late.md" not in result.state["files"]
