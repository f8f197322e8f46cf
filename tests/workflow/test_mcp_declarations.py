"""MCP tool declarations checked offline (SPEC 24): no server, no SDK."""

from __future__ import annotations

import json
from typing import Any

import pytest

from artemiskit import validate_agent_workflow
from artemiskit.workflow import McpResource, McpToolRef, parse_agent_workflow
from tests._builders import workflow_dict

NOTE = {
    "name": "read_note",
    "mcp": {"server": "notes", "tool": "read_note"},
    "effect": "read",
    "resource": {"key": "ids", "argument": "name"},
    "allow": {"ids": ["n-*"]},
}


def _problems(**changes: Any) -> list[tuple[str | None, str]]:
    text = json.dumps(workflow_dict(**{"outcomes": [], **changes}))
    return [(p.path, p.message) for p in validate_agent_workflow(text)]


def test_a_declaration_structures_into_the_model() -> None:
    data = workflow_dict(
        tools=[NOTE, {"name": "bump", "mcp": {"server": "c", "tool": "bump"}}],
        outcomes=[{"id": "read", "tool_called": "read_note"}],
        faults=[{"id": "f", "tool": "bump", "occurrence": 1, "kind": "timeout"}],
    )
    workflow = parse_agent_workflow(json.dumps(data))
    note, bump = workflow.tools
    assert note.mcp == McpToolRef(server="notes", tool="read_note")
    assert note.resource == McpResource(key="ids", argument="name")
    assert note.effect == "read"
    assert bump.effect is None  # the tool's effect defaults to write


@pytest.mark.parametrize(
    ("tool", "path", "words"),
    [
        ({**NOTE, "name": "read_file"}, "$.tools[0].name", "a name of its own"),
        ({**NOTE, "resource": {"key": "rooms"}}, "$.tools[0].resource.key", "one of"),
        (
            {**NOTE, "allow": {"paths": ["x"]}},
            "$.tools[0].allow.paths",
            "not an allow key",
        ),
        ({**NOTE, "allow": {}}, "$.tools[0].allow.ids", "is required"),
        ({**NOTE, "effect": "maybe"}, "$.tools[0].effect", "one of"),
        ({**NOTE, "schema_digest": "abc"}, "$.tools[0].schema_digest", "form"),
        ({**NOTE, "timeout_ms": 0}, "$.tools[0].timeout_ms", "≥ 1"),
        ({**NOTE, "mcp": {"server": "notes"}}, "$.tools[0].mcp.tool", "required"),
        (
            {"name": "read_file", "allow": {"paths": ["**"]}, "effect": "read"},
            "$.tools[0].effect",
            "only to an MCP tool",
        ),
    ],
)
def test_invalid_declarations_are_named(
    tool: dict[str, Any], path: str, words: str
) -> None:
    found = _problems(tools=[tool])
    assert any(p == path and words in m for p, m in found), found


def test_outcomes_and_faults_may_name_mcp_tools_and_read_faults_need_read() -> None:
    write = {"name": "bump", "mcp": {"server": "c", "tool": "bump"}}
    assert (
        _problems(
            tools=[NOTE, write],
            outcomes=[{"id": "a", "tool_not_called": "bump"}],
            faults=[
                {"id": "f", "tool": "read_note", "occurrence": 1, "kind": "timeout"}
            ],
        )
        == []
    )
    found = _problems(
        tools=[write],
        faults=[
            {
                "id": "f",
                "tool": "bump",
                "occurrence": 1,
                "kind": "stale_read",
                "fixture": {"content": []},
            }
        ],
    )
    assert ("$.faults[0].kind", "stale_read applies only to read tools") in found
