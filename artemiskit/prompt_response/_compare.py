"""Comparing two runs: metric deltas and the per-case comparison.

``compare_runs`` gives the data the TypeScript ``buildComparisonData`` produced:
metric deltas, each case matched by id as ``regressed`` (pass → fail),
``improved``, ``new``, ``removed`` or ``unchanged`` (listed in that order), and a
summary. A regression of the run is a success-rate drop larger than the threshold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit.prompt_response._summary import BaselineCheck

if TYPE_CHECKING:
    from artemiskit.prompt_response._manifest import CaseResult, RunManifest

__all__ = ["baseline_check", "compare_runs"]

_ORDER = {"regressed": 0, "improved": 1, "new": 2, "removed": 3, "unchanged": 4}


def baseline_check(
    baseline: RunManifest, current: RunManifest, threshold: float
) -> BaselineCheck:
    """The deltas of ``current`` against ``baseline`` and whether it regressed."""
    return BaselineCheck(
        scenario=current.config.scenario,
        baseline_run_id=baseline.run_id,
        run_id=current.run_id,
        threshold=threshold,
        success_rate_delta=current.metrics.success_rate - baseline.metrics.success_rate,
        latency_delta=current.metrics.median_latency_ms
        - baseline.metrics.median_latency_ms,
        tokens_delta=current.metrics.total_tokens - baseline.metrics.total_tokens,
    )


def _case(case: CaseResult | None) -> dict[str, Any] | None:
    if case is None:
        return None
    return {
        "ok": case.ok,
        "score": case.score,
        "matcherType": case.matcher_type,
        "latencyMs": case.latency_ms,
        "reason": case.reason,
    }


def compare_runs(baseline: RunManifest, current: RunManifest) -> dict[str, Any]:
    """The comparison data of two runs (metadata of cases, no prompts or responses)."""
    before = {case.id: case for case in baseline.cases}
    after = {case.id: case for case in current.cases}
    rows: list[dict[str, Any]] = []
    for case_id in [*before, *(i for i in after if i not in before)]:
        old, new = before.get(case_id), after.get(case_id)
        if old is None:
            change = "new"
        elif new is None:
            change = "removed"
        elif old.ok and not new.ok:
            change = "regressed"
        elif new.ok and not old.ok:
            change = "improved"
        else:
            change = "unchanged"
        both = old is not None and new is not None
        rows.append(
            {
                "caseId": case_id,
                "changeType": change,
                "baseline": _case(old),
                "current": _case(new),
                "scoreDelta": new.score - old.score if both and new and old else 0,
                "latencyDelta": new.latency_ms - old.latency_ms
                if both and new and old
                else 0,
            }
        )
    rows.sort(key=lambda row: _ORDER[row["changeType"]])
    counts = {kind: sum(1 for r in rows if r["changeType"] == kind) for kind in _ORDER}
    return {
        "baseline": {"runId": baseline.run_id, "scenario": baseline.config.scenario},
        "current": {"runId": current.run_id, "scenario": current.config.scenario},
        "metrics": {
            "successRateDelta": current.metrics.success_rate
            - baseline.metrics.success_rate,
            "medianLatencyDelta": current.metrics.median_latency_ms
            - baseline.metrics.median_latency_ms,
            "totalTokensDelta": current.metrics.total_tokens
            - baseline.metrics.total_tokens,
        },
        "caseComparisons": rows,
        "summary": {
            "totalRegressions": counts["regressed"],
            "totalImprovements": counts["improved"],
            "totalUnchanged": counts["unchanged"],
            "casesRemoved": counts["removed"],
            "casesAdded": counts["new"],
        },
    }
