"""``similarity``: semantic closeness to a reference, by embeddings or by the judge.

Embedding mode calls the provider's embeddings endpoint for both texts and scores
their cosine (a negative cosine ``c`` scores ``(c + 1) / 2``); LLM mode asks the
judge. With no ``mode``, embeddings are used when an endpoint is available and the
judge otherwise (also when embedding fails).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from artemiskit._common._matching import compile_linear
from artemiskit._errors import ArtemisError
from artemiskit.prompt_response._js import to_fixed
from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "cosine", "evaluate", "parse_similarity"]

FIELDS = (
    Field(name="value", kind="str", required=True),
    Field(name="threshold", kind="unit", default=0.75),
    Field(name="mode", kind="choice", choices=("embedding", "llm")),
    Field(name="model", kind="str"),
    Field(name="embeddingModel", kind="str"),
)
_PROMPT = '''Compare the meaning of two texts.

Text A (reference):
"""
{reference}
"""

Text B (response):
"""
{response}
"""

Score their semantic similarity from 0.0 to 1.0:
1.0 identical meaning; 0.8 the same meaning in other words; 0.6 mostly similar;
0.4 partly related; 0.2 barely related; 0.0 unrelated.

Return only: {{"score": <number>, "reason": "<one sentence>"}}'''
_STRICT = compile_linear(
    r'\{\s*"score"\s*:\s*-?\d*\.?\d+\s*,\s*"reason"\s*:\s*"[^"]*"\s*\}'
)
_LOOSE = compile_linear(r'\{[^{}]*"score"[^{}]*"reason"[^{}]*\}')
_PLAIN = compile_linear(r"(?:score|similarity)[:\s]*(\d*\.?\d+)", ignore_case=True)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity; 0.0 when either vector is zero."""
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return 0.0 if norm == 0 else dot / norm


def parse_similarity(text: str) -> tuple[float, str]:
    """Read ``(score, reason)`` from the judge's answer (score clamped to 0..1).

    Raises:
        ValueError: No score can be read.
    """
    found = _STRICT.find(text) or _LOOSE.find(text)
    if found is not None:
        parsed = json.loads(str(found[0]))
        score = min(1.0, max(0.0, float(parsed["score"])))
        return score, str(parsed.get("reason", ""))
    plain = _PLAIN.find(text)
    if plain is not None:
        score = float(str(plain[1]))
        return (score / 100 if score > 1 else score), ""
    raise ValueError("no similarity score in the answer")


def _verdict(score: float, threshold: float, reason: str) -> Evaluation:
    return Evaluation(passed=score >= threshold, score=score, reason=reason)


async def _by_embedding(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    assert context.embedder is not None
    model = expected.get("embeddingModel")
    left = await context.embedder.embed(response, model)
    right = await context.embedder.embed(expected["value"], model)
    value = cosine(left, right)
    score = value if value >= 0 else (value + 1) / 2
    threshold = expected.get("threshold", 0.75)
    label = f"embedding: {model}" if model else "embedding"
    reason = (
        f"Semantic similarity ({label}): {to_fixed(score * 100, 1)}% "
        f"(threshold: {to_fixed(threshold * 100, 1)}%)"
    )
    return _verdict(score, threshold, reason)


async def _by_judge(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    if context.grader is None:
        return Evaluation(
            passed=False,
            score=0,
            reason="Similarity evaluation failed: no judge configuration "
            "(--judge-config)",
        )
    model = expected.get("model")
    prompt = _PROMPT.format(reference=expected["value"], response=response)
    answer = await context.grader(prompt, model, 150)
    try:
        score, why = parse_similarity(answer)
    except ValueError as exc:
        return Evaluation(
            passed=False, score=0, reason=f"Similarity evaluation failed: {exc}"
        )
    label = f"LLM: {model}" if model else "LLM"
    reason = f"Semantic similarity ({label}): {to_fixed(score * 100, 1)}% - {why}"
    return _verdict(score, expected.get("threshold", 0.75), reason)


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Score by the expectation's mode (see the module docstring)."""
    mode = expected.get("mode")
    if mode == "llm":
        return await _by_judge(response, expected, context)
    if context.embedder is None:
        if mode == "embedding":
            return Evaluation(
                passed=False,
                score=0,
                reason="Similarity evaluation failed: the provider has no "
                "embeddings endpoint",
            )
        return await _by_judge(response, expected, context)
    try:
        return await _by_embedding(response, expected, context)
    except (ArtemisError, OSError, ValueError, ArithmeticError) as exc:
        if mode == "embedding":
            return Evaluation(
                passed=False,
                score=0,
                reason=f"Similarity evaluation failed: {type(exc).__name__}",
            )
        return await _by_judge(response, expected, context)
