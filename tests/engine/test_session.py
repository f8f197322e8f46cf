"""The session engine through the SDK, on asyncio and trio."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest
from anyio.lowlevel import checkpoint

from artemiskit import (
    AgentTarget,
    ArtemisKit,
    SessionEvent,
    SessionStateError,
    TargetRequest,
    TargetResponse,
    ToolCall,
    Usage,
    create_agent_workflow_session,
    load_agent_workflow,
)
from tests._builders import workflow_dict, write_workflow


@attrs.define
class CountingTarget:
    """A custom AgentTarget: reads the policy, writes the summary, answers."""

    calls: int = 0
    seen_allowances: list[int | None] = attrs.Factory(list)

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        self.seen_allowances.append(request.max_output_tokens)
        await checkpoint()
        tool_results = [m for m in request.messages if m.role == "tool"]
        usage = Usage(input_tokens=3, output_tokens=2)
        if not tool_results:
            call = ToolCall(
                id="c1",
                name="read_file",
                arguments=json.dumps({"path": "docs/policy.md"}),
            )
            return TargetResponse(tool_calls=(call,), usage=usage)
        if len(tool_results) == 1:
            content = json.loads(tool_results[0].content or "{}")["content"]
            call = ToolCall(
                id="c2",
                name="write_file",
                arguments=json.dumps({"path": "out/summary.md", "content": content}),
            )
            return TargetResponse(tool_calls=(call,), usage=usage)
        return TargetResponse(text="Done.", usage=usage)


async def test_custom_agent_target_through_the_sdk(tmp_path: Path) -> None:
    path = write_workflow(
        tmp_path,
        workflow_dict(
            budgets={"max_actions": 20, "timeout_ms": 30000, "max_tokens": 100},
            target={
                "provider": "scripted",
                "model": "agent",
                "parameters": {"max_output_tokens": 50},
            },
        ),
    )
    target = CountingTarget()
    assert isinstance(target, AgentTarget)
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    assert result.exit_code == 0
    assert target.calls == 3
    assert target.seen_allowances == [50, 50, 50]
    assert result.state is not None
    assert result.state["files"]["out/summary.md"] == "Refunds within 30 days."
    assert [m.role for m in result.transcript] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    assert result.record.budget.used.input_tokens == 9


async def test_output_allowance_bounded_by_remaining_tokens(tmp_path: Path) -> None:
    path = write_workflow(
        tmp_path,
        workflow_dict(
            budgets={"max_actions": 20, "timeout_ms": 30000, "max_tokens": 10}
        ),
    )
    target = CountingTarget()
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    assert target.seen_allowances == [10, 5]
    assert result.record.budget.used.tool_calls == 2
    assert result.record.budget.overshoot_tokens == 0
    assert result.record.execution.status == "budget_exhausted"
    assert result.record.execution.reason == "max_tokens"
    assert result.exit_code == 5


async def test_overshoot_is_disclosed_and_stops_admission(tmp_path: Path) -> None:
    script: list[dict[str, Any]] = [
        {
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": "docs/policy.md"}}
            ],
            "usage": {"input_tokens": 40, "output_tokens": 30},
        },
        {"text": "never"},
    ]
    path = write_workflow(
        tmp_path,
        workflow_dict(
            budgets={"max_actions": 20, "timeout_ms": 30000, "max_tokens": 50}
        ),
        script,
    )
    result = await ArtemisKit().run_workflow(workflow=path)
    assert result.record.budget.overshoot_tokens == 20
    assert result.record.execution.reason == "max_tokens_overshoot"
    assert result.record.budget.used.tool_calls == 0


async def test_concurrent_runs_share_one_execution(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    target = CountingTarget()
    session = await ArtemisKit().create_workflow_session(workflow=path, target=target)
    results = []

    async def run_once() -> None:
        results.append(await session.run())

    async with anyio.create_task_group() as group:
        group.start_soon(run_once)
        group.start_soon(run_once)
    assert target.calls == 3
    assert results[0] is results[1]
    assert await session.run() is results[0]


async def test_slow_reader_never_blocks_and_drops_are_disclosed(tmp_path: Path) -> None:
    script: list[dict[str, Any]] = [
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "docs/policy.md"}}]}
    ] * 30 + [{"text": "Done."}]
    workflow = workflow_dict(
        budgets={"max_actions": 200, "timeout_ms": 30000}, outcomes=[]
    )
    path = write_workflow(tmp_path, workflow, script)
    workflow_obj = await load_agent_workflow(path)
    from artemiskit.providers import ScriptedTarget, load_script

    session = create_agent_workflow_session(
        workflow=workflow_obj,
        target=ScriptedTarget(
            entries=await load_script(tmp_path / "agent.script.yaml")
        ),
    )
    fast_events: list[SessionEvent] = []
    slow_events: list[SessionEvent] = []
    fast = session.events(buffer=10_000)
    slow = session.events(buffer=8)
    release = anyio.Event()

    async def read_fast() -> None:
        async for event in fast:
            fast_events.append(event)

    async def read_slow() -> None:
        await release.wait()
        async for event in slow:
            slow_events.append(event)

    async with anyio.create_task_group() as group:
        group.start_soon(read_fast)
        group.start_soon(read_slow)
        result = await session.run()
        release.set()
    assert result.record.execution.status == "completed"
    assert result.record.events.readers == 2
    assert result.record.events.dropped > 0
    assert len(fast_events) == result.record.events.emitted
    assert len(slow_events) == 8
    assert [e.sequence for e in slow_events] == list(range(1, 9))
    assert result.record.events.dropped == result.record.events.emitted - 8


async def test_cancel_stops_new_work_and_cleans_up(tmp_path: Path) -> None:
    script = [{"text": "slow", "delay_ms": 60000}]
    path = write_workflow(tmp_path, script=script)
    session = await ArtemisKit().create_workflow_session(workflow=path)
    events = session.events()

    async def cancel_when_admitted() -> None:
        async for event in events:
            if event.type == "operation_admitted":
                session.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(cancel_when_admitted)
        result = await session.run()
    assert result.record.execution.status == "cancelled"
    assert result.exit_code == 130
    assert result.record.cleanup.status == "complete"
    assert result.record.operations.unknown == 1


async def test_caller_cancellation_drains_and_propagates(tmp_path: Path) -> None:
    script = [{"text": "slow", "delay_ms": 60000}]
    path = write_workflow(tmp_path, script=script)
    session = await ArtemisKit().create_workflow_session(workflow=path)
    events = session.events()
    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as group:

            async def cancel_when_admitted() -> None:
                async for event in events:
                    if event.type == "operation_admitted":
                        scope.cancel()

            group.start_soon(cancel_when_admitted)
            await session.run()
    assert scope.cancelled_caught
    assert session.result is not None
    assert session.result.record.execution.status == "cancelled"
    assert session.result.record.execution.reason == "caller_cancelled"
    assert session.result.record.cleanup.status == "complete"


async def test_pause_without_checkpoint_store_is_a_clear_error(tmp_path: Path) -> None:
    session = await ArtemisKit().create_workflow_session(
        workflow=write_workflow(tmp_path)
    )
    with pytest.raises(SessionStateError, match="checkpoint store"):
        await session.pause()


async def test_report_mode_returns_denial_to_the_model(tmp_path: Path) -> None:
    script: list[dict[str, Any]] = [
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "secrets/key"}}]},
        {"tool_calls": [{"name": "read_file", "arguments": "{not json"}]},
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "out/a.md"}}]},
        {"text": "Gave up."},
    ]
    workflow = workflow_dict(
        policy={"on_denial": "report"},
        outcomes=[{"id": "no-writes", "tool_not_called": "write_file"}],
    )
    path = write_workflow(tmp_path, workflow, script)
    result = await ArtemisKit().run_workflow(workflow=path)
    assert result.exit_code == 0
    assert result.record.policy.denials == 3
    assert result.record.policy.denial_reasons == {
        "invalid_arguments": 2,
        "path_not_allowed": 1,
    }
    tool_messages = [m for m in result.transcript if m.role == "tool"]
    assert all(m.is_error for m in tool_messages)
    assert result.record.operations.total == 4  # model requests only


async def test_every_catalogue_tool_and_final_state_layout(tmp_path: Path) -> None:
    def call(name: str, **arguments: Any) -> dict[str, Any]:
        return {"tool_calls": [{"name": name, "arguments": arguments}]}

    script: list[dict[str, Any]] = [
        call("list_files"),
        call("read_document", id="policy-1"),
        call("search_documents", query="refund"),
        call("get_record", table="tickets", id="T-1"),
        call("update_record", table="tickets", id="T-1", fields={"status": "closed"}),
        call("draft_message", to="ops@example.com", subject="Hi", body="Done"),
        call("request_approval", action="refund", reason="customer asked"),
        call("delegate_task", assignee="billing", task="issue refund"),
        call("write_file", path="out/x.md", content="x"),
        call("delete_file", path="out/x.md"),
        call("read_file", path="docs/missing.md"),
        {"text": "All done."},
    ]
    workflow = workflow_dict(
        budgets={"max_actions": 50, "timeout_ms": 30000},
        environment={
            "files": {"docs/policy.md": "p", "private/n.md": "n"},
            "state": {
                "documents": {"policy-1": {"title": "Refund policy", "content": "c"}},
                "records": {"tickets": {"T-1": {"status": "open"}}},
            },
        },
        tools=[
            {"name": "list_files", "allow": {"paths": ["docs/**"]}},
            {"name": "read_file", "allow": {"paths": ["docs/**"]}},
            {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
            {"name": "delete_file", "allow": {"paths": ["out/*.md"]}},
            {"name": "read_document", "allow": {"ids": ["policy-*"]}},
            {"name": "search_documents", "allow": {"ids": ["*"]}},
            {"name": "get_record", "allow": {"tables": ["tickets"]}},
            {
                "name": "update_record",
                "allow": {"tables": ["tickets"], "fields": ["status"]},
            },
            {"name": "draft_message", "allow": {"recipients": ["*@example.com"]}},
            {"name": "request_approval", "allow": {"actions": ["refund"]}},
            {"name": "delegate_task", "allow": {"assignees": ["billing"]}},
        ],
        outcomes=[
            {
                "id": "closed",
                "record": {"table": "tickets", "id": "T-1"},
                "fields": {"status": "closed"},
            },
            {"id": "draft", "state": "drafts.0.status", "equals": "draft"},
            {"id": "approval", "state": "approvals.0.status", "equals": "pending"},
            {"id": "deleted", "file": "out/x.md", "absent": True},
            {"id": "one-draft", "tool_called": "draft_message", "min": 1, "max": 1},
        ],
    )
    path = write_workflow(tmp_path, workflow, script)
    result = await ArtemisKit().run_workflow(workflow=path)
    assert result.record.task_verification.status == "passed", result.record
    assert result.exit_code == 0
    listing = json.loads(result.transcript[2].content or "{}")
    assert listing == {"files": ["docs/policy.md"]}
    state = result.state
    assert state is not None
    assert state["drafts"][0]["status"] == "draft"
    assert state["delegations"][0]["status"] == "pending"
    assert state["records"]["tickets"]["T-1"] == {"status": "closed"}
    summary = {t.tool: t for t in result.record.tools}
    assert summary["read_file"].failed == 1
    assert result.record.state_changes.count == 6
