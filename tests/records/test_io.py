"""Records round-trip exactly through their readers, which refuse what is not one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given, settings, strategies as st

from artemiskit import ArtemisKit, WorkflowError
from artemiskit.records import ExecutionRecord, record_from_dict, record_to_dict
from tests._builders import workflow_dict, write_workflow


async def test_record_round_trips_and_validates(tmp_path: Path) -> None:
    result = await ArtemisKit().run_workflow(workflow=write_workflow(tmp_path))
    data = json.loads(json.dumps(record_to_dict(result.record)))
    again = record_from_dict(data)
    assert isinstance(again, ExecutionRecord)
    assert again == result.record


async def test_record_readers_refuse_foreign_and_unknown_records(
    tmp_path: Path,
) -> None:
    result = await ArtemisKit().run_workflow(workflow=write_workflow(tmp_path))
    data = record_to_dict(result.record)
    with pytest.raises(WorkflowError, match="not an ArtemisKit workflow record"):
        record_from_dict({**data, "schema": "artemiskit.prompt-report"})
    with pytest.raises(WorkflowError, match="unknown"):
        record_from_dict({**data, "schema_version": 99})
    with pytest.raises(WorkflowError, match="invalid workflow record"):
        record_from_dict({**data, "exit_code": 42})


step = st.sampled_from(
    [
        {
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": "docs/policy.md"}}
            ]
        },
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "docs/none.md"}}]},
        {
            "tool_calls": [
                {
                    "name": "write_file",
                    "arguments": {"path": "out/summary.md", "content": "30 days"},
                }
            ]
        },
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "etc/x"}}]},
        {"tool_calls": [{"name": "nope", "arguments": {}}]},
        {"text": "thinking", "usage": {"input_tokens": 3, "output_tokens": 2}},
    ]
)


@settings(max_examples=25, deadline=None)
@given(
    steps=st.lists(step, min_size=1, max_size=6),
    on_denial=st.sampled_from(["stop", "report"]),
    max_actions=st.integers(min_value=1, max_value=12),
    final=st.booleans(),
)
def test_records_of_generated_runs_round_trip(
    tmp_path_factory: Any,
    steps: list[dict[str, Any]],
    on_denial: str,
    max_actions: int,
    final: bool,
) -> None:
    folder = tmp_path_factory.mktemp("generated")
    script = [*steps, {"text": "Done."}] if final else steps
    workflow = workflow_dict(
        policy={"on_denial": on_denial},
        budgets={"max_actions": max_actions, "timeout_ms": 30000},
    )
    path = write_workflow(folder, workflow, script)
    result = anyio.run(lambda: ArtemisKit().run_workflow(workflow=path))
    data = json.loads(json.dumps(record_to_dict(result.record)))
    assert record_from_dict(data) == result.record


async def test_the_longest_name_the_contract_allows_fits_the_record(
    tmp_path: Path,
) -> None:
    # The contract allows 1-256 characters (docs/workflow-contract.md); the record
    # once allowed 128, so such a run was paid for and then failed to write.
    name = "n" * 256
    result = await ArtemisKit().run_workflow(
        workflow=write_workflow(tmp_path, workflow_dict(name=name))
    )
    data = json.loads(json.dumps(record_to_dict(result.record)))
    assert data["workflow"]["name"] == name
    assert record_from_dict(data) == result.record
    with pytest.raises(WorkflowError, match="invalid workflow record"):
        record_from_dict({**data, "workflow": {**data["workflow"], "name": name + "n"}})
