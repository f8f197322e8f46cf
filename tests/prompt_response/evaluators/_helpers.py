"""Evaluate an expectation written as YAML would give it."""

from __future__ import annotations

from typing import Any

from artemiskit._errors import Problem
from artemiskit.prompt_response.evaluators._base import Evaluation, EvaluationContext
from artemiskit.prompt_response.evaluators._registry import (
    evaluate_expectation,
    normalize_expectation,
)


async def judge(
    response: str,
    expected: dict[str, Any],
    context: EvaluationContext | None = None,
) -> Evaluation:
    """Normalise ``expected`` as the loader does, then evaluate ``response``."""
    problems: list[Problem] = []
    stored = normalize_expectation(
        expected,
        (),
        lambda path, message: problems.append(Problem(message=message)),
        evaluators=("mine", "broken"),
    )
    assert problems == []
    return await evaluate_expectation(response, stored, context or EvaluationContext())
