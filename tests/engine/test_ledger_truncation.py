"""A truncated operation ledger is disclosed; trace assertions become unavailable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from artemiskit import WorkflowError, create_agent_workflow_session, load_agent_workflow
from artemiskit.providers import ScriptedTarget, load_script
from artemiskit.records import record_to_dict
from tests._builders import PASSING_SCRIPT, workflow_dict, write_workflow

OUTCOMES: list[dict[str, Any]] = [
    {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
    {"id": "read-once", "tool_called": "read_file", "min": 1, "max": 1},
    {"id": "no-drafts", "tool_not_called": "draft_message"},
]

#: PASSING_SCRIPT makes 3 model requests and 2 tool calls: 5 operations.
OPERATIONS = 5


async def run_with_limit(tmp_path: Path, ledger_limit: int) -> Any:
    path = write_workflow(tmp_path, workflow_dict(outcomes=OUTCOMES), PASSING_SCRIPT)
    target = ScriptedTarget(await load_script(tmp_path / "agent.script.yaml"))
    session = create_agent_workflow_session(
        workflow=await load_agent_workflow(path),
        target=target,
        ledger_limit=ledger_limit,
    )
    return await session.run()


@pytest.mark.parametrize("limit", [1, OPERATIONS - 1])
async def test_truncated_ledger_is_disclosed_and_trace_is_unavailable(
    tmp_path: Path, limit: int
) -> None:
    result = await run_with_limit(tmp_path, limit)
    record = result.record
    assert record.execution.status == "completed"
    assert record.operations.total == OPERATIONS
    assert record.operations.omitted == OPERATIONS - limit
    assert record.operations.succeeded == limit
    verdicts = {
        r.id: (r.status, r.reason) for r in record.task_verification.requirements
    }
    assert verdicts["summary"][0] == "passed"
    assert verdicts["read-once"] == ("unavailable", "trace_truncated")
    assert verdicts["no-drafts"] == ("unavailable", "trace_truncated")
    assert record.task_verification.status == "unavailable"
    assert result.exit_code == 9
    assert record_to_dict(record)["operations"]["omitted"] == OPERATIONS - limit


async def test_a_ledger_within_its_limit_is_whole(tmp_path: Path) -> None:
    result = await run_with_limit(tmp_path, OPERATIONS)
    assert result.record.operations.omitted == 0
    assert result.record.task_verification.status == "passed"
    assert result.exit_code == 0


@pytest.mark.parametrize("limit", [0, -1, 10_001, True])
async def test_ledger_limit_out_of_range_is_refused(tmp_path: Path, limit: int) -> None:
    path = write_workflow(tmp_path)
    with pytest.raises(WorkflowError, match="ledger_limit"):
        create_agent_workflow_session(
            workflow=await load_agent_workflow(path),
            target=ScriptedTarget(()),
            ledger_limit=limit,
        )
