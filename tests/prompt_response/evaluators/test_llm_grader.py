"""``llm_grader``: the judge's score against the threshold, parsed as the TS did."""

from __future__ import annotations

import pytest

from artemiskit.prompt_response.evaluators._base import EvaluationContext
from artemiskit.prompt_response.evaluators._llm_grader import (
    grading_prompt,
    parse_grade,
)
from tests.prompt_response.evaluators._helpers import judge


@pytest.mark.parametrize(
    ("answer", "grade"),
    [
        ('{"score": 0.8, "reason": "good"}', (0.8, "good")),
        ('```json\n{"score": "0.9", "reason": "ok"}\n```', (0.9, "ok")),
        ('{"score": null}', (0.0, None)),
        ('{"score": 0.7, "reason": "a {nested}"}', (0.7, None)),
        ("Score: 0.6 because", (0.6, "Score: 0.6 because")),
    ],
)
def test_scores_are_read_like_the_original(
    answer: str, grade: tuple[float, str | None]
) -> None:
    assert parse_grade(answer) == grade


@pytest.mark.parametrize("answer", ['{"score": 8}', "8/10", "no idea"])
def test_out_of_range_or_missing_scores_fail(answer: str) -> None:
    with pytest.raises(ValueError, match="no score"):
        parse_grade(answer)


def test_the_prompt_fills_the_first_slots_only() -> None:
    prompt = grading_prompt("Rubric {{response}}", "THE ANSWER")
    assert "Rubric THE ANSWER" in prompt
    assert prompt.count("{{response}}") == 1


async def test_the_judge_decides_against_the_threshold() -> None:
    asked: list[tuple[str | None, int]] = []

    async def grader(prompt: str, model: str | None, max_tokens: int) -> str:
        assert "polite" in prompt
        asked.append((model, max_tokens))
        return '{"score": 0.65, "reason": "fair"}'

    context = EvaluationContext(grader=grader)
    expected = {"type": "llm_grader", "rubric": "polite", "model": "judge-2"}
    result = await judge("hello", expected, context)
    assert (result.passed, result.score, result.reason) == (False, 0.65, "fair")
    assert asked == [("judge-2", 1000)]
    lenient = {**expected, "threshold": 0.6}
    assert (await judge("hello", lenient, context)).passed


async def test_without_a_judge_configuration_it_fails_with_the_reason() -> None:
    result = await judge("x", {"type": "llm_grader", "rubric": "r"})
    assert not result.passed
    assert result.reason == "Grader failed: no judge configuration (--judge-config)"
