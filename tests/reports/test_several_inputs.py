"""What one report counts: a resumed run once, several suites together."""

from __future__ import annotations

import json
from pathlib import Path

from tests.reports._evidence import ROOT, akit, run_suite

FLAKY = ROOT / "examples" / "flaky" / "workflow.yaml"


def test_a_paused_attempt_and_its_resumption_are_one_run(tmp_path: Path) -> None:
    paused, resumed = tmp_path / "paused.json", tmp_path / "resumed.json"
    checkpoint = ["--checkpoint-dir", str(tmp_path / "checkpoint")]
    first = akit(
        "workflow", "run", str(FLAKY), *checkpoint,
        "--pause-after-actions", "1", "--output", str(paused),
    )  # fmt: skip
    assert first.returncode == 10, first.stderr
    second = akit(
        "workflow", "resume", str(FLAKY), *checkpoint, "--output", str(resumed)
    )
    assert second.returncode == 0, second.stderr
    final = json.loads(resumed.read_text("utf-8"))
    assert final["run_id"] == json.loads(paused.read_text("utf-8"))["run_id"]
    used = final["budget"]["used"]
    for order in ((paused, resumed), (resumed, paused)):
        done = akit("report", *map(str, order))
        assert done.returncode == 0, done.stderr
        tokens = used["input_tokens"] + used["output_tokens"]
        row = (
            f"| 1 | 1 | 0 | 0 | 0 | 0 | {tokens} | {used['model_requests']} "
            f"| {used['tool_calls']} |"
        )
        assert row in done.stdout
        assert "| answer | 100.0% |" in done.stdout


def test_several_suites_make_one_report(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    one = run_suite(FLAKY.parent, first, repeat=3)
    two = run_suite(ROOT / "examples" / "suite" / "summarize", second, repeat=2)
    html, markdown = tmp_path / "r.html", tmp_path / "r.md"
    done = akit(
        "report", str(first / "suite.json"), str(second),
        "--html", str(html), "--markdown", str(markdown),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = markdown.read_text("utf-8")
    assert "Read from 2 suites; the totals add them up." in summary
    for suite in (one, two):
        suite_id = suite["suite_id"]
        assert f"| {suite_id} | completed (all\\_runs\\_finished) " in summary
    assert "| 5 | 4 | 1 | 0 | 0 |" in summary
    assert "| answer | 66.7% |" in summary
    assert "| summarize | 100.0% |" in summary
    page = html.read_text("utf-8")
    assert page.count('data-check="suite-source"') == 2
    assert str(tmp_path) not in page


def test_the_same_workflow_in_two_suites_is_refused(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    run_suite(FLAKY.parent, first, repeat=1)
    run_suite(FLAKY.parent, second, repeat=1)
    done = akit("report", str(first), str(second))
    assert done.returncode == 2
    assert (
        f"{second / 'suite.json'}: $: workflow 'answer' is also in "
        f"{first / 'suite.json'}"
    ) in done.stderr
    assert "Traceback" not in done.stderr
