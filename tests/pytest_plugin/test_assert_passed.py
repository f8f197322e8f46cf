"""`assert_passed`: a run or a suite passes, or the message says why in metadata."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import attrs
import pytest

from artemiskit import ArtemisKit
from artemiskit.suites import RunLost
from artemiskit_pytest import assert_passed
from artemiskit_pytest._verdicts import suite_failure_text
from tests.pytest_plugin._projects import BAD, GOOD, SHORT, add_workflow, leaks

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit import WorkflowResult
    from artemiskit.suites import PlannedRun
    from artemiskit.suites._executor import Placement

ERRORED_RUN = [
    "  run 2: errored, why: runtime_failure (script_exhausted); execution "
    "runtime_failure (script_exhausted), verification unavailable, exit code 7",
    "    requirement answer-is-42: unavailable (execution_incomplete)",
    "    requirement wrote-once: unavailable (execution_incomplete)",
]
FAILED_RUN = [
    "  run 3: failed, why: answer-is-42 (missing_content); execution completed "
    "(all_turns_completed), verification failed, exit code 8",
    "    requirement answer-is-42: failed (missing_content)",
]


async def test_a_passed_run_and_suite_pass(tmp_path: Path) -> None:
    path = add_workflow(tmp_path / "good", "good", [GOOD])
    kit = ArtemisKit()
    assert_passed(await kit.run_workflow(workflow=path))
    assert_passed(await kit.run_suite(paths=[path], repeat=2))


async def test_a_failed_run_says_why_in_metadata(tmp_path: Path) -> None:
    path = add_workflow(tmp_path / "bad", "bad", [BAD])
    result = await ArtemisKit().run_workflow(workflow=path)
    with pytest.raises(AssertionError) as caught:
        assert_passed(result)
    message = str(caught.value)
    assert message.splitlines() == [
        "why: answer-is-42 (missing_content)",
        "workflow 'bad' did not pass: failed",
        "execution: completed (all_turns_completed)",
        "verification: failed",
        "exit code: 8",
        "requirement answer-is-42: failed (missing_content)",
    ]
    assert not leaks(message)


async def test_a_suite_below_its_pass_rate_says_which_runs(tmp_path: Path) -> None:
    add_workflow(tmp_path / "wf" / "flaky", "flaky", [GOOD, BAD])
    add_workflow(tmp_path / "wf" / "good", "good", [GOOD])
    kit = ArtemisKit()
    suite = await kit.run_suite(paths=[tmp_path / "wf"], repeat=2, min_pass_rate=0.9)
    with pytest.raises(AssertionError) as caught:
        assert_passed(suite)
    message = str(caught.value)
    assert message.splitlines() == [
        "why: answer-is-42 (missing_content) × 1",
        "suite completed (all_runs_finished), exit code 8",
        "workflow 'flaky': pass rate 50% (1/2), min pass rate 0.9",
        "  run 2: failed, why: answer-is-42 (missing_content); execution completed "
        "(all_turns_completed), verification failed, exit code 8",
        "    requirement answer-is-42: failed (missing_content)",
        "workflow 'good': pass rate 100% (2/2), min pass rate 0.9",
    ]
    assert not leaks(message)
    lenient = await kit.run_suite(paths=[tmp_path / "wf"], repeat=2, min_pass_rate=0.5)
    assert_passed(lenient)


async def test_a_stopped_run_fails_even_with_its_requirements_unjudged(
    tmp_path: Path,
) -> None:
    path = add_workflow(tmp_path / "short", "short", [GOOD])
    path.write_text(
        path.read_text("utf-8").replace("max_actions: 10", "max_actions: 1"), "utf-8"
    )
    result = await ArtemisKit().run_workflow(workflow=path)
    with pytest.raises(AssertionError) as caught:
        assert_passed(result)
    lines = str(caught.value).splitlines()
    # Stopped by its own conduct: a failure, never unavailable (SPEC 20).
    assert lines[:2] == [
        "why: budget_exhausted (max_actions)",
        "workflow 'short' did not pass: failed",
    ]
    assert lines[2] == "execution: budget_exhausted (max_actions)"
    assert lines[3:5] == ["verification: unavailable", "exit code: 5"]


async def test_tolerated_errored_runs_show_the_range_and_each_run(
    tmp_path: Path,
) -> None:
    # A pass, a run the scripted model leaves unfinished (errored, tolerated by
    # max_errored=1), a failure: the rate of the judged runs, then its range.
    add_workflow(tmp_path / "wf" / "mixed", "mixed", [GOOD, SHORT, BAD])
    suite = await ArtemisKit().run_suite(
        paths=[tmp_path / "wf"], repeat=3, max_errored=1
    )
    with pytest.raises(AssertionError) as caught:
        assert_passed(suite)
    message = str(caught.value)
    assert message.splitlines() == [
        "why: answer-is-42 (missing_content) × 1",
        "suite completed (all_runs_finished), exit code 8",
        "workflow 'mixed': pass rate 50% (1/2), 1 errored, 0 unavailable "
        "(range 33%–67%), min pass rate 1",
        *ERRORED_RUN,
        *FAILED_RUN,
    ]
    assert not leaks(message)
    # One workflow's part (the plugin's item text): no suite line, its exit code.
    assert suite_failure_text(suite, only="mixed").splitlines() == [
        "why: answer-is-42 (missing_content) × 1",
        "workflow 'mixed': pass rate 50% (1/2), 1 errored, 0 unavailable "
        "(range 33%–67%), min pass rate 1, exit code 8",
        *ERRORED_RUN,
        *FAILED_RUN,
    ]
    assert suite_failure_text(suite, only="other") == ""


async def test_the_lower_bound_gate_names_the_bound_or_its_absence(
    tmp_path: Path,
) -> None:
    add_workflow(tmp_path / "wf" / "mixed", "mixed", [GOOD, SHORT, BAD])
    add_workflow(tmp_path / "wf" / "down", "down", [SHORT])
    suite = await ArtemisKit().run_suite(
        paths=[tmp_path / "wf"],
        repeat=3,
        max_errored=4,
        gate="lower-bound",
        min_pass_rate=0.2,
    )
    with pytest.raises(AssertionError) as caught:
        assert_passed(suite)
    lines = str(caught.value).splitlines()
    assert (
        "workflow 'down': pass rate n/a (0/0), 3 errored, 0 unavailable "
        "(range 0%–100%), min pass rate 0.2 for the interval's lower bound (n/a)"
    ) in lines
    assert (
        "workflow 'mixed': pass rate 50% (1/2), 1 errored, 0 unavailable "
        "(range 33%–67%), min pass rate 0.2 for the interval's lower bound (9%)"
    ) in lines


@pytest.mark.parametrize(
    ("value", "name"),
    [(None, "NoneType"), (0, "int"), ("passed", "str"), ({"exit_code": 0}, "dict")],
)
def test_anything_else_is_a_type_error(value: object, name: str) -> None:
    with pytest.raises(TypeError) as caught:
        assert_passed(value)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"assert_passed takes a WorkflowResult or a SuiteResult, not {name}"
    )


async def test_a_run_whose_cause_was_never_recorded_says_so(tmp_path: Path) -> None:
    # A record from before schema version 4 has a verdict but no cause.
    path = add_workflow(tmp_path / "bad", "bad", [BAD])
    result = await ArtemisKit().run_workflow(workflow=path)
    record = result.record
    unrecorded = attrs.evolve(
        result,
        record=attrs.evolve(record, verdict=attrs.evolve(record.verdict, why=None)),
    )
    with pytest.raises(AssertionError) as caught:
        assert_passed(unrecorded)
    assert str(caught.value).splitlines()[:2] == [
        "why: not recorded",
        "workflow 'bad' did not pass: failed",
    ]


class _Losing:
    """Runs each planned run here, but loses the first repetition."""

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
        if planned.key.endswith("/1"):
            raise RunLost("node_died")
        return await planned.run_here()

    def cancel(self) -> None:
        return None

    async def close(self) -> None:
        return None


async def test_a_lost_run_is_errored_and_names_why_it_was_lost(tmp_path: Path) -> None:
    # Repetition 1 is lost; repetition 2 replays the wrong answer.
    add_workflow(tmp_path / "wf" / "flaky", "flaky", [GOOD, BAD])
    suite = await ArtemisKit().run_suite(
        paths=[tmp_path / "wf"], repeat=2, executor=_Losing()
    )
    with pytest.raises(AssertionError) as caught:
        assert_passed(suite)
    assert str(caught.value).splitlines() == [
        "why: answer-is-42 (missing_content) × 1",
        "suite completed (all_runs_finished), exit code 7",
        "workflow 'flaky': pass rate 0% (0/1), 1 errored, 0 unavailable "
        "(range 0%–50%), min pass rate 1",
        "  run 1: errored, why: run_lost (node_died); lost (node_died)",
        FAILED_RUN[0].replace("run 3", "run 2"),
        FAILED_RUN[1],
    ]


def test_the_failure_shows_the_callers_line_not_the_helpers(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "bad", "bad", [BAD])
    pytester.makepyfile(
        test_user="""
        import anyio
        from artemiskit import ArtemisKit
        from artemiskit_pytest import assert_passed

        def test_bad():
            kit = ArtemisKit()
            result = anyio.run(lambda: kit.run_workflow(workflow="bad/workflow.yaml"))
            assert_passed(result)
        """
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "test_user.py")
    result.assert_outcomes(failed=1)
    text = "\n".join(result.outlines)
    assert "assert_passed(result)" in text
    assert "E       AssertionError: why: answer-is-42 (missing_content)" in text
    # __tracebackhide__: pytest shows no frame of assert_passed itself.
    assert "raise AssertionError" not in text
