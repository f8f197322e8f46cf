"""``contains`` and ``not_contains``: case-insensitive substrings, all or any."""

from __future__ import annotations

from tests.prompt_response.evaluators._helpers import judge


async def test_contains_all_and_any() -> None:
    every = await judge(
        "Paris, FRANCE", {"type": "contains", "values": ["paris", "france"]}
    )
    assert (every.passed, every.score, every.reason) == (
        True,
        1,
        "Found 2/2 values (mode: all)",
    )
    partial = await judge("Paris", {"type": "contains", "values": ["paris", "rome"]})
    assert (partial.passed, partial.score, partial.reason) == (
        False,
        0.5,
        "Missing required values (mode: all)",
    )
    some = {"type": "contains", "values": ["paris", "rome"], "mode": "any"}
    assert (await judge("Paris", some)).passed


async def test_empty_lists() -> None:
    assert (await judge("x", {"type": "contains", "values": []})).passed
    assert not (
        await judge("x", {"type": "contains", "values": [], "mode": "any"})
    ).passed


async def test_not_contains() -> None:
    clean = await judge(
        "all good", {"type": "not_contains", "values": ["error", "fail"]}
    )
    assert (clean.passed, clean.reason) == (
        True,
        "Correctly absent: 2/2 values (mode: all)",
    )
    dirty = await judge(
        "ERROR here", {"type": "not_contains", "values": ["error", "fail"]}
    )
    assert (dirty.passed, dirty.score, dirty.reason) == (
        False,
        0.5,
        "Found forbidden values (mode: all)",
    )
    one_absent = {"type": "not_contains", "values": ["error", "fail"], "mode": "any"}
    assert (await judge("error", one_absent)).passed
