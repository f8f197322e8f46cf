"""The verdict texts of the pytest plugin for the cases real suites rarely give:
one workflow of a suite, lost runs, no pass rate, a verified run that did not end 0
(found untested by mutation testing)."""

from __future__ import annotations

import copy
from pathlib import Path

import attrs
import pytest

from artemiskit import ArtemisKit
from artemiskit.suites import SuiteResult
from artemiskit_pytest import assert_passed
from artemiskit_pytest._verdicts import run_passed, suite_failure_text
from tests.pytest_plugin._projects import BAD, GOOD, add_workflow


async def _suite(tmp_path: Path) -> SuiteResult:
    add_workflow(tmp_path / "wf" / "flaky", "flaky", [GOOD, BAD])
    add_workflow(tmp_path / "wf" / "good", "good", [GOOD])
    return await ArtemisKit().run_suite(paths=[tmp_path / "wf"], repeat=2)


async def test_the_text_for_one_workflow_names_only_it_with_the_exit_code(
    tmp_path: Path,
) -> None:
    suite = await _suite(tmp_path)
    assert suite_failure_text(suite, only="flaky").splitlines() == [
        "workflow 'flaky': pass rate 50% (1/2), min pass rate 1, exit code 8",
        "  run 2: execution completed (all_turns_completed), verification failed, "
        "exit code 8",
        "    requirement answer-is-42: failed (missing_content)",
    ]
    assert suite_failure_text(suite, only="good").splitlines() == [
        "workflow 'good': pass rate 100% (2/2), min pass rate 1, exit code 8",
    ]


async def test_lost_runs_no_pass_rate_and_a_verified_run_not_ending_0(
    tmp_path: Path,
) -> None:
    suite = await _suite(tmp_path)
    summary = copy.deepcopy(suite.summary)
    flaky, good = summary["workflows"]
    # Both good runs lost (one with a reason, one without), so no pass rate.
    for run, reason in zip(good["runs"], ["worker_died", None], strict=True):
        run.update(lost=True, lost_reason=reason, verification=None, exit_code=7)
    good.update(passed=0, failed=0, pass_rate=None)
    # flaky's first run was verified but its cleanup was unresolved.
    flaky["runs"][0].update(execution_reason="cleanup_unresolved", exit_code=7)
    edited = SuiteResult(summary=summary, runs=())
    assert suite_failure_text(edited).splitlines() == [
        "suite completed (all_runs_finished), exit code 8",
        "workflow 'flaky': pass rate 50% (1/2), min pass rate 1",
        "  run 1: execution completed (cleanup_unresolved), verification passed, "
        "exit code 7",
        "  run 2: execution completed (all_turns_completed), verification failed, "
        "exit code 8",
        "workflow 'good': pass rate n/a (0/0), min pass rate 1",
        "  run 1: lost (worker_died)",
        "  run 2: lost (no record returned)",
    ]


async def test_a_verified_run_that_did_not_end_0_did_not_pass(tmp_path: Path) -> None:
    path = add_workflow(tmp_path / "good", "good", [GOOD])
    result = await ArtemisKit().run_workflow(workflow=path)
    assert run_passed(result)
    unresolved = attrs.evolve(result, record=attrs.evolve(result.record, exit_code=7))
    assert not run_passed(unresolved)
    with pytest.raises(AssertionError):
        assert_passed(unresolved)


def test_anything_else_is_named_in_the_type_error() -> None:
    with pytest.raises(TypeError) as caught:
        assert_passed(None)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "assert_passed takes a WorkflowResult or a SuiteResult, not NoneType"
    )
