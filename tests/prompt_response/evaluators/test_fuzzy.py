"""``fuzzy``: Levenshtein ratio over the whole trimmed, lowercased strings."""

from __future__ import annotations

import pytest

from artemiskit.prompt_response.evaluators._fuzzy import similarity
from tests.prompt_response.evaluators._helpers import judge


async def test_score_is_the_ratio_and_the_threshold_decides() -> None:
    result = await judge(" Kitten ", {"type": "fuzzy", "value": "sitting"})
    assert result.score == pytest.approx(1 - 3 / 7)
    assert not result.passed
    assert result.reason == "Similarity: 57.1% (threshold: 80.0%)"
    low = {"type": "fuzzy", "value": "sitting", "threshold": 0.5}
    assert (await judge("kitten", low)).passed


async def test_a_threshold_of_zero_means_zero() -> None:
    assert (
        await judge("abc", {"type": "fuzzy", "value": "xyz", "threshold": 0})
    ).passed


def test_lengths_count_utf16_units_and_two_empty_strings_match() -> None:
    assert similarity("", "") == 1.0
    assert similarity("😀", "") == 0.0
    assert similarity("a😀", "a") == pytest.approx(1 - 2 / 3)
