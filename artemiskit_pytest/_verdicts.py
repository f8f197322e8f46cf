"""Verdicts and their failure text: statuses, reason codes and ids only.

A failure message never holds a prompt, model text, tool arguments, file
contents, paths or secrets: it is built from the metadata-only record and
suite summary alone, so it is safe in a terminal, a CI log or a JUnit file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from artemiskit import WorkflowResult
    from artemiskit.records import Cause, SuiteWorkflowInfo
    from artemiskit.suites import SuiteResult

__all__ = ["assert_passed", "run_passed", "suite_failure_text", "workflow_failure_text"]


def run_passed(result: WorkflowResult) -> bool:
    """A run passed: its verdict is ``passed`` (verified, and it ended cleanly)."""
    return result.record.verdict.status == "passed"


def _why(cause: Cause | None) -> str:
    return f"why: {'not recorded' if cause is None else cause.text}"


def _requirement_lines(result: WorkflowResult | None) -> list[str]:
    if result is None:
        return []
    return [
        f"requirement {requirement.id}: {requirement.status} ({requirement.reason})"
        for requirement in result.record.task_verification.requirements
        if requirement.status != "passed"
    ]


def workflow_failure_text(result: WorkflowResult) -> str:
    """Why one run did not pass, metadata only."""
    record = result.record
    return "\n".join(
        [
            _why(record.verdict.why),
            f"workflow {record.workflow.name!r} did not pass: {record.verdict.status}",
            f"execution: {record.execution.status} ({record.execution.reason})",
            f"verification: {record.task_verification.status}",
            f"exit code: {record.exit_code}",
            *_requirement_lines(result),
        ]
    )


def _pass_rate(workflow: SuiteWorkflowInfo) -> str:
    judged = workflow.passed + workflow.failed
    rate = workflow.pass_rate
    shown = "n/a" if rate is None else f"{rate:.0%}"
    text = f"pass rate {shown} ({workflow.passed}/{judged})"
    spread = workflow.pass_rate_range
    if spread is not None and (workflow.errored or workflow.unavailable):
        text += (
            f", {workflow.errored} errored, {workflow.unavailable} unavailable "
            f"(range {spread.low:.0%}–{spread.high:.0%})"
        )
    return text


def suite_failure_text(result: SuiteResult, *, only: str | None = None) -> str:
    """Why a suite (or its workflow ``only``) did not pass, metadata only.

    Starts with the most frequent cause of each workflow (``why: <id or
    reason> (<reason code>) × runs``), then lists, per workflow, its pass rate
    against the threshold and each run that did not pass: verdict, cause,
    execution status and reason, verification, exit code and each failed
    requirement with its reason.
    """
    summary = result.record
    threshold = summary.settings.min_pass_rate
    results = {(run.workflow, run.repetition): run.result for run in result.runs}
    workflows = [w for w in summary.workflows if only is None or w.name == only]
    lines = [
        f"why: {cause.text} × {cause.runs}"
        for workflow in workflows
        for cause in workflow.causes[:1]
    ]
    if only is None:
        lines.append(
            f"suite {summary.status} ({summary.reason}), exit code {summary.exit_code}"
        )
    for workflow in workflows:
        name = workflow.name
        head = f"workflow {name!r}: {_pass_rate(workflow)}, min pass rate {threshold:g}"
        if summary.settings.gate == "lower-bound":
            interval = workflow.pass_rate_interval
            low = "n/a" if interval is None else f"{interval.low:.0%}"
            head += f" for the interval's lower bound ({low})"
        if only is not None:
            head += f", exit code {summary.exit_code}"
        lines.append(head)
        for run in workflow.runs:
            if run.verdict == "passed":
                continue
            if run.lost:
                reason = run.lost_reason or "no record returned"
                lines.append(
                    f"  run {run.repetition}: errored, {_why(run.why)}; lost ({reason})"
                )
                continue
            lines.append(
                f"  run {run.repetition}: {run.verdict}, {_why(run.why)}; "
                f"execution {run.execution_status} ({run.execution_reason}), "
                f"verification {run.verification}, exit code {run.exit_code}"
            )
            lines += [
                f"    {line}"
                for line in _requirement_lines(results.get((name, run.repetition)))
            ]
    return "\n".join(lines)


def assert_passed(result_or_suite: WorkflowResult | SuiteResult) -> None:
    """Fail the test unless the run or the suite passed.

    A run passes when its verdict is ``passed`` (SPEC 20: verified, and it
    ended cleanly, so a verified run whose cleanup stayed unresolved does not);
    a suite when its exit code is 0 (every pass rate at or above the threshold,
    nothing errored beyond the tolerance, lost or unavailable). The message
    starts with the cause: ``why: <id or reason> (<reason code>)``.

    Args:
        result_or_suite: A `WorkflowResult` (``await kit.run_workflow(...)``) or
            a `SuiteResult` (``await kit.run_suite(...)``).

    Raises:
        AssertionError: It did not pass. The message lists statuses, reason
            codes, exit codes and requirement ids only: never prompts, model
            text, tool arguments, file contents, paths or secrets.
        TypeError: ``result_or_suite`` is neither.
    """
    __tracebackhide__ = True
    from artemiskit import WorkflowResult
    from artemiskit.suites import SuiteResult

    if isinstance(result_or_suite, WorkflowResult):
        if not run_passed(result_or_suite):
            raise AssertionError(workflow_failure_text(result_or_suite))
        return
    if isinstance(result_or_suite, SuiteResult):
        from artemiskit import ExitCode

        if result_or_suite.exit_code != ExitCode.OK:
            raise AssertionError(suite_failure_text(result_or_suite))
        return
    raise TypeError(
        "assert_passed takes a WorkflowResult or a SuiteResult, not "
        f"{type(result_or_suite).__name__}"
    )
