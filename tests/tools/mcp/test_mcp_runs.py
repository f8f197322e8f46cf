"""MCP tools under control, through the SDK, with real MCP servers (SPEC 24).

Each test starts real servers written with the official SDK (``servers.py``) over
stdio or streamable HTTP on 127.0.0.1, and runs on asyncio and trio.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

import attrs
import pytest

from artemiskit import ArtemisKit, UnsupportedError
from artemiskit.records import record_to_dict
from tests._runs import ReplayTarget, call, calling, workflow_of
from tests.tools.mcp._helpers import (
    logged,
    mcp_workflow,
    start_http_server,
    stdio_server,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from artemiskit import TargetResponse, WorkflowResult
    from artemiskit.tools import McpServerConfig

NOTES = [
    {
        "name": "read_note",
        "mcp": {"server": "notes", "tool": "read_note"},
        "effect": "read",
        "resource": {"key": "ids", "argument": "name"},
        "allow": {"ids": ["policy"]},
    },
    {"name": "list_notes", "mcp": {"server": "notes", "tool": "list_notes"}},
]
CALLED_BOTH = [
    {"id": "read", "tool_called": "read_note"},
    {"id": "listed", "tool_called": "list_notes"},
]


@pytest.fixture
def notes_env(tmp_path: Path) -> dict[str, str]:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "policy.txt").write_text("Refunds within 30 days.")
    (folder / "secret.txt").write_text("SENTINEL-SECRET-NOTE")
    return {"NOTES_DIR": str(folder), "MCP_LOG": str(tmp_path / "server.log")}


async def _run(
    data: dict[str, Any],
    responses: list[TargetResponse],
    servers: dict[str, McpServerConfig],
    target: ReplayTarget | None = None,
) -> WorkflowResult:
    target = target or ReplayTarget(list(responses))
    return await ArtemisKit().run_workflow(
        workflow=workflow_of(data), target=target, mcp_servers=servers
    )


def _record(result: WorkflowResult) -> dict[str, Any]:
    return record_to_dict(result.record)


def _failures(result: WorkflowResult, tool: str) -> dict[str, int]:
    """Failure reason codes of ``tool``'s attempts, from the record's timeline."""
    found: dict[str, int] = {}
    for entry in _record(result)["timeline"]["entries"]:
        if entry.get("tool") == tool and entry["status"] == "failed":
            found[entry["reason"]] = found.get(entry["reason"], 0) + 1
    return found


async def test_two_tools_of_a_stdio_server_pass_and_nothing_else_is_offered(
    tmp_path: Path, notes_env: dict[str, str]
) -> None:
    data = mcp_workflow(NOTES, outcomes=CALLED_BOTH)
    target = ReplayTarget(
        [
            calling(call("list_notes", {})),
            calling(call("read_note", {"name": "policy"})),
        ]
    )
    result = await _run(
        data, [], {"notes": stdio_server("notes", "notes", notes_env)}, target
    )
    assert result.record.execution.status == "completed"
    assert result.record.task_verification.status == "passed"
    offered = {tool.name for request in target.requests for tool in request.tools}
    assert offered == {"read_note", "list_notes"}  # erase_notes is never offered
    tool_message = target.requests[2].messages[-1]
    assert "30 days" in (tool_message.content or "")
    assert [c["tool"] for c in logged(tmp_path / "server.log")] == [
        "list_notes",
        "read_note",
    ]


async def test_an_argument_outside_allow_is_denied_before_the_server_sees_it(
    tmp_path: Path, notes_env: dict[str, str]
) -> None:
    data = mcp_workflow(NOTES, outcomes=[])
    result = await _run(
        data,
        [calling(call("read_note", {"name": "secret"}))],
        {"notes": stdio_server("notes", "notes", notes_env)},
    )
    assert result.record.policy.denials == 1
    assert logged(tmp_path / "server.log") == []  # the server saw nothing
    assert "SENTINEL-SECRET-NOTE" not in json.dumps(_record(result))


async def test_an_undeclared_server_tool_called_by_name_is_denied(
    tmp_path: Path, notes_env: dict[str, str]
) -> None:
    data = mcp_workflow(NOTES, outcomes=[])
    result = await _run(
        data,
        [calling(call("erase_notes", {}))],
        {"notes": stdio_server("notes", "notes", notes_env)},
    )
    assert result.record.policy.denials == 1
    assert logged(tmp_path / "server.log") == []
    assert (tmp_path / "notes" / "policy.txt").exists()


CRASHY = [
    {"name": name, "mcp": {"server": "crashy", "tool": name}, "timeout_ms": 20000}
    for name in ("crash", "fail", "big", "garbage", "ok")
]


@pytest.mark.parametrize(
    ("tool", "reason"),
    [
        ("fail", "mcp_tool_error"),
        ("big", "mcp_result_too_large"),
        ("crash", "mcp_unavailable"),
        ("garbage", "mcp_unavailable"),
    ],
)
async def test_server_failures_are_tool_failures_and_the_run_goes_on(
    tmp_path: Path, tool: str, reason: str
) -> None:
    env = {"MCP_LOG": str(tmp_path / "server.log")}
    data = mcp_workflow(
        CRASHY, outcomes=[{"id": "done", "final_response": {"contains": ["Done"]}}]
    )
    target = ReplayTarget([calling(call(tool, {}))])
    result = await _run(
        data, [], {"crashy": stdio_server("crashy", "crashy", env)}, target
    )
    assert result.record.execution.status == "completed"
    assert result.record.task_verification.status == "passed"
    answer = target.requests[1].messages[-1]
    assert answer.role == "tool"
    assert answer.is_error
    assert _failures(result, tool) == {reason: 1}
    assert logged(tmp_path / "server.log")[0]["tool"] == tool


async def test_a_server_that_never_answers_times_out_as_unavailable(
    tmp_path: Path,
) -> None:
    env = {"MCP_LOG": str(tmp_path / "server.log")}
    tools = [
        {"name": "wait", "mcp": {"server": "silent", "tool": "wait"}, "timeout_ms": 300}
    ]
    data = mcp_workflow(
        tools, outcomes=[{"id": "done", "final_response": {"contains": ["Done"]}}]
    )
    target = ReplayTarget([calling(call("wait", {}))])
    result = await _run(
        data, [], {"silent": stdio_server("silent", "silent", env)}, target
    )
    assert result.record.task_verification.status == "passed"
    assert _failures(result, "wait") == {"mcp_unavailable": 1}
    assert result.record.cleanup.status == "complete"


async def test_a_pinned_schema_that_differs_refuses_before_any_model_request(
    notes_env: dict[str, str],
) -> None:
    pinned = [{**NOTES[0], "schema_digest": "sha256:" + "0" * 64}]
    target = ReplayTarget([])
    with pytest.raises(UnsupportedError) as caught:
        await _run(
            mcp_workflow(pinned, outcomes=[]),
            [],
            {"notes": stdio_server("notes", "notes", notes_env)},
            target,
        )
    assert caught.value.reason == "mcp_schema_mismatch"
    assert caught.value.exit_code == 3
    assert target.requests == []


async def test_the_right_pin_runs_and_the_digest_is_recorded(
    notes_env: dict[str, str],
) -> None:
    first = await _run(
        mcp_workflow(NOTES, outcomes=[]),
        [],
        {"notes": stdio_server("notes", "notes", notes_env)},
    )
    digest = _record(first)["mcp"]["tools"][0]["schema_digest"]
    assert digest.startswith("sha256:")
    pinned = [{**NOTES[0], "schema_digest": digest}, NOTES[1]]
    second = await _run(
        mcp_workflow(pinned, outcomes=[]),
        [],
        {"notes": stdio_server("notes", "notes", notes_env)},
    )
    assert second.record.execution.status == "completed"


async def test_an_unreachable_server_is_unsupported_before_any_model_request() -> None:
    from artemiskit.tools import McpServerConfig

    broken = McpServerConfig(name="notes", command=("/nonexistent/mcp-server",))
    target = ReplayTarget([])
    with pytest.raises(UnsupportedError) as caught:
        await _run(mcp_workflow(NOTES, outcomes=[]), [], {"notes": broken}, target)
    assert caught.value.reason == "mcp_unavailable"
    assert target.requests == []


@pytest.fixture
def http_notes(notes_env: dict[str, str]) -> Iterator[str]:
    process, url = start_http_server("notes", notes_env)
    try:
        yield url
    finally:
        process.kill()
        process.wait()


# On trio, the SDK's HTTP transport leaves its SSE reading generators (httpx2's) to
# the garbage collector when its task group is cancelled at close; a warning, not
# a leak of ours (the connection is closed and the run's result is complete).
@pytest.mark.filterwarnings(
    "ignore:Exception ignored in. <async_generator object:"
    "pytest.PytestUnraisableExceptionWarning"
)
async def test_two_tools_of_a_streamable_http_server_pass(
    tmp_path: Path, http_notes: str
) -> None:
    from artemiskit.tools import McpServerConfig

    assert http_notes.startswith("http://127.0.0.1:")
    data = mcp_workflow(NOTES, outcomes=CALLED_BOTH)
    result = await _run(
        data,
        [
            calling(call("list_notes", {})),
            calling(call("read_note", {"name": "secret"})),
            calling(call("read_note", {"name": "policy"})),
        ],
        {"notes": McpServerConfig(name="notes", url=http_notes)},
    )
    assert result.record.task_verification.status == "passed"
    assert result.record.policy.denials == 1
    assert [c["arguments"] for c in logged(tmp_path / "server.log")] == [
        {},
        {"name": "policy"},
    ]
    assert _record(result)["mcp"]["servers"] == [
        {"name": "notes", "transport": "streamable_http", "lifetime": "run"}
    ]


async def test_a_server_pattern_matches_in_linear_time(tmp_path: Path) -> None:
    """``^(a+)+$`` against 'a' * 40 + 'b' would not finish in Python's ``re``."""
    env = {"MCP_LOG": str(tmp_path / "server.log")}
    tools = [{"name": "check", "mcp": {"server": "patterns", "tool": "check"}}]
    target = ReplayTarget(
        [
            calling(call("check", {"code": "a" * 40 + "b"})),
            calling(call("check", {"code": "aaaa"})),
        ]
    )
    result = await _run(
        mcp_workflow(tools, outcomes=[]),
        [],
        {"patterns": stdio_server("patterns", "patterns", env)},
        target,
    )
    assert result.record.policy.denial_reasons == {"invalid_arguments": 1}
    assert [c["arguments"] for c in logged(tmp_path / "server.log")] == [
        {"code": "aaaa"}
    ]


async def test_a_pattern_the_linear_engine_cannot_take_refuses_the_tool(
    tmp_path: Path,
) -> None:
    env = {"MCP_LOG": str(tmp_path / "server.log"), "PATTERNS_REFUSED": "1"}
    tools = [{"name": "refused", "mcp": {"server": "patterns", "tool": "refused"}}]
    target = ReplayTarget([])
    with pytest.raises(UnsupportedError) as caught:
        await _run(
            mcp_workflow(tools, outcomes=[]),
            [],
            {"patterns": stdio_server("patterns", "patterns", env)},
            target,
        )
    assert caught.value.reason == "mcp_schema_refused"
    assert target.requests == []


async def test_suite_lifetime_shares_one_server_and_says_so(tmp_path: Path) -> None:
    from artemiskit import TrustedConfig
    from tests._builders import write_workflow

    env = {"COUNTER_FILE": str(tmp_path / "count"), "MCP_LOG": str(tmp_path / "log")}
    tools = [{"name": "bump", "mcp": {"server": "counter", "tool": "bump"}}]
    folder = tmp_path / "suite"
    folder.mkdir()
    write_workflow(
        folder,
        mcp_workflow(tools, outcomes=[{"id": "bumped", "tool_called": "bump"}]),
        [
            {"tool_calls": [{"name": "bump", "arguments": {"label": "x"}}]},
            {"text": "ok"},
        ],
    )
    cases: tuple[tuple[Literal["run", "suite"], int], ...] = (("suite", 1), ("run", 3))
    for lifetime, servers in cases:
        (tmp_path / "log").unlink(missing_ok=True)
        entry = stdio_server("counter", "counter", env)
        config = TrustedConfig(
            mcp_servers={"counter": attrs.evolve(entry, lifetime=lifetime)}
        )
        suite = await ArtemisKit(config=config).run_suite(
            paths=[folder / "workflow.yaml"], repeat=3, concurrency=2
        )
        assert suite.exit_code == 0
        pids = {c["pid"] for c in logged(tmp_path / "log")}
        assert len(pids) == servers
        for run in suite.runs:
            assert run.result is not None
            servers_info = _record(run.result)["mcp"]["servers"]
            assert servers_info[0]["lifetime"] == lifetime


async def test_a_declared_fault_and_retry_apply_before_the_server_is_called(
    tmp_path: Path,
) -> None:
    env = {"COUNTER_FILE": str(tmp_path / "count"), "MCP_LOG": str(tmp_path / "log")}
    tools = [{"name": "bump", "mcp": {"server": "counter", "tool": "bump"}}]
    data = mcp_workflow(
        tools,
        outcomes=[{"id": "bumped", "tool_called": "bump", "min": 1, "max": 1}],
        faults=[
            {"id": "down", "tool": "bump", "occurrence": 1, "kind": "unavailable_tool"}
        ],
        retry={"max_attempts": 2},
    )
    result = await _run(
        data,
        [calling(call("bump", {"label": "x"}))],
        {"counter": stdio_server("counter", "counter", env)},
    )
    assert result.record.task_verification.status == "passed"
    assert (tmp_path / "count").read_text() == "1"
    assert len(logged(tmp_path / "log")) == 1  # the faulted attempt never ran
    assert _failures(result, "bump") == {"fault_unavailable_tool": 1}
    assert result.record.budget.used.tool_calls == 2


async def test_arguments_results_and_server_errors_stay_out_of_evidence(
    tmp_path: Path, notes_env: dict[str, str]
) -> None:
    (tmp_path / "notes" / "policy.txt").write_text("SENTINEL-NOTE-CONTENT")
    crashy = stdio_server("crashy", "crashy", {"MCP_LOG": str(tmp_path / "c.log")})
    tools = [*NOTES, {"name": "fail", "mcp": {"server": "crashy", "tool": "fail"}}]
    target = ReplayTarget(
        [
            calling(call("read_note", {"name": "policy"})),
            calling(call("read_note", {"name": "SENTINEL-ARGUMENT"})),
            calling(call("fail", {})),
        ]
    )
    kit = ArtemisKit()
    session = await kit.create_workflow_session(
        workflow=workflow_of(mcp_workflow(tools, outcomes=[])),
        target=target,
        mcp_servers={
            "notes": stdio_server("notes", "notes", notes_env),
            "crashy": crashy,
        },
    )
    events: list[str] = []

    async def collect() -> None:
        async for event in session.events():
            events.append(repr(event))

    import anyio

    async with anyio.create_task_group() as group:
        group.start_soon(collect)
        result = await session.run()
    # the model saw the content and the isError text (its working data); the
    # server wrote the exception (SENTINEL-SERVER-ERROR) to its stderr only
    seen = [m.content or "" for r in target.requests for m in r.messages]
    assert any("SENTINEL-NOTE-CONTENT" in text for text in seen)
    assert any("Error executing tool fail" in text for text in seen)
    evidence = json.dumps(_record(result)) + "".join(events) + repr(result)
    for sentinel in ("SENTINEL-NOTE-CONTENT", "SENTINEL-ARGUMENT", "SENTINEL-SERVER"):
        assert sentinel not in evidence


async def test_a_declared_tool_the_server_does_not_list_is_unsupported(
    notes_env: dict[str, str],
) -> None:
    tools = [{"name": "vanish", "mcp": {"server": "notes", "tool": "vanish"}}]
    target = ReplayTarget([])
    with pytest.raises(UnsupportedError) as caught:
        await _run(
            mcp_workflow(tools, outcomes=[]),
            [],
            {"notes": stdio_server("notes", "notes", notes_env)},
            target,
        )
    assert caught.value.reason == "mcp_tool_missing"
    assert target.requests == []


async def test_a_server_the_configuration_does_not_name_is_a_config_error() -> None:
    from artemiskit import ConfigError

    with pytest.raises(ConfigError) as caught:
        await _run(mcp_workflow(NOTES, outcomes=[]), [], {})
    assert caught.value.reason == "unknown_mcp_server"
    assert caught.value.exit_code == 1


async def test_an_http_server_that_refuses_connections_is_unsupported() -> None:
    from artemiskit.tools import McpServerConfig
    from tests.tools.mcp._helpers import free_port

    url = f"http://127.0.0.1:{free_port()}/mcp"  # nothing listens there
    down = McpServerConfig(name="notes", url=url, startup_timeout_ms=2000)
    target = ReplayTarget([])
    with pytest.raises(UnsupportedError) as caught:
        await _run(mcp_workflow(NOTES, outcomes=[]), [], {"notes": down}, target)
    assert caught.value.reason == "mcp_unavailable"
    assert target.requests == []
