"""Expectation types of prompt-response scenarios, one module each."""

from __future__ import annotations

from artemiskit.prompt_response.evaluators._base import (
    Embedder,
    Evaluation,
    EvaluationContext,
    Grader,
)
from artemiskit.prompt_response.evaluators._custom import ENTRY_POINT_GROUP
from artemiskit.prompt_response.evaluators._registry import (
    EXPECTATION_TYPES,
    evaluate_expectation,
    normalize_expectation,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "EXPECTATION_TYPES",
    "Embedder",
    "Evaluation",
    "EvaluationContext",
    "Grader",
    "evaluate_expectation",
    "normalize_expectation",
]
