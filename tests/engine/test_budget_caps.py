"""The independent caps stop the run at exactly N admitted, never N + 1."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from artemiskit import ArtemisKit, TargetRequest, TargetResponse, ToolCall, Usage
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict, write_workflow


@attrs.define
class ReadingTarget:
    """Asks for ``per_response`` read_file calls in every answer, forever."""

    per_response: int = 1
    calls: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        arguments = json.dumps({"path": "docs/policy.md"})
        calls = tuple(
            ToolCall(id=f"c{self.calls}-{n}", name="read_file", arguments=arguments)
            for n in range(self.per_response)
        )
        return TargetResponse(
            tool_calls=calls, usage=Usage(input_tokens=1, output_tokens=1)
        )


@pytest.mark.parametrize("cap", [1, 3])
async def test_max_model_requests_admits_exactly_n(tmp_path: Path, cap: int) -> None:
    budgets = {"max_actions": 100, "max_model_requests": cap, "timeout_ms": 30000}
    path = write_workflow(tmp_path, workflow_dict(budgets=budgets))
    target = ReadingTarget()
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    record = result.record
    assert target.calls == cap
    assert record.budget.used.model_requests == cap
    assert record.budget.used.tool_calls == cap
    assert record.execution.status == "budget_exhausted"
    assert record.execution.reason == "max_model_requests"
    assert result.exit_code == 5
    assert record.task_verification.status == "unavailable"
    record_to_dict(record)


@pytest.mark.parametrize(("cap", "per_response"), [(1, 1), (3, 1), (3, 5)])
async def test_max_tool_calls_attempts_exactly_n(
    tmp_path: Path, cap: int, per_response: int
) -> None:
    budgets = {"max_actions": 100, "max_tool_calls": cap, "timeout_ms": 30000}
    path = write_workflow(tmp_path, workflow_dict(budgets=budgets))
    target = ReadingTarget(per_response=per_response)
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    record = result.record
    assert record.budget.used.tool_calls == cap
    assert record.tools[0].calls == cap
    assert record.tools[0].succeeded == cap
    answered = [m for m in result.transcript if m.role == "tool"]
    assert len(answered) == cap
    assert record.budget.used.model_requests == target.calls
    assert record.execution.status == "budget_exhausted"
    assert record.execution.reason == "max_tool_calls"
    assert result.exit_code == 5
    record_to_dict(record)


async def test_max_actions_counts_requests_and_tool_calls(tmp_path: Path) -> None:
    budgets = {"max_actions": 5, "timeout_ms": 30000}
    path = write_workflow(tmp_path, workflow_dict(budgets=budgets))
    target = ReadingTarget(per_response=2)
    result = await ArtemisKit().run_workflow(workflow=path, target=target)
    used = result.record.budget.used
    assert (used.model_requests, used.tool_calls, used.actions) == (2, 3, 5)
    assert result.record.execution.reason == "max_actions"
    assert result.exit_code == 5
