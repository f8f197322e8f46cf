"""A user-defined tool that misbehaves never crashes a run and never goes unseen.

- A handler that raises is a recorded tool failure: the run ends as a runtime
  failure (exit 7) naming the tool and the exception's type, never its text; a
  write tool that raised leaves a checkpoint that refuses to resume and says why.
- A handler gets copies of its state: changing them in place changes nothing;
  only a write tool's returned section does.
- A read tool's environment handle is read-only, and a handle dies when its call
  returns.
- Every call that stops the run is in the record's ``tools`` summary.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointError,
    CheckpointOptions,
    FileOperationError,
    WorkflowResult,
    parse_agent_workflow,
)
from artemiskit.records import record_to_dict
from tests._builders import USAGE, workflow_dict, write_workflow
from tests._runs import ReplayTarget, call, calling
from tests.tools._misbehaving_tools import (
    COUNT,
    MUTATE_READ,
    MUTATE_WRITE,
    RAISE_READ,
    RAISE_UNUSUAL,
    RAISE_WRITE,
    SENTINEL,
    STASH_HANDLE,
    STASHED,
    TOOLS,
    USE_STASHED,
    WRITE_THROUGH_READ,
)

ROOT = Path(__file__).resolve().parents[2]


def _data(*tools: str, **changes: Any) -> dict[str, Any]:
    declared = [{"name": "read_file", "allow": {"paths": ["docs/**"]}}]
    return workflow_dict(
        tools=[*declared, *({"name": name} for name in tools)],
        outcomes=[],
        policy={"on_denial": "report"},
        **changes,
    )


async def _run(
    tools: tuple[str, ...], calls: list[Any], **options: Any
) -> tuple[WorkflowResult, ReplayTarget]:
    workflow = parse_agent_workflow(json.dumps(_data(*tools)), tools=TOOLS)
    target = ReplayTarget([calling(c) for c in calls])
    result = await ArtemisKit(tools=TOOLS).run_workflow(
        workflow=workflow, target=target, **options
    )
    return result, target


def _summary(result: WorkflowResult) -> dict[str, dict[str, Any]]:
    return {
        entry.tool: record_to_dict(result.record)["tools"][i]
        for i, entry in enumerate(result.record.tools)
    }


@pytest.mark.parametrize(
    ("tool", "kind", "status"),
    [
        (RAISE_READ, "ValueError", "failed"),
        (RAISE_WRITE, "RuntimeError", "unknown"),
        (RAISE_UNUSUAL, "Unusual", "failed"),
    ],
)
async def test_a_handler_that_raises_is_a_recorded_runtime_failure(
    tool: Any, kind: str, status: str
) -> None:
    result, target = await _run((tool.name,), [call(tool.name, {})])
    record = record_to_dict(result.record)
    assert record["exit_code"] == 7
    assert record["execution"] == {
        **record["execution"],
        "status": "runtime_failure",
        "reason": "tool_raised",
    }
    assert result.failure == f"tool {tool.name!r} raised {kind}"
    (entry,) = [e for e in record["timeline"]["entries"] if e["kind"] == "tool_call"]
    assert (entry["status"], entry["reason"], entry["tool"]) == (
        status,
        "tool_raised",
        tool.name,
    )
    assert _summary(result)[tool.name]["failed"] == 1
    assert len(target.requests) == 1  # the run stopped: no further model request
    assert SENTINEL not in json.dumps(record)
    assert SENTINEL not in repr(result)


async def test_a_write_that_raised_leaves_a_checkpoint_that_says_why_it_cannot_resume(
    tmp_path: Path,
) -> None:
    checkpoint = CheckpointOptions(directory=tmp_path / "ckpt", configuration_id="t")
    result, _ = await _run(
        (RAISE_WRITE.name,), [call(RAISE_WRITE.name, {})], checkpoint=checkpoint
    )
    assert result.record.exit_code == 7
    assert result.record.recovery.resumable is False
    with pytest.raises(CheckpointError) as caught:
        await _run(
            (RAISE_WRITE.name,),
            [],
            checkpoint=CheckpointOptions(
                directory=tmp_path / "ckpt", configuration_id="t", mode="resume"
            ),
        )
    assert caught.value.reason == "unknown_effect"
    assert "effect is unknown" in caught.value.message


def test_the_cli_records_a_raising_handler_without_a_traceback(tmp_path: Path) -> None:
    path = write_workflow(
        tmp_path,
        _data(RAISE_WRITE.name),
        [{"tool_calls": [{"name": RAISE_WRITE.name, "arguments": {}}], "usage": USAGE}],
    )
    output = tmp_path / "record.json"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "artemiskit_cli",
            "workflow",
            "run",
            str(path),
            "--tools",
            "tests.tools._misbehaving_tools:TOOLS",
            "--output",
            str(output),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert completed.returncode == 7, completed.stderr
    assert "Traceback" not in completed.stderr
    assert "raise_write" in completed.stderr
    assert "RuntimeError" in completed.stderr
    assert SENTINEL not in completed.stderr + completed.stdout
    record = json.loads(output.read_text())
    assert record["execution"]["reason"] == "tool_raised"
    assert SENTINEL not in output.read_text()


@pytest.mark.parametrize("tool", [MUTATE_READ, MUTATE_WRITE])
async def test_changing_the_handed_state_in_place_changes_nothing(tool: Any) -> None:
    result, _ = await _run((tool.name,), [call(tool.name, {}), call(tool.name, {})])
    assert result.record.exit_code == 9  # completed, no outcomes
    assert result.state is not None
    assert result.state["tools"][tool.name] == {"count": 0}
    assert "tickets" not in result.state["records"]
    assert result.record.state_changes.count == 0


async def test_only_a_returned_section_of_a_write_tool_changes_state() -> None:
    result, _ = await _run((COUNT.name,), [call(COUNT.name, {}), call(COUNT.name, {})])
    assert result.state is not None
    assert result.state["tools"]["count"] == {"count": 2}
    assert result.record.state_changes.count == 2


async def test_a_read_tool_cannot_write_through_its_environment() -> None:
    name = WRITE_THROUGH_READ.name
    result, target = await _run((name,), [call(name, {})])
    assert result.state is not None
    assert "out/sneaky.md" not in result.state["files"]
    (answer,) = [m for m in target.requests[-1].messages if m.role == "tool"]
    assert json.loads(answer.content or "")["error"]["code"] == "read_only_tool"
    assert _summary(result)[name]["failed"] == 1


async def test_an_environment_handle_dies_when_its_call_returns() -> None:
    STASHED.clear()
    result, target = await _run(
        (STASH_HANDLE.name, USE_STASHED.name),
        [call(STASH_HANDLE.name, {}), call(USE_STASHED.name, {}, call_id="c2")],
    )
    assert result.state is not None
    assert "out/late.md" not in result.state["files"]
    answer = [m for m in target.requests[-1].messages if m.role == "tool"][-1]
    code = json.loads(answer.content or "")["error"]["code"]
    assert code == "environment_handle_closed"
    with pytest.raises(FileOperationError):
        await STASHED[-1].read_file("docs/policy.md")
    with pytest.raises(FileOperationError):
        await STASHED[-1].close()
