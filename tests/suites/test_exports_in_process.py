"""The CI exports of a suite, in process: the JUnit XML and the Markdown summary.

The CLI tests check these files through `akit` (a child process); these call the
exporters directly, so that mutation testing checks them too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

import pytest

from artemiskit import ArtemisKit
from artemiskit.suites import RunLost, SuiteResult, junit_xml, markdown_summary
from tests._builders import PASSING_SCRIPT
from tests.suites._suites import FAILING_SCRIPT, write_member, write_suite
from tests.suites.test_dataset_suites import suite_folder

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit import WorkflowResult
    from artemiskit.suites import PlannedRun
    from artemiskit.suites._executor import Placement

pytestmark = pytest.mark.anyio

JUDGED = [
    {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
    {"id": "tone", "judge": {"rubric": "Neutral.", "threshold": 0.7}},
]


async def _suite(tmp_path: Path) -> SuiteResult:
    """steady passes, flaky fails its second run, judged is unavailable; the
    third repetition never starts (one run at a time, in the order flaky,
    judged, steady, 45 tokens a run but 30 for flaky's second: the suite budget
    is reached by the sixth)."""
    suite = write_suite(tmp_path)
    write_member(suite, "judged", [PASSING_SCRIPT], outcomes=JUDGED)
    result = await ArtemisKit().run_suite(
        paths=[suite], repeat=3, concurrency=1, max_suite_tokens=250
    )
    assert result.summary["totals"]["runs_not_started"] == 3
    return result


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}"


def _runs(result: SuiteResult) -> dict[tuple[str, int], dict[str, Any]]:
    return {
        (workflow["name"], run["repetition"]): run
        for workflow in result.summary["workflows"]
        for run in workflow["runs"]
    }


async def test_junit_has_a_testsuite_per_workflow_and_a_testcase_per_run(
    tmp_path: Path,
) -> None:
    result = await _suite(tmp_path)
    text = junit_xml(result)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')
    assert text.endswith("</testsuites>\n")
    root = ElementTree.fromstring(text.split("\n", 1)[1])
    runs = _runs(result)
    assert root.tag == "testsuites"
    assert root.get("name") == "artemiskit suite"
    assert root.get("skipped") is None
    assert root.get("time") == _seconds(result.summary["totals"]["duration_ms"])
    suites = {suite.get("name", ""): suite for suite in root}
    assert list(suites) == [w["name"] for w in result.summary["workflows"]]
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for name, suite in suites.items():
        cases = list(suite)
        assert [case.get("name") for case in cases] == [
            f"{name} #{r:03d}" for r in (1, 2, 3)
        ]
        assert {case.get("classname") for case in cases} == {name}
        kinds = [[child.tag for child in case] for case in cases]
        counts = {
            "tests": 3,
            "failures": sum(k == ["failure"] for k in kinds),
            "errors": sum(k == ["error"] for k in kinds),
            "skipped": sum(k == ["skipped"] for k in kinds),
        }
        assert {key: suite.get(key) for key in counts} == {
            key: str(value) for key, value in counts.items()
        }
        for key in totals:
            totals[key] += counts[key]
        durations = 0
        for repetition, case in enumerate(cases, start=1):
            run = runs.get((name, repetition))
            if run is None:
                assert case.get("time") == "0.000"
                (skipped,) = case
                assert (skipped.tag, skipped.get("message")) == (
                    "skipped",
                    "not started",
                )
                continue
            durations += run["duration_ms"]
            assert case.get("time") == _seconds(run["duration_ms"])
        assert suite.get("time") == _seconds(durations)
    assert {key: root.get(key) for key in totals} == {
        key: str(value) for key, value in totals.items()
    }
    # What each kind of run becomes (the texts are checked with the verdicts).
    assert list(suites["steady"][0]) == []
    assert [child.tag for child in suites["flaky"][1]] == ["failure"]
    assert [child.tag for child in suites["judged"][0]] == ["error"]


async def test_markdown_without_failures_has_no_reason_table(tmp_path: Path) -> None:
    write_member(tmp_path / "suite", "steady", [PASSING_SCRIPT])
    result = await ArtemisKit().run_suite(paths=[tmp_path / "suite"])
    text = markdown_summary(result.summary)
    assert "failure reason" not in text
    assert text.endswith(" |\n")


async def test_markdown_gives_totals_rates_ranges_and_causes(tmp_path: Path) -> None:
    result = await _suite(tmp_path)
    seconds = _seconds(result.summary["totals"]["duration_ms"])
    assert markdown_summary(result.summary).splitlines() == [
        "# ArtemisKit suite",
        "",
        "Status: **budget\\_exhausted** (max\\_suite\\_tokens\\_reached), exit code 9.",
        "",
        "| runs planned | finished | not started | lost | passed | failed | errored "
        "| unavailable | tokens | duration (s) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| 9 | 6 | 3 | 0 | 3 | 1 | 0 | 2 | 255 | {seconds} |",
        "",
        "| workflow | passed | failed | errored | unavailable | pass rate "
        "| 95% interval | range if errored/unavailable | pass^k (all runs) |",
        "|---|---:|---:|---:|---:|---:|---|---|---:|",
        "| flaky | 1 | 1 | 0 | 0 | 0.500 | 0.095–0.905 | – | 0.000 |",
        "| judged | 0 | 0 | 0 | 2 | n/a | n/a | 0.000–1.000 | n/a |",
        "| steady | 2 | 0 | 0 | 0 | 1.000 | 0.342–1.000 | – | 1.000 |",
        "",
        "| workflow | why | kind | runs |",
        "|---|---|---|---:|",
        "| flaky | summary \\(missing\\_content\\) | requirement | 1 |",
        "| judged | tone \\(judge\\_not\\_configured\\) | requirement | 2 |",
    ]


async def test_junit_failure_and_error_texts_are_metadata(tmp_path: Path) -> None:
    result = await _suite(tmp_path)
    root = ElementTree.fromstring(junit_xml(result).split("\n", 1)[1])
    failure = root.find("./testsuite[@name='flaky']/testcase[2]/failure")
    assert failure is not None
    assert failure.attrib == {
        "message": "why: summary (missing_content); failed",
        "type": "missing_content",
    }
    assert failure.text == (
        "why: summary (missing_content)\nverdict: failed\n"
        "execution: completed (all_turns_completed)\nverification: failed\n"
        "exit code: 8\nrequirement summary: missing_content"
    )
    errors = root.findall("./testsuite[@name='judged']/testcase/error")
    assert len(errors) == 2
    for error in errors:
        assert error.attrib == {
            "message": "why: tone (judge_not_configured); unavailable",
            "type": "judge_not_configured",
        }
        assert error.text == (
            "why: tone (judge_not_configured)\nverdict: unavailable\n"
            "execution: completed (all_turns_completed)\nverification: unavailable\n"
            "exit code: 9\nrequirement tone: judge_not_configured"
        )
    skipped = root.findall("./testsuite/testcase/skipped")
    assert [s.attrib for s in skipped] == [{"message": "not started"}] * 3
    assert [c.get("name") for c in root.iter("testcase")][:3] == [
        "flaky #001",
        "flaky #002",
        "flaky #003",
    ]
    assert root.get("name") == "artemiskit suite"
    assert "skipped" not in root.attrib


def _junit(result: SuiteResult) -> ElementTree.Element:
    return ElementTree.fromstring(junit_xml(result).split("\n", 1)[1])


async def test_junit_names_each_case_and_skips_the_runs_never_started(
    tmp_path: Path,
) -> None:
    # Two cases, two repetitions, one run at a time (repetition by repetition):
    # the suite budget stops it after each case's first run.
    path = suite_folder(tmp_path, cases=2)
    result = await ArtemisKit().run_suite(
        paths=[path], repeat=2, concurrency=1, max_suite_tokens=60
    )
    suite = _junit(result).find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("skipped"), suite.get("failures")) == (
        "4",
        "2",
        "1",
    )
    cases = [(case.get("name"), [child.tag for child in case]) for case in suite]
    assert cases == [
        ("triage[c-1] #001", []),
        ("triage[c-1] #002", ["skipped"]),
        ("triage[c-2] #001", ["failure"]),
        ("triage[c-2] #002", ["skipped"]),
    ]
    failure = suite.find("./testcase[3]/failure")
    assert failure is not None
    assert failure.text is not None
    assert failure.text.endswith("exit code: 8\nrequirement queue: content_differs")


class _Losing:
    """Runs each planned run here, but loses flaky's first repetition."""

    @property
    def name(self) -> str:
        return "losing"

    @property
    def placement(self) -> Placement:
        return "in_process"

    def slots(self, concurrency: int) -> int:
        return 1

    async def start(self, runs: Sequence[PlannedRun]) -> None:
        return None

    async def run(self, planned: PlannedRun) -> WorkflowResult:
        if "/flaky/" in f"/{planned.key}" and planned.key.endswith("/1"):
            raise RunLost("node_died")
        return await planned.run_here()

    def cancel(self) -> None:
        return None

    async def close(self) -> None:
        return None


async def test_junit_reports_a_lost_run_as_an_error_and_keeps_later_texts(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "flaky", [PASSING_SCRIPT, FAILING_SCRIPT])
    result = await ArtemisKit().run_suite(paths=[suite], repeat=2, executor=_Losing())
    flaky = _junit(result).find("./testsuite[@name='flaky']")
    assert flaky is not None
    lost = flaky.find("./testcase[1]/error")
    assert lost is not None
    assert lost.attrib == {
        "message": "why: run_lost (node_died); errored",
        "type": "node_died",
    }
    assert lost.text == (
        "why: run_lost (node_died)\nthe run was lost: no record was returned"
    )
    # The run after the lost one still names its failed requirement.
    failure = flaky.find("./testcase[2]/failure")
    assert failure is not None
    assert failure.text is not None
    assert failure.text.endswith("requirement summary: missing_content")


async def test_markdown_says_when_tokens_were_not_measured(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "quiet", [[{"text": "Done."}]])
    result = await ArtemisKit().run_suite(paths=[suite])
    assert result.summary["totals"]["input_tokens"] is None
    table = markdown_summary(result.summary).splitlines()[6]
    assert table.split(" | ")[8] == "unmeasured"
    # Durations are shown in seconds with three decimals.
    totals = {**result.summary["totals"], "duration_ms": 123_456}
    table = markdown_summary({**result.summary, "totals": totals}).splitlines()[6]
    assert table.endswith(" | unmeasured | 123.456 |")
