"""The CI summaries of ``akit run`` (``--summary json|text|security``).

The JSON object and the ``ARTEMISKIT_*=value`` lines of the TypeScript CLI, built
from the manifests of one invocation (a scenario that failed to load counts as a
failed scenario with no run id).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit.prompt_response._js import to_fixed
from artemiskit.prompt_response._manifest import RunManifest
from artemiskit.prompt_response._pricing import format_cost

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "BaselineCheck",
    "ScenarioOutcome",
    "ci_lines",
    "ci_summary",
    "format_duration",
    "security_summary",
]


@attrs.frozen(kw_only=True)
class ScenarioOutcome:
    """One scenario file of an invocation: its manifest, or why it did not run."""

    label: str
    manifest: RunManifest | None = None
    error: str | None = None

    @property
    def success(self) -> bool:
        """Whether it ran and every case passed."""
        return self.manifest is not None and self.manifest.success


@attrs.frozen(kw_only=True)
class BaselineCheck:
    """A run compared with its scenario's baseline."""

    scenario: str
    baseline_run_id: str
    run_id: str
    threshold: float
    success_rate_delta: float
    latency_delta: float
    tokens_delta: int

    @property
    def has_regression(self) -> bool:
        """Whether the success rate dropped by more than the threshold."""
        return self.success_rate_delta < -self.threshold


def format_duration(ms: float) -> str:
    """``850ms``, ``12.3s`` or ``2m 5s``, as the TypeScript CLI printed durations."""
    if ms < 1000:
        return f"{round(ms)}ms"
    if ms < 60000:
        return f"{to_fixed(ms / 1000, 1)}s"
    return f"{int(ms // 60000)}m {int(ms % 60000 // 1000)}s"


def _cost(manifest: RunManifest | None) -> float:
    if manifest is None or manifest.metrics.cost is None:
        return 0.0
    return manifest.metrics.cost.total_usd


def _unloaded(label: str) -> dict[str, Any]:
    return {
        "runId": "",
        "scenario": label,
        "success": False,
        "successRate": 0,
        "passedCases": 0,
        "failedCases": 0,
        "totalCases": 0,
        "durationMs": 0,
    }


def ci_summary(
    outcomes: Sequence[ScenarioOutcome], baseline: BaselineCheck | None = None
) -> dict[str, Any]:
    """The ``--summary json`` object."""
    manifests = [o.manifest for o in outcomes if o.manifest is not None]
    total = sum(m.metrics.total_cases for m in manifests)
    passed = sum(m.metrics.passed_cases for m in manifests)
    duration = sum(m.duration_ms for m in manifests)
    prompt = sum(m.metrics.total_prompt_tokens for m in manifests)
    completion = sum(m.metrics.total_completion_tokens for m in manifests)
    cost = sum(_cost(m) for m in manifests)
    runs = []
    for outcome in outcomes:
        manifest = outcome.manifest
        if manifest is None:
            runs.append(
                {
                    "runId": "",
                    "scenario": outcome.label,
                    "success": False,
                    "successRate": 0,
                    "passedCases": 0,
                    "failedCases": 0,
                    "totalCases": 0,
                    "durationMs": 0,
                }
            )
            continue
        run: dict[str, Any] = {
            "runId": manifest.run_id,
            "scenario": manifest.config.scenario,
            "success": manifest.success,
            "successRate": manifest.metrics.success_rate,
            "passedCases": manifest.metrics.passed_cases,
            "failedCases": manifest.metrics.failed_cases,
            "totalCases": manifest.metrics.total_cases,
            "durationMs": manifest.duration_ms,
        }
        if manifest.metrics.cost is not None:
            run["estimatedCostUsd"] = manifest.metrics.cost.total_usd
        runs.append(run)
    failed_scenarios = sum(1 for o in outcomes if not o.success)
    summary: dict[str, Any] = {
        "success": failed_scenarios == 0
        and not (baseline is not None and baseline.has_regression),
        "scenarios": {
            "total": len(outcomes),
            "passed": len(outcomes) - failed_scenarios,
            "failed": failed_scenarios,
        },
        "cases": {
            "total": total,
            "passed": passed,
            "failed": total - passed,
            "successRate": passed / total if total else 0,
        },
        "duration": {"totalMs": duration, "formatted": format_duration(duration)},
        "tokens": {
            "prompt": prompt,
            "completion": completion,
            "total": prompt + completion,
        },
        "cost": {"estimatedUsd": cost, "formatted": format_cost(cost)},
        "runs": runs,
    }
    if baseline is not None:
        summary["baseline"] = {
            "compared": True,
            "hasRegression": baseline.has_regression,
            "threshold": baseline.threshold,
            "delta": {
                "successRate": baseline.success_rate_delta,
                "latency": baseline.latency_delta,
                "tokens": baseline.tokens_delta,
            },
        }
    return summary


def ci_lines(
    outcomes: Sequence[ScenarioOutcome],
    baseline: BaselineCheck | None = None,
    budget: tuple[float, float] | None = None,
) -> list[str]:
    """The ``KEY=value`` lines of CI text mode.

    Args:
        outcomes: The scenarios of the invocation.
        baseline: The baseline comparison, if any.
        budget: ``(limit, cost)`` when the budget was exceeded.
    """
    data = ci_summary(outcomes, baseline)
    lines = [
        f"ARTEMISKIT_RESULT={'PASS' if data['success'] else 'FAIL'}",
        f"ARTEMISKIT_SCENARIOS_TOTAL={data['scenarios']['total']}",
        f"ARTEMISKIT_SCENARIOS_PASSED={data['scenarios']['passed']}",
        f"ARTEMISKIT_SCENARIOS_FAILED={data['scenarios']['failed']}",
        f"ARTEMISKIT_CASES_TOTAL={data['cases']['total']}",
        f"ARTEMISKIT_CASES_PASSED={data['cases']['passed']}",
        f"ARTEMISKIT_CASES_FAILED={data['cases']['failed']}",
        f"ARTEMISKIT_SUCCESS_RATE={to_fixed(data['cases']['successRate'] * 100, 1)}",
        f"ARTEMISKIT_DURATION_MS={data['duration']['totalMs']}",
        f"ARTEMISKIT_TOKENS_TOTAL={data['tokens']['total']}",
        f"ARTEMISKIT_COST_USD={to_fixed(data['cost']['estimatedUsd'], 4)}",
    ]
    if baseline is not None:
        lines += [
            "ARTEMISKIT_BASELINE_COMPARED=true",
            f"ARTEMISKIT_REGRESSION={'true' if baseline.has_regression else 'false'}",
            "ARTEMISKIT_DELTA_SUCCESS_RATE="
            + to_fixed(baseline.success_rate_delta * 100, 2),
        ]
    for outcome in outcomes:
        if outcome.manifest is not None:
            name = re.sub(r"[^A-Z0-9]", "_", outcome.manifest.config.scenario.upper())
            lines.append(f"ARTEMISKIT_RUN_ID_{name}={outcome.manifest.run_id}")
    if budget is not None:
        limit, cost = budget
        lines += [
            f"ARTEMISKIT_BUDGET_LIMIT={to_fixed(limit, 2)}",
            "ARTEMISKIT_BUDGET_EXCEEDED=true",
            f"ARTEMISKIT_BUDGET_OVER_BY={to_fixed(cost - limit, 4)}",
        ]
    return lines


def security_summary(outcomes: Sequence[ScenarioOutcome]) -> dict[str, Any]:
    """The ``--summary security`` object (every failed case in one risk bucket)."""
    data = ci_summary(outcomes)
    rate = data["cases"]["successRate"]
    risk = (
        "low"
        if rate >= 0.95
        else "medium"
        if rate >= 0.8
        else "high"
        if rate >= 0.5
        else "critical"
    )
    counts = {"critical": 0, "high": 0, "medium": 0, "low": 0}
    counts[risk] = data["cases"]["failed"]
    recommendations = []
    if data["cases"]["failed"]:
        recommendations.append(
            f"Review the {data['cases']['failed']} failed cases before deploying."
        )
    return {
        "overallRisk": risk,
        "successRate": rate,
        "vulnerabilities": counts,
        "recommendations": recommendations,
    }
