"""``contains`` and ``not_contains``: case-insensitive substrings, all or any."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "evaluate", "evaluate_absent"]

FIELDS = (
    Field(name="values", kind="strings", required=True),
    Field(name="mode", kind="choice", default="all", choices=("all", "any")),
)


def _present(response: str, values: list[str]) -> int:
    lowered = response.lower()
    return sum(1 for value in values if value.lower() in lowered)


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """``contains``: pass when all (or any) values occur in the response."""
    values, mode = expected["values"], expected.get("mode", "all")
    found = _present(response, values)
    passed = found == len(values) if mode == "all" else found > 0
    score = found / len(values) if values else 1
    if passed:
        return Evaluation(
            passed=True,
            score=score,
            reason=f"Found {found}/{len(values)} values (mode: {mode})",
        )
    return Evaluation(
        passed=False, score=score, reason=f"Missing required values (mode: {mode})"
    )


async def evaluate_absent(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """``not_contains``: pass when all (or any) values are absent."""
    values, mode = expected["values"], expected.get("mode", "all")
    absent = len(values) - _present(response, values)
    passed = absent == len(values) if mode == "all" else absent > 0
    score = absent / len(values) if values else 1
    if passed:
        reason = f"Correctly absent: {absent}/{len(values)} values (mode: {mode})"
        return Evaluation(passed=True, score=score, reason=reason)
    return Evaluation(
        passed=False, score=score, reason=f"Found forbidden values (mode: {mode})"
    )
