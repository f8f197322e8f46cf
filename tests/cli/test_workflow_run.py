"""`akit workflow run`: every exit code, for the right reason."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests._builders import PASSING_SCRIPT, USAGE, workflow_dict, write_workflow
from tests._cli import AKIT, akit


def run_and_read(
    tmp_path: Path,
    workflow: dict[str, Any] | None = None,
    script: list[dict[str, Any]] | None = None,
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    path = write_workflow(tmp_path, workflow, script)
    record_path = tmp_path / "record.json"
    done = akit("workflow", "run", path, "--output", record_path)
    assert "Traceback" not in done.stderr
    record = json.loads(record_path.read_text())
    assert record["exit_code"] == done.returncode
    return done, record


def test_exit_0_verified_pass(tmp_path: Path) -> None:
    done, record = run_and_read(tmp_path)
    assert done.returncode == 0, done.stderr
    assert record["execution"]["status"] == "completed"
    assert record["task_verification"]["status"] == "passed"
    assert record["budget"]["used"] == {
        "actions": 5,
        "model_requests": 3,
        "tool_calls": 2,
        "input_tokens": 30,
        "output_tokens": 15,
    }


def test_exit_1_output_exists_before_any_model_call(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    existing = tmp_path / "record.json"
    existing.write_text("keep me")
    done = akit("workflow", "run", path, "--output", existing)
    assert done.returncode == 1
    assert "already exists" in done.stderr
    assert existing.read_text() == "keep me"
    assert "admitted" not in done.stderr


def test_exit_1_outputs_must_be_distinct(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    out = tmp_path / "same.json"
    done = akit("workflow", "run", path, "--output", out, "--state-output", out)
    assert done.returncode == 1
    assert not out.exists()


def test_exit_2_invalid_workflow_writes_nothing(tmp_path: Path) -> None:
    workflow = workflow_dict(surprise=True)
    path = write_workflow(tmp_path, workflow)
    record_path = tmp_path / "record.json"
    done = akit("workflow", "run", path, "--output", record_path)
    assert done.returncode == 2
    assert "surprise" in done.stderr
    assert "Traceback" not in done.stderr
    assert not record_path.exists()


def test_exit_4_policy_denial_stops(tmp_path: Path) -> None:
    script: list[dict[str, Any]] = [
        {"tool_calls": [{"name": "send_email", "arguments": {"to": "x"}}]},
        {"text": "never reached"},
    ]
    done, record = run_and_read(tmp_path, script=script)
    assert done.returncode == 4
    assert record["execution"]["status"] == "policy_denied"
    assert record["execution"]["reason"] == "undeclared_tool"
    assert record["policy"]["denials"] == 1
    assert record["tools"] == []  # the name is not a catalogue tool
    assert record["budget"]["used"]["tool_calls"] == 1
    assert record["budget"]["used"]["model_requests"] == 1
    assert record["task_verification"]["status"] == "unavailable"


def test_exit_5_max_actions(tmp_path: Path) -> None:
    workflow = workflow_dict(budgets={"max_actions": 2, "timeout_ms": 30000})
    done, record = run_and_read(tmp_path, workflow)
    assert done.returncode == 5
    assert record["execution"]["status"] == "budget_exhausted"
    assert record["execution"]["reason"] == "max_actions"
    assert record["budget"]["used"]["actions"] == 2
    assert record["budget"]["used"]["model_requests"] == 1
    assert record["budget"]["used"]["tool_calls"] == 1


def test_exit_6_deadline(tmp_path: Path) -> None:
    workflow = workflow_dict(budgets={"max_actions": 20, "timeout_ms": 200})
    script = [{"text": "slow", "delay_ms": 30000}]
    done, record = run_and_read(tmp_path, workflow, script)
    assert done.returncode == 6
    assert record["execution"]["status"] == "deadline_exceeded"
    assert record["operations"]["unknown"] == 1
    assert record["budget"]["used"]["model_requests"] == 1


def test_exit_7_script_exhausted(tmp_path: Path) -> None:
    done, record = run_and_read(tmp_path, script=PASSING_SCRIPT[:2])
    assert done.returncode == 7
    assert record["execution"]["status"] == "runtime_failure"
    assert record["execution"]["reason"] == "script_exhausted"
    assert record["budget"]["used"]["model_requests"] == 3
    assert record["operations"]["failed"] == 1


def test_exit_7_missing_usage_under_max_tokens(tmp_path: Path) -> None:
    workflow = workflow_dict(
        budgets={"max_actions": 20, "timeout_ms": 30000, "max_tokens": 1000}
    )
    script: list[dict[str, Any]] = [
        {
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": "docs/policy.md"}}
            ]
        },
        {"text": "Done.", "usage": USAGE},
    ]
    done, record = run_and_read(tmp_path, workflow, script)
    assert done.returncode == 7
    assert record["execution"]["reason"] == "usage_unavailable"
    assert record["budget"]["usage_measurement"] == "unavailable"
    assert record["budget"]["used"]["input_tokens"] is None
    assert record["budget"]["used"]["tool_calls"] == 0


def test_exit_8_task_failure(tmp_path: Path) -> None:
    workflow = workflow_dict(
        outcomes=[{"id": "summary", "file": "out/summary.md", "contains": ["60 days"]}]
    )
    done, record = run_and_read(tmp_path, workflow)
    assert done.returncode == 8
    assert record["execution"]["status"] == "completed"
    assert record["task_verification"]["status"] == "failed"
    assert record["task_verification"]["requirements"][0]["reason"] == (
        "missing_content"
    )


def test_exit_9_judge_without_configuration(tmp_path: Path) -> None:
    workflow = workflow_dict(
        outcomes=[
            {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
            {"id": "tone", "judge": {"rubric": "Neutral tone.", "threshold": 0.7}},
        ]
    )
    done, record = run_and_read(tmp_path, workflow)
    assert done.returncode == 9
    statuses = {r["id"]: r for r in record["task_verification"]["requirements"]}
    assert statuses["summary"]["status"] == "passed"
    assert statuses["tone"]["status"] == "unavailable"
    assert statuses["tone"]["reason"] == "judge_not_configured"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_exit_130_signal_cancels_and_writes_record(
    tmp_path: Path, signum: signal.Signals
) -> None:
    """Signalled while the model call's 60 s ``delay_ms`` is pending."""
    script = [{"text": "slow", "delay_ms": 60000, "usage": USAGE}]
    path = write_workflow(tmp_path, script=script)
    record_path = tmp_path / "record.json"
    with subprocess.Popen(
        [*AKIT, "workflow", "run", str(path), "--output", str(record_path)],
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "admitted: model request" in line:
                break
        process.send_signal(signum)
        _, rest = process.communicate(timeout=30)
    assert process.returncode == 130
    assert f"received {signum.name}" in rest
    assert "Traceback" not in rest
    assert "KeyboardInterrupt" not in rest
    record = json.loads(record_path.read_text())
    assert record["exit_code"] == 130
    assert record["execution"]["status"] == "cancelled"
    assert record["cleanup"]["status"] == "complete"
    assert record["operations"]["unknown"] == 1
    assert record["budget"]["used"]["model_requests"] == 1


def test_json_prints_record_and_state_output_is_private(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    state_path = tmp_path / "state.json"
    done = akit("workflow", "run", path, "--json", "--state-output", state_path)
    assert done.returncode == 0
    assert json.loads(done.stdout)["schema"] == "artemiskit.workflow-record"
    assert os.stat(state_path).st_mode & 0o777 == 0o600
    state = json.loads(state_path.read_text())
    assert state["files"]["out/summary.md"] == "30 days"
    assert set(state) == {
        "files",
        "documents",
        "records",
        "drafts",
        "approvals",
        "delegations",
    }


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_top_level_flags(flag: str) -> None:
    done = akit(flag)
    assert done.returncode == 0
    assert done.stdout
