"""Judge verdicts and scripted preflight through the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests._builders import PASSING_SCRIPT, USAGE, workflow_dict, write_workflow
from tests._cli import akit

JUDGED = workflow_dict(
    outcomes=[
        {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
        {"id": "tone", "judge": {"rubric": "Neutral and accurate.", "threshold": 0.7}},
    ]
)


def write_judge(folder: Path, responses: list[dict[str, Any]], **limits: int) -> Path:
    judge_dir = folder / "judge"
    judge_dir.mkdir()
    config = judge_dir / "judge.yaml"
    config.write_text(
        json.dumps({"provider": "scripted", "model": "judge", **limits}),
        encoding="utf-8",
    )
    (judge_dir / "judge.script.yaml").write_text(
        json.dumps({"version": 1, "responses": responses}), encoding="utf-8"
    )
    return config


@pytest.mark.parametrize(
    ("responses", "code", "status", "reason"),
    [
        ([{"score": 0.9, "usage": USAGE}], 0, "passed", "judge_score_met"),
        ([{"score": 0.2, "usage": USAGE}], 8, "failed", "judge_score_below_threshold"),
        (
            [{"text": "no verdict here", "usage": USAGE}],
            9,
            "unavailable",
            "invalid_verdict",
        ),
    ],
)
def test_judge_verdicts(
    tmp_path: Path,
    responses: list[dict[str, Any]],
    code: int,
    status: str,
    reason: str,
) -> None:
    path = write_workflow(tmp_path, JUDGED)
    judge = write_judge(tmp_path, responses or [{"score": 0.5}])
    if not responses:  # an exhausted judge script is a judge failure
        (judge.parent / "judge.script.yaml").write_text(
            json.dumps({"version": 1, "responses": [{"score": 0.5, "delay_ms": 0}]})
        )
        judge.write_text(json.dumps({"provider": "scripted", "model": "missing"}))
        (judge.parent / "missing.script.yaml").write_text(
            json.dumps(
                {
                    "version": 1,
                    "responses": [{"tool_calls": [{"name": "x", "arguments": {}}]}],
                }
            )
        )
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow", "run", path, "--judge-config", judge, "--output", record_path
    )
    assert done.returncode == code, done.stderr
    record = json.loads(record_path.read_text())
    tone = next(
        r for r in record["task_verification"]["requirements"] if r["id"] == "tone"
    )
    assert tone["status"] == status
    assert tone["reason"] == reason
    assert record["judge"]["configured"] is True
    assert record["judge"]["requests"] == 1
    assert record["budget"]["used"]["model_requests"] == 3  # judge counted apart


def test_judge_that_errors_is_unavailable_never_passed(tmp_path: Path) -> None:
    path = write_workflow(tmp_path, JUDGED)
    judge = tmp_path / "judge.yaml"
    closed_port = {
        "type": "openai",
        "base_url": "http://127.0.0.1:9/v1",
        "api_key": "k",
        "request_timeout_ms": 5000,
    }
    judge.write_text(
        json.dumps(
            {"provider": "down", "model": "j", "providers": {"down": closed_port}}
        )
    )
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow", "run", path, "--judge-config", judge, "--output", record_path
    )
    assert done.returncode == 9
    record = json.loads(record_path.read_text())
    tone = record["task_verification"]["requirements"][1]
    assert (tone["status"], tone["reason"]) == ("unavailable", "judge_failure")
    assert record["judge"]["transport_digest"].startswith("sha256:")


def test_judge_budget_exhausted_is_unavailable(tmp_path: Path) -> None:
    workflow = workflow_dict(
        outcomes=[
            {"id": "a", "judge": {"rubric": "A", "threshold": 0.5}},
            {"id": "b", "judge": {"rubric": "B", "threshold": 0.5}},
        ]
    )
    path = write_workflow(tmp_path, workflow)
    judge = write_judge(tmp_path, [{"score": 1.0, "usage": USAGE}] * 2, max_requests=1)
    record_path = tmp_path / "record.json"
    done = akit(
        "workflow", "run", path, "--judge-config", judge, "--output", record_path
    )
    assert done.returncode == 9
    record = json.loads(record_path.read_text())
    reasons = {
        r["id"]: r["reason"] for r in record["task_verification"]["requirements"]
    }
    assert reasons == {"a": "judge_score_met", "b": "judge_budget_exhausted"}


def test_scripted_preflight_then_run(tmp_path: Path) -> None:
    probe = [
        {"tool_calls": [{"name": "artemiskit_probe", "arguments": {"nonce": "x"}}]},
    ]
    path = write_workflow(tmp_path, script=probe + PASSING_SCRIPT)
    record_path = tmp_path / "record.json"
    done = akit("workflow", "run", path, "--preflight", "--output", record_path)
    # A script cannot know the random nonce, so the probe fails: exit 3.
    assert done.returncode == 3
    record = json.loads(record_path.read_text())
    assert record["preflight"]["reason"] == "wrong_arguments"
