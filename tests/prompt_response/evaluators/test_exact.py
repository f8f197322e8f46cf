"""``exact``: trimmed equality, case-sensitive by default."""

from __future__ import annotations

from tests.prompt_response.evaluators._helpers import judge


async def test_trimmed_equality_passes() -> None:
    result = await judge("  4\n", {"type": "exact", "value": "4"})
    assert (result.passed, result.score, result.reason) == (True, 1, "Exact match")


async def test_case_matters_unless_told() -> None:
    assert not (await judge("Paris", {"type": "exact", "value": "paris"})).passed
    relaxed = {"type": "exact", "value": "paris", "caseSensitive": False}
    assert (await judge("PARIS", relaxed)).passed


async def test_a_long_response_is_cut_at_100_characters_in_the_reason() -> None:
    result = await judge("x" * 150, {"type": "exact", "value": "4"})
    assert result.reason == f'Expected "4", got "{"x" * 100}..."'
    assert result.score == 0
