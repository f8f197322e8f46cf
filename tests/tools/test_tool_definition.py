"""`Tool` refuses every invalid field when it is made, with a message that says which.

A user-defined tool is checked once, at construction: a bad name, effect, handler,
version, state, schema, allow key or resource argument is a `ToolDefinitionError`
(``invalid_tool``) naming the tool and the field, never a failure in the middle of
a run. The tools are built inside each test so the checks run at test time.
"""

from __future__ import annotations

from typing import Any

import pytest

from artemiskit import Tool, ToolDefinitionError
from artemiskit.tools import ToolFailure, ToolResource, ToolResult


async def handler(arguments: Any, context: Any) -> ToolResult:
    del arguments, context
    return ToolResult(output={})


INPUT = {
    "type": "object",
    "properties": {"order": {"type": "string"}, "count": {"type": "integer"}},
    "required": ["order"],
}


def make(**changes: Any) -> Tool:
    fields: dict[str, Any] = {
        "name": "lookup_order",
        "description": "Look up an order.",
        "input_schema": INPUT,
        "output_schema": {"type": "object"},
        "effect": "read",
        "handler": handler,
        "resource": ToolResource(key="ids", argument="order"),
        "optional_allow": ("tables",),
        "state": {"refunds": [], "limits": {"max": 3}},
    }
    return Tool(**{**fields, **changes})


def test_a_valid_tool_keeps_every_field() -> None:
    tool = make(version="2.1")
    assert tool.declaration() == {
        "name": "lookup_order",
        "description": "Look up an order.",
        "input_schema": INPUT,
        "output_schema": {"type": "object"},
        "effect": "read",
        "resource": {"key": "ids", "argument": "order"},
        "optional_allow": ["tables"],
        "version": "2.1",
        "state": {"refunds": [], "limits": {"max": 3}},
    }
    assert tool.allow_keys == ("ids", "tables")
    assert tool.schema_problem("input", {"order": "A-1", "count": 2}) is None


@pytest.mark.parametrize(
    "name",
    ["a", "a" * 64, "lookup_order_2", "z9"],
)
def test_names_of_the_documented_form_are_accepted(name: str) -> None:
    assert make(name=name).name == name


@pytest.mark.parametrize(
    "name",
    ["", "a" * 65, "Lookup", "2fast", "_private", "look-up", "look up", "lookup\n", 7],
)
def test_a_name_outside_the_documented_form_is_refused(name: object) -> None:
    with pytest.raises(ToolDefinitionError) as caught:
        make(name=name)
    assert str(caught.value) == (
        "a tool name must match [a-z][a-z0-9_]* (at most 64 characters)"
    )
    assert caught.value.reason == "invalid_tool"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"effect": "delete"}, "effect must be read or write"),
        ({"effect": "Read"}, "effect must be read or write"),
        ({"handler": "not callable"}, "handler must be an async callable"),
        ({"version": ""}, "version must be a non-empty string"),
        ({"version": 2}, "version must be a non-empty string"),
        ({"state": ["not", "an", "object"]}, "state must be a JSON object or None"),
        ({"state": {"when": {1, 2}}}, "state must be a JSON object or None"),
        ({"state": {"ratio": float("nan")}}, "state must be a JSON object or None"),
        (
            {"input_schema": {"type": "array"}},
            "the input schema must describe an object",
        ),
        ({"input_schema": {}}, "the input schema must describe an object"),
        (
            {"optional_allow": ("tables", "shelves")},
            "'shelves' is not an allow key (known: paths, ids, tables, fields, "
            "recipients, actions, assignees)",
        ),
        (
            {"input_schema": {"type": "object", "required": ["order"]}},
            "the resource argument 'order' must be a required string argument",
        ),
        (
            {
                "input_schema": {
                    "type": "object",
                    "properties": {"count": {"type": "integer"}},
                    "required": ["order"],
                }
            },
            "the resource argument 'order' must be a required string argument",
        ),
        (
            {"resource": ToolResource(key="order_ids", argument="order")},
            "'order_ids' is not an allow key (known: ",
        ),
        (
            {"resource": ToolResource(key="ids", argument="count")},
            "the resource argument 'count' must be a required string argument",
        ),
        (
            {"resource": ToolResource(key="ids", argument="missing")},
            "the resource argument 'missing' must be a required string argument",
        ),
        (
            {
                "input_schema": {
                    "type": "object",
                    "properties": {"order": {"type": "string"}},
                },
                "resource": ToolResource(key="ids", argument="order"),
            },
            "the resource argument 'order' must be a required string argument",
        ),
        (
            {
                "input_schema": {
                    **INPUT,
                    "properties": {"order": {"type": "string", "pattern": "["}},
                }
            },
            "the input schema is not a valid JSON Schema",
        ),
        (
            {"output_schema": {"type": "object", "minProperties": "one"}},
            "the output schema is not a valid JSON Schema",
        ),
    ],
)
def test_an_invalid_field_is_refused_and_named(
    changes: dict[str, Any], message: str
) -> None:
    changes.setdefault("resource", ToolResource(key="ids", argument="order"))
    with pytest.raises(ToolDefinitionError) as caught:
        make(**changes)
    assert str(caught.value).startswith(f"tool 'lookup_order': {message}")
    assert caught.value.reason == "invalid_tool"


def test_a_tool_without_state_or_resource_is_accepted() -> None:
    tool = make(state=None, resource=None, optional_allow=())
    assert tool.state is None
    assert tool.allow_keys == ()
    assert tool.declaration()["resource"] is None


def test_a_tool_failure_keeps_its_code_and_message() -> None:
    failure = ToolFailure("order_missing", "no such order")
    assert (failure.code, failure.message, str(failure)) == (
        "order_missing",
        "no such order",
        "no such order",
    )
