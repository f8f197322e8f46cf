"""Run metrics as the TypeScript runner computed them.

The median is the sorted value at ``n // 2`` (the upper median, not averaged) and
p95 the value at ``int(n * 0.95)``, both over every case (failed ones included);
``total_tokens`` is prompt + completion.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit.prompt_response._manifest import CostInfo, Metrics, PricingInfo
from artemiskit.prompt_response._pricing import estimate_cost

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.prompt_response._manifest import CaseResult

__all__ = ["compute_metrics"]


def compute_metrics(cases: Sequence[CaseResult], model: str | None) -> Metrics:
    """The ``metrics`` block of a run of ``cases``; cost when a model is known."""
    total = len(cases)
    passed = sum(1 for case in cases if case.ok)
    latencies = sorted(case.latency_ms for case in cases)
    prompt = sum(case.tokens.prompt for case in cases)
    completion = sum(case.tokens.completion for case in cases)
    cost = None
    if model and prompt + completion > 0:
        prompt_usd, completion_usd, pricing = estimate_cost(model, prompt, completion)
        cost = CostInfo(
            total_usd=prompt_usd + completion_usd,
            prompt_cost_usd=prompt_usd,
            completion_cost_usd=completion_usd,
            model=model,
            pricing=PricingInfo(
                prompt_per_1k=pricing.prompt_per_1k,
                completion_per_1k=pricing.completion_per_1k,
            ),
        )
    return Metrics(
        success_rate=passed / total if total else 0,
        total_cases=total,
        passed_cases=passed,
        failed_cases=total - passed,
        median_latency_ms=latencies[total // 2] if total else 0,
        p95_latency_ms=latencies[int(total * 0.95)] if total else 0,
        total_prompt_tokens=prompt,
        total_completion_tokens=completion,
        total_tokens=prompt + completion,
        cost=cost,
    )
