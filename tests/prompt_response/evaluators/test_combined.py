"""``combined``: and = all pass, mean score; or = any passes, max score."""

from __future__ import annotations

import pytest

from tests.prompt_response.evaluators._helpers import judge

PARTS = [
    {"type": "contains", "values": ["paris"]},
    {"type": "not_contains", "values": ["rome"]},
]


async def test_and() -> None:
    result = await judge(
        "Paris", {"type": "combined", "operator": "and", "expectations": PARTS}
    )
    assert (result.passed, result.score, result.reason) == (
        True,
        1,
        "All 2 expectations passed",
    )
    failed = await judge(
        "Paris Rome", {"type": "combined", "operator": "and", "expectations": PARTS}
    )
    assert (failed.passed, failed.reason) == (
        False,
        "1/2 expectations passed (all required)",
    )
    assert failed.score == pytest.approx(0.5)


async def test_or() -> None:
    result = await judge(
        "Rome", {"type": "combined", "operator": "or", "expectations": PARTS}
    )
    assert (result.passed, result.score, result.reason) == (
        False,
        0,
        "No expectations passed (at least one required)",
    )
    one = await judge(
        "Paris Rome", {"type": "combined", "operator": "or", "expectations": PARTS}
    )
    assert one.reason == "1/2 expectations passed (at least one required)"
