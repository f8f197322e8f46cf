"""Suites count verdicts (SPEC 20): passed, failed, errored, unavailable.

A run stopped by a denial, a budget or the deadline is a failure, never
unavailable; infrastructure failures (a provider, an exhausted script, unresolved
cleanup, a lost run) are errored; the pass rate is passed / (passed + failed) and
the range errored and unavailable runs leave open is shown; the exit code follows
130 > 7 (errored beyond --max-errored) > 9 > 8 > 0. Everything runs offline with
the scripted provider.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

import pytest

from artemiskit import ArtemisKit, TrustedConfig
from artemiskit.suites import SuiteSettings, cause_text, junit_xml, load_suite_record
from artemiskit.suites._create import create_suite_session
from artemiskit.suites._record import RunOutcome, suite_exit_code
from artemiskit_pytest import assert_passed
from tests._builders import PASSING_SCRIPT, USAGE
from tests._environments import DictFactory
from tests.suites._suites import FAILING_SCRIPT, write_member

if TYPE_CHECKING:
    from artemiskit.engine._session import WorkflowSession

#: Calls one tool, then the script has nothing more to say: errored.
SHORT_SCRIPT: list[dict[str, Any]] = [
    {
        "tool_calls": [{"name": "read_file", "arguments": {"path": "docs/policy.md"}}],
        "usage": USAGE,
    }
]
#: Writes where the workflow does not allow: denied, and the run stops.
DENIED_SCRIPT: list[dict[str, Any]] = [
    {
        "tool_calls": [
            {"name": "write_file", "arguments": {"path": "secret/x.md", "content": "x"}}
        ],
        "usage": USAGE,
    },
    {"text": "Done.", "usage": USAGE},
]
#: Reads four times: over a budget of three tool calls.
LOOPING_SCRIPT: list[dict[str, Any]] = [SHORT_SCRIPT[0]] * 4 + [
    {"text": "Done.", "usage": USAGE}
]
TIGHT = {"max_actions": 20, "timeout_ms": 30000, "max_tool_calls": 3}
JUDGED = [
    {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
    {"id": "tone", "judge": {"rubric": "Neutral.", "threshold": 0.5}},
]


def _mixed(root: Path) -> Path:
    """Six workflows, one per way a run can end."""
    suite = root / "mixed"
    write_member(suite, "passes", [PASSING_SCRIPT])
    write_member(suite, "fails", [FAILING_SCRIPT])
    write_member(suite, "over-budget", [LOOPING_SCRIPT], budgets=TIGHT)
    write_member(suite, "denied", [DENIED_SCRIPT])
    write_member(suite, "errored", [SHORT_SCRIPT])
    write_member(suite, "undecided", [PASSING_SCRIPT], outcomes=JUDGED)
    return suite


def _by_name(summary: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {w["name"]: w for w in summary["workflows"]}


def _counts(entry: dict[str, Any]) -> tuple[int, int, int, int]:
    return (entry["passed"], entry["failed"], entry["errored"], entry["unavailable"])


async def test_a_mixed_suite_counts_each_verdict(tmp_path: Path) -> None:
    result = await ArtemisKit().run_suite(
        paths=[_mixed(tmp_path)], output_dir=tmp_path / "out"
    )
    summary = result.summary
    workflows = _by_name(summary)
    assert _counts(workflows["passes"]) == (1, 0, 0, 0)
    assert _counts(workflows["fails"]) == (0, 1, 0, 0)
    # Stopped by the agent's own conduct: failed, never unavailable.
    assert _counts(workflows["over-budget"]) == (0, 1, 0, 0)
    assert _counts(workflows["denied"]) == (0, 1, 0, 0)
    assert _counts(workflows["errored"]) == (0, 0, 1, 0)
    assert _counts(workflows["undecided"]) == (0, 0, 0, 1)
    totals = summary["totals"]
    assert _counts(totals) == (1, 3, 1, 1)
    assert summary["exit_code"] == result.exit_code == 7
    verdicts = {w["name"]: w["runs"][0]["verdict"] for w in summary["workflows"]}
    assert verdicts == {
        "passes": "passed",
        "fails": "failed",
        "over-budget": "failed",
        "denied": "failed",
        "errored": "errored",
        "undecided": "unavailable",
    }
    causes = {w["name"]: w["runs"][0]["why"] for w in summary["workflows"]}
    assert causes["passes"] is None
    assert causes["fails"] == {
        "kind": "requirement",
        "id": "summary",
        "reason": "missing_content",
        "step": None,
    }
    assert causes["over-budget"]["kind"] == causes["denied"]["kind"] == "stop"
    assert causes["over-budget"]["id"] == "budget_exhausted"
    assert causes["denied"]["id"] == "policy_denied"
    assert causes["errored"]["reason"] == "script_exhausted"
    assert causes["undecided"]["id"] == "tone"
    # Units: one per workflow for now, no case, the workflow's target.
    units = {u["workflow"]: u for u in summary["units"]}
    assert units["errored"]["case"] is None
    assert units["errored"]["target"] == "scripted:agent"
    assert _counts(units["over-budget"]) == (0, 1, 0, 0)
    assert load_suite_record(tmp_path / "out" / "suite.json") == summary


@pytest.mark.parametrize(
    ("max_errored", "exit_code"),
    [(0, 7), (1, 9)],
)
async def test_errored_runs_exit_7_unless_tolerated(
    tmp_path: Path, max_errored: int, exit_code: int
) -> None:
    result = await ArtemisKit().run_suite(
        paths=[_mixed(tmp_path)], max_errored=max_errored
    )
    assert result.exit_code == exit_code
    assert result.summary["settings"]["max_errored"] == max_errored


async def test_one_run_ending_7_and_one_ending_9_exits_7(tmp_path: Path) -> None:
    # Issue 28, item 38: the precedence of 7 over 9.
    suite = tmp_path / "s"
    write_member(suite, "errored", [SHORT_SCRIPT])
    write_member(suite, "undecided", [PASSING_SCRIPT], outcomes=JUDGED)
    result = await ArtemisKit().run_suite(paths=[suite])
    codes = sorted(
        run["exit_code"] for w in result.summary["workflows"] for run in w["runs"]
    )
    assert codes == [7, 9]
    assert result.exit_code == 7


async def test_a_workflow_that_never_ran_exits_8(tmp_path: Path) -> None:
    # Issue 28, item 38: every finished run passed, but one workflow has no
    # pass rate (the suite budget stopped new starts before it ran).
    suite = tmp_path / "s"
    write_member(suite, "first", [PASSING_SCRIPT])
    write_member(suite, "second", [PASSING_SCRIPT])
    result = await ArtemisKit().run_suite(
        paths=[suite], concurrency=1, max_suite_tokens=1
    )
    summary = result.summary
    assert summary["status"] == "budget_exhausted"
    second = _by_name(summary)["second"]
    assert second["runs"] == []
    assert second["pass_rate"] is None
    assert second["pass_rate_range"] is None
    assert _by_name(summary)["first"]["pass_rate"] == 1.0
    assert result.exit_code == 8


async def test_a_suite_of_stopped_runs_does_not_pass(tmp_path: Path) -> None:
    # Issue 28, item 13: a pass, a budget-exhausted run and a denied run were
    # "pass rate 100% (1/1)" and exit 0.
    suite = tmp_path / "s"
    write_member(
        suite, "support", [PASSING_SCRIPT, LOOPING_SCRIPT, DENIED_SCRIPT], budgets=TIGHT
    )
    result = await ArtemisKit().run_suite(paths=[suite], repeat=3)
    (workflow,) = result.summary["workflows"]
    assert [run["execution_status"] for run in workflow["runs"]] == [
        "completed",
        "budget_exhausted",
        "policy_denied",
    ]
    assert _counts(workflow) == (1, 2, 0, 0)
    assert workflow["pass_rate"] == pytest.approx(1 / 3)
    assert result.exit_code == 8
    # Under the default gate a suite of only stopped runs never exits 0; with
    # --min-pass-rate 0 the ordered rule applies as written (SPEC 26).
    only_stopped = tmp_path / "t"
    write_member(
        only_stopped, "stopped", [LOOPING_SCRIPT, DENIED_SCRIPT], budgets=TIGHT
    )
    stopped = await ArtemisKit().run_suite(paths=[only_stopped], repeat=2)
    assert stopped.exit_code == 8
    lenient = await ArtemisKit().run_suite(
        paths=[only_stopped], repeat=2, min_pass_rate=0.0
    )
    assert lenient.exit_code == 0


async def test_the_pass_rate_range_covers_errored_and_unavailable_runs(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "s"
    write_member(suite, "wobbly", [PASSING_SCRIPT, FAILING_SCRIPT, SHORT_SCRIPT])
    result = await ArtemisKit().run_suite(paths=[suite], repeat=6, max_errored=2)
    (workflow,) = result.summary["workflows"]
    assert _counts(workflow) == (2, 2, 2, 0)
    assert workflow["pass_rate"] == 0.5
    # All errored runs failing: 2/6; all passing: 4/6.
    assert workflow["pass_rate_range"] == {"low": 2 / 6, "high": 4 / 6}
    (unit,) = result.summary["units"]
    assert unit["pass_rate_range"] == workflow["pass_rate_range"]
    assert unit["runs"] == 6
    assert result.exit_code == 8


class _LeakyKit:
    """Runs every session in an environment whose cleanup stays unresolved."""

    def __init__(self) -> None:
        self._kit = ArtemisKit()

    async def create_workflow_session(self, **options: Any) -> WorkflowSession:
        return await self._kit.create_workflow_session(
            **options, environment=DictFactory(leak=True)
        )


async def test_a_verified_run_that_ended_7_is_not_a_pass(tmp_path: Path) -> None:
    # Issue 28, item 39: verification passed, cleanup unresolved (exit 7).
    suite = tmp_path / "s"
    write_member(suite, "leaky", [PASSING_SCRIPT])
    session = await create_suite_session(
        _LeakyKit(),
        TrustedConfig(),
        [suite],
        settings=SuiteSettings(repeat=2),
        output_dir=None,
        executor=None,
        judge=None,
        cleanup_timeout_ms=None,
    )
    result = await session.run()
    (workflow,) = result.summary["workflows"]
    assert [run["verification"] for run in workflow["runs"]] == ["passed", "passed"]
    assert [run["exit_code"] for run in workflow["runs"]] == [7, 7]
    # Not a pass in the pass rate ...
    assert _counts(workflow) == (0, 0, 2, 0)
    assert workflow["pass_rate"] is None
    assert workflow["runs"][0]["why"]["id"] == "cleanup"
    assert result.exit_code == 7
    # ... nor a passing JUnit testcase ...
    root = ElementTree.fromstring(junit_xml(result).split("\n", 1)[1])
    cases = root.findall("testsuite/testcase")
    assert len(cases) == 2
    assert all(case.find("error") is not None for case in cases)
    error = cases[0].find("error")
    assert error is not None
    assert error.get("message", "").startswith("why: cleanup (resource_left)")
    # ... nor for assert_passed, of the suite or of one of its runs.
    with pytest.raises(AssertionError, match=r"why: cleanup \(resource_left\)"):
        assert_passed(result)
    run = result.runs[0].result
    assert run is not None
    with pytest.raises(AssertionError, match=r"^why: cleanup \(resource_left\)"):
        assert_passed(run)


def test_the_exit_order_is_130_7_9_8_0() -> None:
    lost = [
        RunOutcome(
            workflow="w", repetition=1, record=None, record_file=None, duration_ms=0
        )
    ]
    assert lost[0].verdict.status == "errored"
    assert suite_exit_code("cancelled", lost, [None], 1.0) == 130
    assert suite_exit_code("completed", lost, [None], 1.0) == 7
    assert suite_exit_code("completed", lost, [None], 1.0, max_errored=1) == 8
    assert suite_exit_code("completed", [], [Fraction(1)], 1.0) == 0
    assert suite_exit_code("completed", [], [Fraction(1, 2)], 0.5) == 0
    assert suite_exit_code("completed", [], [Fraction(2, 5)], 0.5) == 8


def _akit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "artemiskit_cli", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_cli_max_errored_reaches_the_suite(tmp_path: Path) -> None:
    suite = tmp_path / "s"
    write_member(suite, "errored", [SHORT_SCRIPT])
    write_member(suite, "passes", [PASSING_SCRIPT])
    strict = _akit("workflow", "run", str(suite), "--output-dir", str(tmp_path / "a"))
    assert strict.returncode == 7, strict.stderr
    tolerant = _akit(
        "workflow",
        "run",
        str(suite),
        "--output-dir",
        str(tmp_path / "b"),
        "--max-errored",
        "1",
    )
    # The errored workflow has no judged run: its pass rate is null, exit 8.
    assert tolerant.returncode == 8, tolerant.stderr
    summary = json.loads((tmp_path / "b" / "suite.json").read_text("utf-8"))
    assert summary["settings"]["max_errored"] == 1
    assert "errored: pass rate n/a (0/0), 1 errored, 0 unavailable" in tolerant.stderr
    assert "why: runtime_failure (script_exhausted) × 1" in tolerant.stderr
    refused = _akit(
        "workflow",
        "run",
        str(suite),
        "--output-dir",
        str(tmp_path / "c"),
        "--max-errored",
        "-1",
    )
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr


def test_every_view_shows_the_same_cause(tmp_path: Path) -> None:
    # Issue 31: for every run that did not pass, `verdict.why` names the first
    # decisive cause, and the single-run CLI, the suite summary, JUnit, the
    # suite's Markdown and `akit report` (Markdown and HTML) say the same words.
    suite = _mixed(tmp_path)
    out = tmp_path / "out"
    done = _akit(
        "workflow",
        "run",
        str(suite),
        "--output-dir",
        str(out),
        "--junit",
        str(tmp_path / "junit.xml"),
        "--markdown",
        str(tmp_path / "suite.md"),
    )
    assert done.returncode == 7, done.stderr
    reported = _akit(
        "report",
        str(out),
        "--markdown",
        str(tmp_path / "report.md"),
        "--html",
        str(tmp_path / "report.html"),
    )
    assert reported.returncode == 0, reported.stderr
    summary = load_suite_record(out / "suite.json")
    junit = ElementTree.parse(tmp_path / "junit.xml").getroot()
    # Both Markdown views backslash-escape punctuation (one escaping rule).
    suite_md = re.sub(r"\\(.)", r"\1", (tmp_path / "suite.md").read_text("utf-8"))
    report_md = re.sub(r"\\(.)", r"\1", (tmp_path / "report.md").read_text("utf-8"))
    page = (tmp_path / "report.html").read_text("utf-8")
    report_html = html.unescape(re.sub(r"<[^>]+>", "", page))
    shown = 0
    for workflow in summary["workflows"]:
        (run,) = workflow["runs"]
        if run["verdict"] == "passed":
            continue
        words = f"why: {cause_text(run['why'])}"
        single = _akit(
            "workflow", "run", str(suite / workflow["name"] / "workflow.yaml")
        )
        assert f"verdict: {run['verdict']}\n{words}\n" in single.stderr
        assert f"{words} × 1" in done.stderr
        (case,) = junit.findall(f"testsuite[@name='{workflow['name']}']/testcase")
        (problem,) = [e for e in case if e.tag in ("failure", "error")]
        assert problem.get("message", "").startswith(words)
        assert problem.tag == ("failure" if run["verdict"] == "failed" else "error")
        cause = cause_text(run["why"])
        assert f"| {workflow['name']} | {cause} |" in suite_md
        assert f"| 1 | {run['verdict']} | {cause} |" in report_md
        assert f"| {cause} |" in report_md
        assert html.escape(cause) in report_html  # the page's Causes, as text
        shown += 1
    assert shown == 5
