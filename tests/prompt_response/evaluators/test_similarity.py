"""``similarity``: embeddings (cosine) or the judge, by mode."""

from __future__ import annotations

import pytest

from artemiskit.prompt_response.evaluators._base import EvaluationContext
from artemiskit.prompt_response.evaluators._similarity import cosine, parse_similarity
from tests.prompt_response.evaluators._helpers import judge


class Vectors:
    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = table
        self.models: list[str | None] = []

    async def embed(self, text: str, model: str | None) -> list[float]:
        self.models.append(model)
        if text not in self.table:
            raise ValueError("no vector")
        return self.table[text]


async def answer(prompt: str, model: str | None, max_tokens: int) -> str:
    assert max_tokens == 150
    return '{"score": 0.9, "reason": "same idea"}'


def test_cosine() -> None:
    assert cosine([1, 0], [1, 0]) == 1
    assert cosine([0, 0], [1, 0]) == 0


async def test_embedding_mode_scores_the_cosine() -> None:
    vectors = Vectors({"a": [1.0, 0.0], "b": [1.0, 1.0], "neg": [-1.0, 0.0]})
    context = EvaluationContext(embedder=vectors)
    expected = {"type": "similarity", "value": "b", "embeddingModel": "e-1"}
    result = await judge("a", expected, context)
    assert result.score == pytest.approx(0.7071, abs=1e-4)
    assert not result.passed
    assert result.reason == (
        "Semantic similarity (embedding: e-1): 70.7% (threshold: 75.0%)"
    )
    assert vectors.models == ["e-1", "e-1"]
    opposite = await judge("neg", {"type": "similarity", "value": "a"}, context)
    assert opposite.score == 0


async def test_auto_mode_falls_back_to_the_judge() -> None:
    context = EvaluationContext(embedder=Vectors({}), grader=answer)
    result = await judge("x", {"type": "similarity", "value": "y"}, context)
    assert result.passed
    assert result.reason == "Semantic similarity (LLM): 90.0% - same idea"
    strict = {"type": "similarity", "value": "y", "mode": "embedding"}
    assert not (await judge("x", strict, context)).passed


async def test_llm_mode_and_its_parsing() -> None:
    context = EvaluationContext(grader=answer)
    expected = {"type": "similarity", "value": "y", "mode": "llm", "model": "j"}
    assert (await judge("x", expected, context)).reason == (
        "Semantic similarity (LLM: j): 90.0% - same idea"
    )
    assert parse_similarity("similarity: 85") == (0.85, "")
    assert parse_similarity('{"score": 3, "reason": "r"}') == (1.0, "r")
    with pytest.raises(ValueError, match="no similarity"):
        parse_similarity("dunno")


async def test_no_endpoint_and_no_judge_fail() -> None:
    embedding = {"type": "similarity", "value": "y", "mode": "embedding"}
    assert not (await judge("x", embedding)).passed
    assert not (await judge("x", {"type": "similarity", "value": "y"})).passed
