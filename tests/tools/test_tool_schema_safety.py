"""A tool's schemas never reach the network and never stall a run.

A ``$ref`` to anything but the schema itself is refused when the tool is made (and
so by ``akit scenario validate --tools``), and a loopback server proves nothing was
fetched. Patterns run in linear time: one the linear engine cannot take is refused
when the tool is made, and a pattern that backtracks under Python's ``re`` answers
a model's argument at once.
"""

from __future__ import annotations

import json
import os
import textwrap
import threading
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from artemiskit import ArtemisKit, Tool, ToolDefinitionError, parse_agent_workflow
from artemiskit.tools import ToolContext, ToolResult
from tests._builders import workflow_dict
from tests._cli import akit_process
from tests._runs import ReplayTarget, call, calling

ROOT = Path(__file__).resolve().parents[2]


class _Recorder(BaseHTTPRequestHandler):
    contacted: threading.Event

    def do_GET(self) -> None:
        self.server.contacted.set()  # type: ignore[attr-defined]
        body = json.dumps({"type": "string"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        del format, args


@pytest.fixture
def schema_server() -> Iterator[tuple[str, threading.Event]]:
    """A schema server on 127.0.0.1 that records whether anyone asked it."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.contacted = threading.Event()  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host!s}:{port}/schema.json", server.contacted  # type: ignore[attr-defined]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


async def _echo(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    return ToolResult(output={"ok": True})


def _tool(input_schema: dict[str, Any], name: str = "echo") -> Tool:
    return Tool(
        name=name,
        description="Echo.",
        input_schema=input_schema,
        output_schema={"type": "object"},
        effect="read",
        handler=_echo,
    )


@pytest.mark.parametrize(
    "where",
    [
        lambda url: {"properties": {"x": {"$ref": url}}},
        lambda url: {"properties": {"x": {"$ref": url + "#/definitions/a"}}},
        lambda url: {"$id": url, "properties": {"x": {"$ref": "other.json"}}},
        lambda url: {"allOf": [{"$ref": "file:///etc/passwd"}]},
    ],
)
def test_a_non_local_ref_is_refused_when_the_tool_is_made(
    schema_server: tuple[str, threading.Event], where: Any
) -> None:
    url, contacted = schema_server
    with pytest.raises(ToolDefinitionError, match=r"\$ref"):
        _tool({"type": "object", **where(url)})
    assert not contacted.is_set()


def test_a_local_ref_still_works(schema_server: tuple[str, threading.Event]) -> None:
    url, contacted = schema_server
    tool = _tool(
        {
            "$id": url,
            "type": "object",
            "definitions": {"id": {"type": "string", "pattern": "^[a-z]+$"}},
            "properties": {"x": {"$ref": "#/definitions/id"}},
        }
    )
    assert tool.schema_problem("input", {"x": "abc"}) is None
    assert tool.schema_problem("input", {"x": "ABC"}) is not None
    assert not contacted.is_set()


def test_scenario_validate_never_fetches_a_tool_schema(
    tmp_path: Path, schema_server: tuple[str, threading.Event]
) -> None:
    url, contacted = schema_server
    (tmp_path / "remote_tools.py").write_text(
        textwrap.dedent(
            f"""
            from artemiskit import Tool, ToolResult

            async def handler(arguments, ctx):
                return ToolResult(output={{}})

            TOOLS = [
                Tool(
                    name="remote",
                    description="d",
                    input_schema={{
                        "type": "object",
                        "properties": {{"x": {{"$ref": {url!r}}}}},
                    }},
                    output_schema={{"type": "object"}},
                    effect="read",
                    handler=handler,
                )
            ]
            """
        )
    )
    data = workflow_dict(tools=[{"name": "remote"}])
    (tmp_path / "workflow.yaml").write_text(json.dumps(data))
    # a real process: --tools imports a module from the working directory
    completed = akit_process(
        "scenario",
        "validate",
        "workflow.yaml",
        "--tools",
        "remote_tools:TOOLS",
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert completed.returncode == 1, completed.stderr
    assert "$ref" in completed.stderr
    assert "Traceback" not in completed.stderr
    assert not contacted.is_set()


@pytest.mark.parametrize("pattern", [r"^(a)\1$", r"^(?=a)a$", r"^(?<!b)a$"])
def test_a_pattern_the_linear_engine_cannot_take_is_refused(pattern: str) -> None:
    with pytest.raises(ToolDefinitionError, match="pattern"):
        _tool({"type": "object", "properties": {"x": {"pattern": pattern}}})
    with pytest.raises(ToolDefinitionError, match="pattern"):
        _tool({"type": "object", "patternProperties": {pattern: {}}})


def test_patterns_keep_json_schema_meaning() -> None:
    tool = _tool(
        {
            "type": "object",
            "properties": {"x": {"type": "string", "pattern": "^[a-z]+$"}},
            "patternProperties": {"^n_": {"type": "integer"}},
        }
    )
    assert tool.schema_problem("input", {"x": "abc"}) is None
    assert tool.schema_problem("input", {"x": "abc\n"}) is not None
    assert tool.schema_problem("input", {"n_1": 1}) is None
    assert tool.schema_problem("input", {"n_1": "one"}) is not None


@pytest.mark.parametrize(
    ("fmt", "good", "bad"),
    [
        ("email", "a.b@example.com", "a..b@example.com"),
        ("hostname", "api.example.com", "-bad-.com"),
        ("ipv4", "127.0.0.1", "256.0.0.1"),
        ("date-time", "2026-01-02T03:04:05Z", "2026-01-02"),
    ],
)
def test_formats_keep_their_meaning(fmt: str, good: str, bad: str) -> None:
    tool = _tool({"type": "object", "properties": {"x": {"format": fmt}}})
    assert tool.schema_problem("input", {"x": good}) is None
    assert tool.schema_problem("input", {"x": bad}) is not None


async def test_a_backtracking_pattern_answers_a_models_argument_at_once() -> None:
    # Python's re needs 2^60 steps for this argument: only a linear engine ends
    tool = _tool(
        {
            "type": "object",
            "properties": {"x": {"type": "string", "pattern": "^(a+)+$"}},
            "required": ["x"],
        }
    )
    data = workflow_dict(
        tools=[{"name": "echo"}],
        outcomes=[],
        budgets={"max_actions": 5, "timeout_ms": 1000},
    )
    workflow = parse_agent_workflow(json.dumps(data), tools=[tool])
    target = ReplayTarget([calling(call("echo", {"x": "a" * 60 + "!"}))])
    result = await ArtemisKit(tools=[tool]).run_workflow(
        workflow=workflow, target=target
    )
    assert result.record.execution.status == "policy_denied"
    assert result.record.execution.reason == "invalid_arguments"
