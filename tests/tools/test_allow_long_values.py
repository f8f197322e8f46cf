"""Allow globs decide alike for short and long resource names; argument size limits.

A resource name over the remembered length (1024 characters) is matched directly;
the decision must be the one a short name gets. Through the SDK.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from artemiskit import ArtemisKit, Tool, parse_agent_workflow
from artemiskit.tools import ToolContext, ToolResource, ToolResult
from tests._builders import workflow_dict
from tests._runs import ReplayTarget, call, calling, run

LONG = "a" * 1500
#: SPEC 3.4: a string argument may take up to 256 KiB of UTF-8.
MAX_ARGUMENT_STRING_BYTES = 256 * 1024


def _reporting() -> dict[str, Any]:
    return workflow_dict(outcomes=[], policy={"on_denial": "report"})


async def _found(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    return ToolResult(output={"found": True})


LOOKUP = Tool(
    name="lookup",
    description="Look a reference up.",
    input_schema={
        "type": "object",
        "properties": {"id": {"type": "string"}},
        "required": ["id"],
    },
    output_schema={"type": "object"},
    effect="read",
    handler=_found,
    resource=ToolResource(key="ids", argument="id"),
)


async def test_a_long_name_inside_the_globs_is_admitted_and_one_outside_denied() -> (
    None
):
    data = workflow_dict(
        tools=[{"name": "lookup", "allow": {"ids": ["A-*"]}}],
        outcomes=[],
        policy={"on_denial": "report"},
    )
    workflow = parse_agent_workflow(json.dumps(data), tools=(LOOKUP,))
    inside = call("lookup", {"id": f"A-{LONG}"}, call_id="c1")
    outside = call("lookup", {"id": f"B-{LONG}"}, call_id="c2")
    result = await ArtemisKit(tools=(LOOKUP,)).run_workflow(
        workflow=workflow, target=ReplayTarget([calling(inside, outside)])
    )
    record = result.record
    assert record.policy.denial_reasons == {"resource_not_allowed": 1}
    (found,) = [e for e in record.timeline.entries if e.kind == "tool_call"]
    assert (found.tool, found.status) == ("lookup", "succeeded")


async def test_a_string_of_exactly_the_byte_limit_is_not_too_large() -> None:
    # Two bytes per character keeps the walk off the ASCII fast path.
    exact = "é" * (MAX_ARGUMENT_STRING_BYTES // 2)
    over = exact + "a"
    calls = [
        call("read_file", {"path": "docs/policy.md", "note": text}, call_id=f"c{i}")
        for i, text in enumerate((exact, over))
    ]
    result = await run(_reporting(), [calling(*calls)])
    assert result.record.policy.denial_reasons == {
        "invalid_arguments": 1,
        "argument_too_large": 1,
    }
