"""``regex``: a search with JS flags on the raw response."""

from __future__ import annotations

from typing import Any

import pytest

from artemiskit.prompt_response.evaluators._base import EvaluationContext
from artemiskit.prompt_response.evaluators._registry import (
    evaluate_expectation,
    normalize_expectation,
)
from tests.prompt_response.evaluators._helpers import judge


def problems_of(expected: dict[str, Any]) -> list[tuple[Any, str]]:
    found: list[tuple[Any, str]] = []
    normalize_expectation(expected, ("e",), lambda p, m: found.append((p, m)))
    return found


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
    # Checked before any run now; a stored manifest's pattern still fails the case.
    [(path, message)] = problems_of({"type": "regex", "pattern": "("})
    assert path == ("e", "pattern")
    assert message.startswith("is not a usable regular expression: ")
    stored = {"type": "regex", "pattern": "("}
    broken = await evaluate_expectation("abc", stored, EvaluationContext())
    assert broken.reason is not None
    assert broken.reason.startswith("Invalid regex pattern: ")


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [(r"(a)\1", ""), ("(?=a)", ""), ("(?<=a)b", ""), ("(?!x)y", ""), ("a", "ig x")],
)
def test_a_pattern_that_needs_backtracking_is_a_validation_problem(
    pattern: str, flags: str
) -> None:
    expected = {"type": "regex", "pattern": pattern, "flags": flags}
    [(path, message)] = problems_of(expected)
    assert path == ("e", "pattern")
    assert "not a usable regular expression" in message


@pytest.mark.parametrize(
    ("pattern", "flags", "text", "hit"),
    [
        (r"\u0041\u{1F600}", "", "A\U0001f600", True),
        (r"a\/b", "", "a/b", True),
        ("a[^]b", "", "a\nb", True),
        ("a[]b", "", "ab", False),
        (r"^x\s+y$", "", "x\u00a0\u3000y", True),
        (r"[\s]", "", "\u2028", True),
        ("^b", "m", "a\nb", True),
        ("^b", "", "a\nb", False),
        ("HI", "gu", "hi", False),
        ("HI", "gui", "hi", True),
    ],
)
async def test_javascript_syntax_is_translated_for_the_linear_engine(
    pattern: str, flags: str, text: str, hit: bool
) -> None:
    expected = {"type": "regex", "pattern": pattern, "flags": flags}
    assert (await judge(text, expected)).passed is hit
