"""Several suites in one report: each workflow from its own suite, totals summed.

The pytest plugin writes one suite per workflow (``evidence/<workflow>/suite.json``),
so ``akit report evidence/*/suite.json`` shows them together. Each workflow keeps
its own suite's numbers; the totals add up; the report lists the suites with their
status and exit code. A workflow name in two of them is refused: its numbers
would mix two suites (``akit report compare`` compares two suites).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit._errors import Problem, WorkflowError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["SuiteSource", "merge_suites"]

SuiteSource = dict[str, Any]
"""One suite of a merged report: ``suite_id``, ``status``, ``reason``,
``exit_code`` and ``workflows`` (their names); never its path."""

_SUMMED = (
    "runs_planned",
    "runs_finished",
    "runs_not_started",
    "runs_lost",
    "passed",
    "failed",
    "errored",
    "unavailable",
    "model_requests",
    "tool_calls",
    "duration_ms",
)


def _usage(measurements: set[str]) -> str:
    if len(measurements) == 1:
        return next(iter(measurements))
    return "partial"


def _totals(suites: Sequence[dict[str, Any]]) -> dict[str, Any]:
    all_totals = [suite["totals"] for suite in suites]
    totals: dict[str, Any] = {key: sum(t[key] for t in all_totals) for key in _SUMMED}
    measured = all(t["input_tokens"] is not None for t in all_totals)
    for key in ("input_tokens", "output_tokens"):
        totals[key] = sum(t[key] for t in all_totals) if measured else None
    totals["usage_measurement"] = _usage({t["usage_measurement"] for t in all_totals})
    return totals


def merge_suites(
    suites: Sequence[tuple[str, dict[str, Any]]],
) -> tuple[dict[str, Any], tuple[SuiteSource, ...]]:
    """One suite-shaped view of several suites, and the list of those suites.

    Returns:
        The merged view (``suite_id``, ``status``, ``reason``, ``settings`` and
        ``exit_code`` are ``None``: they belong to each suite) and the sources.

    Raises:
        WorkflowError: Two suites hold a workflow of the same name
            (``workflow_in_two_suites``, exit 2).
    """
    seen: dict[str, str] = {}
    for path, suite in suites:
        for workflow in suite["workflows"]:
            name = workflow["name"]
            if name in seen:
                raise WorkflowError(
                    "several suites make one report only when their workflows "
                    "differ; compare two suites with `akit report compare`",
                    [
                        Problem(
                            message=f"workflow {name!r} is also in {seen[name]}",
                            source=path,
                        )
                    ],
                    reason="workflow_in_two_suites",
                )
            seen[name] = path
    finished = [suite["finished_at"] for _, suite in suites]
    merged = {
        "suite_id": None,
        "started_at": min(suite["started_at"] for _, suite in suites),
        "finished_at": None if None in finished else max(finished),
        "status": None,
        "reason": None,
        "settings": None,
        "totals": _totals([suite for _, suite in suites]),
        "exit_code": None,
        "workflows": [w for _, suite in suites for w in suite["workflows"]],
    }
    sources = tuple(
        {
            "suite_id": suite["suite_id"],
            "status": suite["status"],
            "reason": suite["reason"],
            "exit_code": suite["exit_code"],
            "workflows": [w["name"] for w in suite["workflows"]],
        }
        for _, suite in suites
    )
    return merged, sources
