"""``fuzzy``: Levenshtein similarity of the whole trimmed, lowercased strings.

Lengths and distances count UTF-16 code units, as the TypeScript version did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit.prompt_response._js import to_fixed
from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "evaluate", "levenshtein", "similarity"]

FIELDS = (
    Field(name="value", kind="str", required=True),
    Field(name="threshold", kind="unit", default=0.8),
)


def _units(text: str) -> list[int]:
    raw = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(raw[i : i + 2], "little") for i in range(0, len(raw), 2)]


def levenshtein(a: Sequence[int] | str, b: Sequence[int] | str) -> int:
    """The edit distance of ``a`` and ``b`` with unit costs."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, left in enumerate(a, 1):
        current = [i]
        for j, right in enumerate(b, 1):
            cost = 0 if left == right else 1
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            )
        previous = current
    return previous[-1]


def similarity(a: str, b: str) -> float:
    """``1 - distance / max length`` over UTF-16 units; 1.0 for two empty strings."""
    left, right = _units(a), _units(b)
    longest = max(len(left), len(right))
    if longest == 0:
        return 1.0
    return 1 - levenshtein(left, right) / longest


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Score the similarity; pass when it reaches the threshold."""
    threshold = expected.get("threshold", 0.8)
    score = similarity(response.strip().lower(), expected["value"].strip().lower())
    reason = (
        f"Similarity: {to_fixed(score * 100, 1)}% "
        f"(threshold: {to_fixed(threshold * 100, 1)}%)"
    )
    return Evaluation(passed=score >= threshold, score=score, reason=reason)
