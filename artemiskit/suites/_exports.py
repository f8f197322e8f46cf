"""Exports for CI: JUnit XML and a Markdown summary, metadata only.

Every string from a workflow or a record goes through the one escaping of its
format (`artemiskit._common._escaping`): `xml_text` for JUnit (control characters
shown as escapes, so the XML is well-formed), `markdown_text` for Markdown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

from artemiskit._common._escaping import markdown_text, xml_text
from artemiskit.records import SuiteRecord
from artemiskit.suites._suite_file import suite_record_from_dict

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.records import SuiteRunInfo, SuiteWorkflowInfo
    from artemiskit.suites._runner import SuiteResult

__all__ = ["junit_xml", "markdown_summary"]


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}"


def _why(run: SuiteRunInfo) -> str:
    return f"why: {'not recorded' if run.why is None else run.why.text}"


def _reason(run: SuiteRunInfo) -> str:
    """The reason code of a run's cause (its execution reason if unrecorded)."""
    if run.why is not None:
        return run.why.reason
    return str(run.execution_reason or run.lost_reason)


def _failure_text(run: SuiteRunInfo, requirements: list[tuple[str, str]]) -> str:
    if run.lost:
        return f"{_why(run)}\nthe run was lost: no record was returned"
    lines = [
        _why(run),
        f"verdict: {run.verdict}",
        f"execution: {run.execution_status} ({run.execution_reason})",
        f"verification: {run.verification}",
        f"exit code: {run.exit_code}",
    ]
    lines += [f"requirement {rid}: {reason}" for rid, reason in requirements]
    return "\n".join(lines)


def junit_xml(result: SuiteResult) -> str:
    """The suite as JUnit XML: one testsuite per workflow, one testcase per run.

    A failed run is a ``failure``; an errored run (a lost one included) or an
    unavailable one an ``error``; a planned run that never started is
    ``skipped``. The message starts with the run's cause (``why: <id or
    reason> (<reason code>)``); messages hold statuses, reason codes and
    requirement ids only.
    """
    summary = result.record
    failed_requirements: dict[
        tuple[str, str | None, str | None, int], list[tuple[str, str]]
    ] = {}
    for finished in result.runs:
        if finished.result is None:
            continue
        at = (finished.workflow, finished.case, finished.target, finished.repetition)
        failed_requirements[at] = [
            (r.id, r.reason)
            for r in finished.result.record.task_verification.requirements
            if r.status != "passed"
        ]
    root = ElementTree.Element("testsuites", name="artemiskit suite")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    repeat = summary.settings.repeat
    units_of: dict[str, list[tuple[str | None, str]]] = {}
    for unit in summary.units:
        units_of.setdefault(unit.workflow, []).append((unit.case, unit.target))
    for workflow in summary.workflows:
        name = workflow.name
        # A workflow on several targets names each run's target (SPEC 19).
        several = workflow.target is None
        runs = {(run.case, run.target, run.repetition): run for run in workflow.runs}
        shown = xml_text(name)
        suite = ElementTree.SubElement(root, "testsuite", name=shown)
        planned = [
            (unit_case, target if several else None, repetition)
            for unit_case, target in units_of.get(name, [(None, "")])
            for repetition in range(1, repeat + 1)
        ]
        counts = {"tests": len(planned), "failures": 0, "errors": 0, "skipped": 0}
        duration = 0
        for unit_case, unit_target, repetition in planned:
            label = shown if unit_case is None else f"{shown}[{xml_text(unit_case)}]"
            if unit_target is not None:
                label += f"[{xml_text(unit_target)}]"
            case = ElementTree.SubElement(
                suite, "testcase", name=f"{label} #{repetition:03d}", classname=shown
            )
            run = runs.get((unit_case, unit_target, repetition))
            if run is None:
                case.set("time", "0.000")
                ElementTree.SubElement(case, "skipped", message="not started")
                counts["skipped"] += 1
                continue
            duration += run.duration_ms
            case.set("time", _seconds(run.duration_ms))
            verdict = run.verdict
            if verdict != "passed":
                requirements = failed_requirements.get(
                    (name, unit_case, run.target or _own(summary, name), repetition),
                    [],
                )
                text = _failure_text(run, requirements)
                kind, counter = (
                    ("failure", "failures")
                    if verdict == "failed"
                    else ("error", "errors")
                )
                message = f"{_why(run)}; {verdict}"
                element = ElementTree.SubElement(
                    case,
                    kind,
                    message=xml_text(message),
                    type=xml_text(_reason(run)),
                )
                element.text = xml_text(text)
                counts[counter] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", _seconds(duration))
    # The Jenkins schema CI tools validate against has no `skipped` on the root.
    for key in ("tests", "failures", "errors"):
        root.set(key, str(totals[key]))
    root.set("time", _seconds(summary.totals.duration_ms))
    ElementTree.indent(root)
    body = ElementTree.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"


def _own(summary: SuiteRecord, workflow: str) -> str | None:
    """The target of a workflow's runs when it ran on one (its units say)."""
    for unit in summary.units:
        if unit.workflow == workflow:
            return unit.target
    return None


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def markdown_summary(summary: SuiteRecord | Mapping[str, Any]) -> str:
    """Summary tables of a suite record, for a CI job summary.

    Args:
        summary: The suite record, typed or as plain data (``suite.json``'s
            content, read through `artemiskit.suites.suite_record_from_dict`).

    Raises:
        WorkflowError: Plain data that is not a valid suite record (exit 2).
    """
    if not isinstance(summary, SuiteRecord):
        summary = suite_record_from_dict(summary)
    totals = summary.totals
    tokens = (
        "unmeasured"
        if totals.input_tokens is None or totals.output_tokens is None
        else f"{totals.input_tokens + totals.output_tokens}"
    )
    lines = [
        "# ArtemisKit suite",
        "",
        f"Status: **{markdown_text(summary.status)}** "
        f"({markdown_text(summary.reason)}), "
        f"exit code {summary.exit_code}.",
        "",
        "| runs planned | finished | not started | lost | passed | failed "
        "| errored | unavailable | tokens | duration (s) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {totals.runs_planned} | {totals.runs_finished} "
        f"| {totals.runs_not_started} | {totals.runs_lost} "
        f"| {totals.passed} | {totals.failed} | {totals.errored} "
        f"| {totals.unavailable} | {tokens} | {_seconds(totals.duration_ms)} |",
        "",
        "| workflow | passed | failed | errored | unavailable | pass rate "
        "| 95% interval | range if errored/unavailable | pass^k (all runs) |",
        "|---|---:|---:|---:|---:|---:|---|---|---:|",
    ]
    for workflow in summary.workflows:
        interval = workflow.pass_rate_interval
        shown = "n/a" if interval is None else f"{interval.low:.3f}–{interval.high:.3f}"
        hat = workflow.pass_hat_k
        last = _rate(hat[str(len(hat))]) if hat else "n/a"
        lines.append(
            f"| {markdown_text(workflow.name)} | {workflow.passed} "
            f"| {workflow.failed} | {workflow.errored} "
            f"| {workflow.unavailable} | {_rate(workflow.pass_rate)} "
            f"| {shown} | {_range(workflow)} | {last} |"
        )
    causes = [
        (workflow.name, cause)
        for workflow in summary.workflows
        for cause in workflow.causes
    ]
    if causes:
        lines += ["", "| workflow | why | kind | runs |", "|---|---|---|---:|"]
        lines += [
            f"| {markdown_text(name)} | {markdown_text(cause.text)} "
            f"| {cause.kind} | {cause.runs} |"
            for name, cause in causes
        ]
    return "\n".join(lines) + "\n"


def _range(workflow: SuiteWorkflowInfo) -> str:
    """The pass-rate range when errored or unavailable runs leave it open."""
    spread = workflow.pass_rate_range
    if spread is None or not (workflow.errored or workflow.unavailable):
        return "–"
    return f"{spread.low:.3f}–{spread.high:.3f}"
