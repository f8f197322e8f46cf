"""A tool call that stops the run is counted in the record's ``tools`` summary.

The timeline shows every attempt; the per-tool summary must agree with it, also for
the call that ended the run: a malformed output (the tool's own or a declared
fault) and a retry that a budget refused.
"""

from __future__ import annotations

import json
from typing import Any

from ruamel.yaml import YAML

from artemiskit import ArtemisKit, parse_agent_workflow
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._runs import ReplayTarget, call, calling, run
from tests.tools._order_tools import EXAMPLE, MALFORMED_LOOKUP, TOOLS

READ = call("read_file", {"path": "docs/policy.md"})


def _tools(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {entry["tool"]: entry for entry in record["tools"]}


async def test_a_declared_malformed_result_is_in_the_tool_summary() -> None:
    data = workflow_dict(
        outcomes=[],
        faults=[
            {
                "id": "m",
                "tool": "read_file",
                "occurrence": 1,
                "kind": "malformed_result",
            }
        ],
    )
    record = record_to_dict((await run(data, [calling(READ)])).record)
    assert record["execution"]["status"] == "invalid_evidence"
    summary = _tools(record)["read_file"]
    assert (summary["calls"], summary["failed"], summary["attempts"]) == (1, 1, 1)


async def test_a_malformed_handler_output_is_in_the_tool_summary() -> None:
    tools = (MALFORMED_LOOKUP, TOOLS[1])
    loaded: dict[str, Any] = YAML(typ="safe").load(EXAMPLE / "workflow.yaml")
    data = {**loaded, "faults": [], "outcomes": []}
    workflow = parse_agent_workflow(json.dumps(data), tools=tools)
    target = ReplayTarget([calling(call("lookup_order", {"id": "A-100"}))])
    result = await ArtemisKit(tools=tools).run_workflow(
        workflow=workflow, target=target
    )
    record = record_to_dict(result.record)
    assert record["execution"]["status"] == "invalid_evidence"
    summary = _tools(record)["lookup_order"]
    assert (summary["calls"], summary["failed"], summary["attempts"]) == (1, 1, 1)


async def test_a_retry_refused_by_a_budget_is_in_the_tool_summary() -> None:
    data = workflow_dict(
        outcomes=[],
        budgets={"max_actions": 20, "max_tool_calls": 1, "timeout_ms": 30000},
        faults=[
            {
                "id": "u",
                "tool": "read_file",
                "occurrence": 1,
                "kind": "unavailable_tool",
            }
        ],
        retry={"max_attempts": 2},
    )
    record = record_to_dict((await run(data, [calling(READ)])).record)
    assert record["execution"]["status"] == "budget_exhausted"
    summary = _tools(record)["read_file"]
    assert (summary["calls"], summary["failed"], summary["attempts"]) == (1, 1, 1)
    attempts = [e for e in record["timeline"]["entries"] if e["kind"] == "tool_call"]
    assert len(attempts) == summary["attempts"]
