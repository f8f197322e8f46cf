"""MCP tools across processes: pause and resume, a killed owner, the CLI (SPEC 24).

`akit` runs as a real process here: a resume happens in a new process, and the
owner of a stdio server is killed with SIGKILL.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

from tests.checkpoints._processes import AKIT, PROCESS_TIMEOUT_S, child_env
from tests.tools.mcp._helpers import SERVERS, logged, mcp_workflow

if TYPE_CHECKING:
    from pathlib import Path

BUMP = [
    {
        "name": "bump",
        "mcp": {"server": "counter", "tool": "bump"},
        "resource": {"key": "ids", "argument": "label"},
        "allow": {"ids": ["visits"]},
    }
]


def _write(folder: Path, workflow: dict[str, Any], script: list[Any]) -> Path:
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(workflow), encoding="utf-8")
    (folder / "agent.script.yaml").write_text(
        json.dumps({"version": 1, "responses": script}), encoding="utf-8"
    )
    return path


def _config(folder: Path, kind: str, env: dict[str, str]) -> Path:
    entry = {"command": [sys.executable, str(SERVERS), kind], "env": env}
    path = folder / "config.yaml"
    path.write_text(json.dumps({"mcp_servers": {kind: entry}}), encoding="utf-8")
    return path


def _akit(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*AKIT, *map(str, args)],
        capture_output=True,
        text=True,
        env=child_env(),
        timeout=PROCESS_TIMEOUT_S,
        check=False,
    )


def test_pause_after_the_side_effect_and_resume_in_a_new_process_moves_it_once(
    tmp_path: Path,
) -> None:
    counter = tmp_path / "counter.txt"
    env = {"COUNTER_FILE": str(counter), "MCP_LOG": str(tmp_path / "server.log")}
    workflow = _write(
        tmp_path,
        mcp_workflow(BUMP, outcomes=[{"id": "once", "tool_called": "bump", "max": 1}]),
        [
            {"tool_calls": [{"name": "bump", "arguments": {"label": "visits"}}]},
            {"text": "Done."},
        ],
    )
    config = _config(tmp_path, "counter", env)
    checkpoint = tmp_path / "checkpoint"
    paused = _akit(
        "workflow", "run", workflow, "--config", config,
        "--checkpoint-dir", checkpoint, "--pause-after-actions", "2",
    )  # fmt: skip
    assert paused.returncode == 10, paused.stderr
    assert counter.read_text() == "1"
    resumed = _akit(
        "workflow", "resume", workflow, "--config", config,
        "--checkpoint-dir", checkpoint, "--output", tmp_path / "record.json",
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert counter.read_text() == "1"  # never replayed
    assert [c["tool"] for c in logged(tmp_path / "server.log")] == ["bump"]
    record = json.loads((tmp_path / "record.json").read_text())
    assert record["recovery"]["attempt_number"] == 2
    assert record["mcp"]["tools"][0]["name"] == "bump"


def test_a_resume_under_a_changed_server_schema_is_refused_before_any_call(
    tmp_path: Path,
) -> None:
    counter = tmp_path / "counter.txt"
    env = {"COUNTER_FILE": str(counter), "MCP_LOG": str(tmp_path / "server.log")}
    workflow = _write(
        tmp_path,
        mcp_workflow(BUMP, outcomes=[]),
        [
            {"tool_calls": [{"name": "bump", "arguments": {"label": "visits"}}]},
            {"tool_calls": [{"name": "bump", "arguments": {"label": "visits"}}]},
            {"text": "Done."},
        ],
    )
    checkpoint = tmp_path / "checkpoint"
    config = _config(tmp_path, "counter", env)
    paused = _akit(
        "workflow", "run", workflow, "--config", config,
        "--checkpoint-dir", checkpoint, "--pause-after-actions", "2",
    )  # fmt: skip
    assert paused.returncode == 10, paused.stderr
    changed = _config(tmp_path, "counter", {**env, "COUNTER_SCHEMA": "v2"})
    refused = _akit(
        "workflow", "resume", workflow, "--config", changed,
        "--checkpoint-dir", checkpoint,
    )  # fmt: skip
    assert refused.returncode == 2, refused.stderr
    assert "Traceback" not in refused.stderr
    assert counter.read_text() == "1"
    assert len(logged(tmp_path / "server.log")) == 1


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def _wait_for(condition: Any, what: str, limit_s: float = 30) -> None:
    deadline = time.monotonic() + limit_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_sigkill_of_the_owner_leaves_no_server_process(tmp_path: Path) -> None:
    pid_file = tmp_path / "server.pid"
    log = tmp_path / "server.log"
    env = {"MCP_LOG": str(log), "MCP_PID_FILE": str(pid_file)}
    tools = [
        {
            "name": "wait",
            "mcp": {"server": "silent", "tool": "wait"},
            "timeout_ms": 600000,
        }
    ]
    workflow = _write(
        tmp_path,
        mcp_workflow(
            tools, outcomes=[], budgets={"max_actions": 5, "timeout_ms": 600000}
        ),
        [{"tool_calls": [{"name": "wait", "arguments": {}}]}, {"text": "Done."}],
    )
    config = _config(tmp_path, "silent", env)
    owner = subprocess.Popen(
        [*AKIT, "workflow", "run", str(workflow), "--config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=child_env(),
    )
    try:
        _wait_for(lambda: logged(log), "the server to receive the call")
        server = int(pid_file.read_text())
        assert _alive(server)
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait(timeout=PROCESS_TIMEOUT_S)
        _wait_for(lambda: not _alive(server), "the server to end")
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()


def test_mcp_tools_lists_tools_schemas_and_digests(tmp_path: Path) -> None:
    config = _config(tmp_path, "notes", {"NOTES_DIR": str(tmp_path)})
    listed = _akit("mcp", "tools", "notes", "--config", config, "--json")
    assert listed.returncode == 0, listed.stderr
    tools = {tool["name"]: tool for tool in json.loads(listed.stdout)["tools"]}
    assert set(tools) == {"read_note", "list_notes", "erase_notes"}
    assert tools["read_note"]["input_schema"]["required"] == ["name"]
    assert tools["read_note"]["schema_digest"].startswith("sha256:")
    text = _akit("mcp", "tools", "notes", "--config", config)
    assert text.returncode == 0
    assert "read_note" in text.stdout
    assert tools["read_note"]["schema_digest"] in text.stdout


def test_mcp_tools_of_an_unknown_or_unreachable_server(tmp_path: Path) -> None:
    config = _config(tmp_path, "notes", {})
    unknown = _akit("mcp", "tools", "other", "--config", config)
    assert unknown.returncode == 1
    assert "other" in unknown.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        json.dumps({"mcp_servers": {"notes": {"command": ["/nonexistent/server"]}}})
    )
    unreachable = _akit("mcp", "tools", "notes", "--config", broken)
    assert unreachable.returncode == 3
    assert "Traceback" not in unreachable.stderr


def test_validate_checks_mcp_declarations_offline_without_the_sdk(
    tmp_path: Path,
) -> None:
    workflow = _write(tmp_path, mcp_workflow(BUMP, outcomes=[]), [])
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['akit', 'scenario', 'validate', sys.argv[1]]\n"
        "try:\n"
        "    runpy.run_module('artemiskit_cli', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "print(code, 'mcp' in sys.modules, 'mcp_types' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(workflow)],
        capture_output=True,
        text=True,
        env=child_env(),
        timeout=PROCESS_TIMEOUT_S,
        check=False,
    )
    assert done.stdout.split() == ["0", "False", "False"], done.stderr
    bad = mcp_workflow(
        [{**BUMP[0], "resource": {"key": "rooms", "argument": "label"}}], outcomes=[]
    )
    invalid = _akit("scenario", "validate", _write(tmp_path, bad, []))
    assert invalid.returncode == 2
    assert "$.tools[0].resource.key" in invalid.stderr


def test_server_stderr_reaches_neither_the_terminal_nor_the_record(
    tmp_path: Path,
) -> None:
    tools = [{"name": "fail", "mcp": {"server": "crashy", "tool": "fail"}}]
    workflow = _write(
        tmp_path,
        mcp_workflow(
            tools, outcomes=[{"id": "done", "final_response": {"contains": ["Done"]}}]
        ),
        [{"tool_calls": [{"name": "fail", "arguments": {}}]}, {"text": "Done."}],
    )
    config = _config(tmp_path, "crashy", {"MCP_LOG": str(tmp_path / "server.log")})
    done = _akit(
        "workflow", "run", workflow, "--config", config,
        "--output", tmp_path / "record.json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert logged(tmp_path / "server.log")  # the server ran the tool and failed
    assert "SENTINEL-SERVER-ERROR" not in done.stderr + done.stdout
    assert "SENTINEL" not in (tmp_path / "record.json").read_text()
