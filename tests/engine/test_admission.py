"""Admission never crashes: any argument text a model sends ends as a record."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from artemiskit import ArtemisKit, Tool, parse_agent_workflow
from artemiskit.records import record_to_dict
from artemiskit.tools import ToolResult
from tests._builders import workflow_dict
from tests._hostile_arguments import HOSTILE_ARGUMENTS
from tests._runs import ReplayTarget, call, calling


def write_raw_script(
    folder: Path, workflow: dict[str, Any], arguments: list[str]
) -> Path:
    """A workflow and a script whose read_file calls carry ``arguments`` verbatim."""
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(workflow), encoding="utf-8")
    responses: list[dict[str, Any]] = [
        {"tool_calls": [{"name": "read_file", "arguments": text}]} for text in arguments
    ]
    responses.append({"text": "Gave up."})
    script = json.dumps({"version": 1, "responses": responses})
    (folder / "agent.script.yaml").write_text(script, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(HOSTILE_ARGUMENTS))
async def test_hostile_arguments_are_an_invalid_arguments_denial(
    tmp_path: Path, name: str
) -> None:
    path = write_raw_script(tmp_path, workflow_dict(), [HOSTILE_ARGUMENTS[name]])
    result = await ArtemisKit().run_workflow(workflow=path)
    record = result.record
    assert record.execution.status == "policy_denied"
    assert record.execution.reason == "invalid_arguments"
    assert result.exit_code == 4
    assert record.policy.denial_reasons == {"invalid_arguments": 1}
    assert record.budget.used.tool_calls == 1
    record_to_dict(record)  # validates against the shipped schema


async def test_report_mode_answers_every_hostile_call_and_goes_on(
    tmp_path: Path,
) -> None:
    workflow = workflow_dict(
        policy={"on_denial": "report"},
        outcomes=[{"id": "nothing-read", "tool_not_called": "read_file"}],
        budgets={"max_actions": 50, "timeout_ms": 30000},
    )
    arguments = [HOSTILE_ARGUMENTS[name] for name in sorted(HOSTILE_ARGUMENTS)]
    path = write_raw_script(tmp_path, workflow, arguments)
    result = await ArtemisKit().run_workflow(workflow=path)
    record = result.record
    assert record.execution.status == "completed"
    assert result.exit_code == 0
    assert record.policy.denial_reasons == {"invalid_arguments": len(arguments)}
    answers = [m for m in result.transcript if m.role == "tool"]
    assert len(answers) == len(arguments)
    assert all(m.is_error for m in answers)
    record_to_dict(record)


@pytest.mark.parametrize(
    "fields",
    ['{"status": NaN}', '{"status": -Infinity}', '{"status": 1e400}'],
    ids=["nan", "infinity", "overflow"],
)
async def test_non_finite_numbers_never_reach_state(
    tmp_path: Path, fields: str
) -> None:
    workflow = workflow_dict(
        environment={"state": {"records": {"tickets": {"T-1": {"status": "open"}}}}},
        tools=[{"name": "update_record", "allow": {"tables": ["tickets"]}}],
        outcomes=[],
    )
    path = tmp_path / "workflow.yaml"
    path.write_text(json.dumps(workflow), encoding="utf-8")
    arguments = '{"table": "tickets", "id": "T-1", "fields": ' + fields + "}"
    call = {"name": "update_record", "arguments": arguments}
    script = {"version": 1, "responses": [{"tool_calls": [call]}, {"text": "ok"}]}
    (tmp_path / "agent.script.yaml").write_text(json.dumps(script), encoding="utf-8")
    result = await ArtemisKit().run_workflow(workflow=path)
    assert result.record.execution.reason == "invalid_arguments"
    assert result.exit_code == 4
    assert result.state is not None
    assert result.state["records"]["tickets"]["T-1"] == {"status": "open"}


@pytest.mark.parametrize("name", sorted(HOSTILE_ARGUMENTS))
async def test_hostile_probe_arguments_fail_the_preflight(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / "workflow.yaml"
    path.write_text(json.dumps(workflow_dict()), encoding="utf-8")
    call = {"name": "artemiskit_probe", "arguments": HOSTILE_ARGUMENTS[name]}
    script = {"version": 1, "responses": [{"tool_calls": [call]}]}
    (tmp_path / "agent.script.yaml").write_text(json.dumps(script), encoding="utf-8")
    result = await ArtemisKit().run_workflow(workflow=path, preflight=True)
    record = result.record
    assert record.preflight.status == "failed"
    assert record.preflight.reason in ("invalid_arguments", "wrong_arguments")
    assert result.exit_code == 3
    record_to_dict(record)


async def test_huge_integers_are_refused_even_when_the_interpreter_allows_them(
    tmp_path: Path,
) -> None:
    workflow = workflow_dict(
        environment={"state": {"records": {"tickets": {"T-1": {"n": 1}}}}},
        tools=[{"name": "update_record", "allow": {"tables": ["tickets"]}}],
        outcomes=[],
    )
    path = tmp_path / "workflow.yaml"
    path.write_text(json.dumps(workflow), encoding="utf-8")
    huge = "9" * 5000
    arguments = '{"table": "tickets", "id": "T-1", "fields": {"n": ' + huge + "}}"
    call = {"name": "update_record", "arguments": arguments}
    script = {"version": 1, "responses": [{"tool_calls": [call]}, {"text": "ok"}]}
    (tmp_path / "agent.script.yaml").write_text(json.dumps(script), encoding="utf-8")
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        result = await ArtemisKit().run_workflow(workflow=path)
    finally:
        sys.set_int_max_str_digits(limit)
    assert result.record.execution.reason == "invalid_arguments"
    assert result.state is not None
    assert result.state["records"]["tickets"]["T-1"] == {"n": 1}


async def _count(arguments: Any, context: Any) -> ToolResult:
    del context
    return ToolResult(output={"digits": len(str(arguments["n"]))})


COUNT = Tool(
    name="count_items",
    description="Count.",
    input_schema={
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "required": ["n"],
    },
    output_schema={"type": "object"},
    effect="read",
    handler=_count,
)


@pytest.mark.parametrize(("digits", "admitted"), [(4300, True), (4301, False)])
async def test_an_integer_argument_of_up_to_4300_digits_is_admitted(
    digits: int, admitted: bool
) -> None:
    data = workflow_dict(tools=[{"name": "count_items"}], outcomes=[])
    arguments = '{"n": ' + "9" * digits + "}"
    target = ReplayTarget([calling(call("count_items", arguments))])
    result = await ArtemisKit(tools=[COUNT]).run_workflow(
        workflow=parse_agent_workflow(json.dumps(data), tools=[COUNT]), target=target
    )
    answers = [m for m in result.transcript if m.role == "tool"]
    if admitted:
        assert result.record.policy.denials == 0
        assert json.loads(answers[0].content or "null") == {"digits": digits}
    else:
        assert result.record.policy.denial_reasons == {"invalid_arguments": 1}
        assert answers == [] or answers[0].is_error


async def _echo(arguments: Any, context: Any) -> ToolResult:
    del arguments, context
    return ToolResult(output={"ok": True})


ANYTHING = Tool(
    name="take_anything",
    description="Take any object.",
    input_schema={"type": "object"},
    output_schema={"type": "object"},
    effect="read",
    handler=_echo,
)


def nested(depth: int, kind: str) -> str:
    """Arguments whose containers nest ``depth`` deep (the arguments object is 1)."""
    inner: Any = 0
    for _ in range(depth - 1):
        inner = {"a": inner} if kind == "object" else [inner]
    return json.dumps({"a": inner})


@pytest.mark.parametrize("kind", ["object", "array"])
@pytest.mark.parametrize(("depth", "admitted"), [(64, True), (65, False)])
async def test_arguments_nested_up_to_64_deep_are_admitted(
    kind: str, depth: int, admitted: bool
) -> None:
    data = workflow_dict(tools=[{"name": "take_anything"}], outcomes=[])
    target = ReplayTarget([calling(call("take_anything", nested(depth, kind)))])
    result = await ArtemisKit(tools=[ANYTHING]).run_workflow(
        workflow=parse_agent_workflow(json.dumps(data), tools=[ANYTHING]),
        target=target,
    )
    expected = {} if admitted else {"invalid_arguments": 1}
    assert result.record.policy.denial_reasons == expected
