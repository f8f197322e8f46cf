"""What a run's page shows, computed from its record: timeline, gauges, pass^k ks."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from artemiskit.records import record_from_dict
from artemiskit.reports._inputs import load_report_input
from artemiskit.reports._views import (
    budget_fractions,
    budget_gauges,
    run_timeline,
    shown_ks,
)
from tests._cli import akit
from tests.pytest_plugin._projects import GOOD, add_workflow
from tests.reports._evidence import ROOT

if TYPE_CHECKING:
    from pathlib import Path


def test_a_recovered_fault_run_shows_each_step_in_order(tmp_path: Path) -> None:
    output = tmp_path / "record.json"
    done = akit(
        "workflow",
        "run",
        str(ROOT / "examples" / "fault-recovery" / "workflow.yaml"),
        "--output",
        str(output),
    )
    assert done.returncode == 0, done.stderr
    record = record_from_dict(json.loads(output.read_text("utf-8")))
    timeline = [(e.phase, e.status, e.detail) for e in run_timeline(record)]
    assert timeline[:6] == [
        ("#1 model request", "succeeded", ""),
        ("#2 tool call read_document", "failed", "fault_unavailable_tool"),
        ("#3 tool call read_document (retry, attempt 2)", "succeeded", ""),
        ("#4 model request", "succeeded", ""),
        ("#5 tool call write_file", "succeeded", ""),
        ("#6 model request", "succeeded", ""),
    ]
    assert timeline[6:8] == [
        ("fault unavailable_tool", "injected", "1 declared, 1 injected"),
        ("retries", "recovered", "1 retries, 1 recovered calls, 0 exhausted calls"),
    ]
    phase, status, detail = timeline[8]
    assert (phase, status) == ("state change 1", "write_file file")
    assert detail.startswith("absent → sha256:")
    assert timeline[9:] == [
        ("end", "completed", "all_turns_completed"),
        ("cleanup", "complete", "0 unresolved"),
        ("verification", "passed", "all_requirements_passed"),
    ]
    gauges = [(g.name, g.used, g.limit, g.fraction) for g in budget_gauges(record)]
    assert gauges == [
        ("actions", 6, 12, 0.5),
        ("model requests", 3, None, None),
        ("tool calls", 3, 6, 0.5),
        ("tokens", 800, 8000, 0.1),
    ]


def test_pass_hat_k_is_shown_for_every_k_to_20_then_about_ten_a_decade() -> None:
    assert shown_ks(0) == []
    assert shown_ks(1) == [1]
    assert shown_ks(20) == list(range(1, 21))
    assert shown_ks(21) == list(range(1, 22))
    assert shown_ks(100) == [*range(1, 21), 25, 32, 40, 50, 63, 80, 100]
    assert shown_ks(1000)[20:] == [
        *(25, 32, 40, 50, 63, 80, 100, 126, 159, 200),
        *(252, 317, 399, 502, 632, 796, 1000),
    ]


def test_a_record_that_kept_no_operations_in_order_shows_counts_per_tool() -> None:
    fixture = ROOT / "tests" / "records" / "fixtures" / "workflow-record.v0.json"
    record = record_from_dict(json.loads(fixture.read_text("utf-8")))
    timeline = [(e.phase, e.status, e.detail) for e in run_timeline(record)]
    assert timeline[:3] == [
        ("model requests", "complete", "3 requests, 5 actions"),
        (
            "tool read_file",
            "succeeded",
            "1 calls, 1 succeeded, 0 failed, 0 denied, 1 attempts",
        ),
        (
            "tool write_file",
            "succeeded",
            "1 calls, 1 succeeded, 0 failed, 0 denied, 1 attempts",
        ),
    ]
    assert timeline[-1] == (
        "verification",
        "unavailable",
        "predates_task_verification",
    )


async def test_budget_fractions_do_not_depend_on_the_order_files_are_given(
    example_suite: Path,
) -> None:
    records = sorted((example_suite / "runs" / "answer").glob("*.record.json"))
    given = await load_report_input([str(r) for r in records])
    rotated = await load_report_input([str(r) for r in [*records[1:], records[0]]])
    fractions = budget_fractions(given, "answer")
    assert fractions == budget_fractions(rotated, "answer")
    # In repetition order: the third run used fewer actions than the others.
    assert fractions["actions"] == [0.5, 0.5, 0.3, 0.5, 0.5]


def test_a_denied_run_shows_the_denial_and_how_often(tmp_path: Path) -> None:
    workflow = add_workflow(tmp_path / "wf", "denied", [GOOD])
    script = tmp_path / "wf" / "denied.script.yaml"
    data = json.loads(script.read_text("utf-8"))
    data["variants"][0][0]["tool_calls"][0]["arguments"]["path"] = "elsewhere/x.md"
    script.write_text(json.dumps(data), "utf-8")
    output = tmp_path / "record.json"
    done = akit("workflow", "run", str(workflow), "--output", str(output))
    assert done.returncode == 4, done.stderr
    record = record_from_dict(json.loads(output.read_text("utf-8")))
    timeline = [(e.phase, e.status, e.detail) for e in run_timeline(record)]
    assert timeline == [
        ("#1 model request", "succeeded", ""),
        ("denial", "path_not_allowed", "1 times"),
        ("end", "policy_denied", "path_not_allowed"),
        ("cleanup", "complete", "0 unresolved"),
        ("verification", "unavailable", "execution_incomplete"),
    ]


def test_each_gauge_has_its_declared_limit(example_suite: Path) -> None:
    records = sorted((example_suite / "runs" / "answer").glob("*.record.json"))
    record = record_from_dict(json.loads(records[0].read_text("utf-8")))
    limits = record.budget.limits
    gauges = {g.name: g.limit for g in budget_gauges(record)}
    assert gauges == {
        "actions": limits.max_actions,
        "model requests": limits.max_model_requests,
        "tool calls": limits.max_tool_calls,
        "tokens": limits.max_tokens,
    }
    assert None not in gauges.values()
