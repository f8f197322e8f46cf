"""``llm_grader``: the judge scores the response against a rubric, 0.0 to 1.0.

The judge comes from the judge configuration (``--judge-config``), never from the
case's own model. The score is parsed as the TypeScript version did: the first
``{...}`` as JSON, then a ``"score"`` inside it, then the first number of the text;
a value outside 0..1 is a failure, never rescaled.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from artemiskit._common._matching import compile_linear
from artemiskit.prompt_response._js import to_fixed
from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "evaluate", "grading_prompt", "parse_grade"]

FIELDS = (
    Field(name="rubric", kind="str", required=True),
    Field(name="model", kind="str"),
    Field(name="provider", kind="str"),
    Field(name="threshold", kind="unit", default=0.7),
)
_PROMPT = """You are a strict evaluator of AI responses. Judge the response against \
the rubric and answer with JSON only.

RUBRIC:
{{rubric}}

RESPONSE TO EVALUATE:
{{response}}

TASK: Score how well the response satisfies the rubric, from 0.0 to 1.0.

Answer with exactly one line of this form:
{"score":0.0,"reason":"explanation"}

RULES:
- JSON only: no markdown, no code fences.
- score is a number from 0.0 to 1.0.
- reason is short.
- The output must parse as JSON.

JSON OUTPUT:"""
_FENCES = compile_linear(r"```json", ignore_case=True)
_OBJECT = compile_linear(r"\{[\s\S]*?\}")
_SCORE_FIELD = compile_linear(r'"score"[:\s]*(\d+\.?\d*)')
_REASON_FIELD = compile_linear(r'"reason"\s*:\s*"([^"]+)"')
_NUMBER = compile_linear(r"(?:score:\s*)?(\d+\.?\d*)", ignore_case=True)


def grading_prompt(rubric: str, response: str) -> str:
    """The judge's prompt: the rubric first, then the response (first slot each)."""
    return _PROMPT.replace("{{rubric}}", rubric, 1).replace("{{response}}", response, 1)


def _number(value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        stripped = value.strip()
        return float(stripped) if stripped else 0.0
    return math.nan


def _in_range(score: float) -> bool:
    return not math.isnan(score) and 0 <= score <= 1


def parse_grade(text: str) -> tuple[float, str | None]:
    """Read ``(score, reason)`` from the judge's answer.

    Raises:
        ValueError: No score from 0 to 1 can be read.
    """
    cleaned = _FENCES.sub("", text).replace("```", "").strip()
    found = _OBJECT.find(cleaned)
    if found is not None:
        fragment = str(found[0])
        try:
            parsed = json.loads(fragment)
            score = (
                _number(parsed.get("score")) if isinstance(parsed, dict) else math.nan
            )
            if _in_range(score):
                reason = parsed.get("reason")
                return score, reason if isinstance(reason, str) else None
        except (ValueError, RecursionError):
            pass
        field = _SCORE_FIELD.find(fragment)
        if field and _in_range(float(str(field[1]))):
            reason_field = _REASON_FIELD.find(fragment)
            return float(str(field[1])), (
                str(reason_field[1]) if reason_field else None
            )
        raise ValueError("the grader's answer holds no score from 0 to 1")
    number = _NUMBER.find(cleaned)
    if number and _in_range(float(str(number[1]))):
        return float(str(number[1])), cleaned
    raise ValueError("the grader's answer holds no score from 0 to 1")


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Ask the judge and compare its score with the threshold."""
    if context.grader is None:
        return Evaluation(
            passed=False,
            score=0,
            reason="Grader failed: no judge configuration (--judge-config)",
        )
    answer = await context.grader(
        grading_prompt(expected["rubric"], response), expected.get("model"), 1000
    )
    try:
        score, reason = parse_grade(answer)
    except ValueError as exc:
        return Evaluation(passed=False, score=0, reason=f"Grader failed: {exc}")
    threshold = expected.get("threshold", 0.7)
    return Evaluation(
        passed=score >= threshold,
        score=score,
        reason=reason or f"Score: {to_fixed(score, 2)}",
    )
