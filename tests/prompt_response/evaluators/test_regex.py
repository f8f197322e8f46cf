"""``regex``: a search with JS flags on the raw response."""

from __future__ import annotations

from tests.prompt_response.evaluators._helpers import judge


async def test_search_semantics_and_flags() -> None:
    assert (await judge("say 12345 ok", {"type": "regex", "pattern": r"\d{5}"})).passed
    upper = {"type": "regex", "pattern": "^hello", "flags": "i"}
    assert (await judge("HELLO there", upper)).passed
    dotall = {"type": "regex", "pattern": "a.b", "flags": "is"}
    assert (await judge("A\nB", dotall)).passed


async def test_classes_are_ascii_as_in_javascript() -> None:
    assert not (await judge("٣", {"type": "regex", "pattern": r"^\d$"})).passed


async def test_sticky_anchors_at_the_start() -> None:
    sticky = {"type": "regex", "pattern": "b", "flags": "y"}
    assert not (await judge("ab", sticky)).passed


async def test_named_groups_in_js_syntax() -> None:
    named = {"type": "regex", "pattern": r"(?<year>\d{4})"}
    assert (await judge("in 2024", named)).passed


async def test_reasons_and_an_invalid_pattern() -> None:
    hit = await judge("abc", {"type": "regex", "pattern": "b"})
    assert hit.reason == "Matched pattern: b"
    miss = await judge("abc", {"type": "regex", "pattern": "z"})
    assert (miss.passed, miss.reason) == (False, "Did not match pattern: z")
    broken = await judge("abc", {"type": "regex", "pattern": "("})
    assert broken.reason is not None
    assert broken.reason.startswith("Invalid regex pattern: ")


async def test_patterns_run_on_the_linear_time_engine() -> None:
    # A backtracking engine takes about 2^n steps here; the linear one scans once.
    catastrophic = {"type": "regex", "pattern": "^(a+)+$"}
    assert not (await judge("a" * 200_000 + "!", catastrophic)).passed
    backreference = await judge("abab", {"type": "regex", "pattern": r"(ab)\1"})
    assert not backreference.passed
    assert backreference.reason is not None
    assert "linear time" in backreference.reason
