"""``exact``: the trimmed response equals the value (case-sensitive by default)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "evaluate"]

FIELDS = (
    Field(name="value", kind="str", required=True),
    Field(name="caseSensitive", kind="bool", default=True),
)


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Compare the trimmed response with the trimmed value."""
    value = expected["value"]
    got, want = response.strip(), value.strip()
    if not expected.get("caseSensitive", True):
        got, want = got.lower(), want.lower()
    if got == want:
        return Evaluation(passed=True, score=1, reason="Exact match")
    shown = response[:100] + ("..." if len(response) > 100 else "")
    return Evaluation(
        passed=False, score=0, reason=f'Expected "{value}", got "{shown}"'
    )
