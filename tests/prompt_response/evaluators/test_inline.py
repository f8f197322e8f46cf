"""``inline``: recognised forms only, ``&&`` split before ``||``, never eval."""

from __future__ import annotations

import pytest

from artemiskit.prompt_response.evaluators._inline import evaluate_expression
from tests.prompt_response.evaluators._helpers import judge


@pytest.mark.parametrize(
    ("expression", "response", "passed"),
    [
        ('response.includes("cat")', "a cat", True),
        ("!response.includes('cat')", "a cat", False),
        ('response.startsWith("a")', "a cat", True),
        ('response.endsWith("dog")', "a cat", False),
        ('response.toLowerCase().includes("CAT")', "A Cat", True),
        ("response.match(/c.t/i)", "A CAT", True),
        ("!response.match(/dog/)", "a cat", True),
        ("response.length < 5", "a cat", False),
        ("response.length <= 5 && response.length >= 5", "a cat", True),
        ("length >= 5", "a cat", True),
        ("words.length == 2", " a   cat ", True),
        ("lines.length < 2", "a\n\n b", False),
        ("json.a.b == 1", '{"a": {"b": 1}}', True),
        ('json.a.b == "1"', '{"a": {"b": 1}}', False),
        ("json.ok == true", '{"ok": true}', True),
        ("json.n > 2.5", '{"n": 3}', True),
        ("json.n > 2", '{"n": "3"}', False),
        ("json.missing != null", '{"a": 1}', True),
        ("json != null", '{"a": 1}', True),
        ("response == expected", "same", True),
    ],
)
def test_recognised_forms(expression: str, response: str, passed: bool) -> None:
    assert evaluate_expression(expression, response, "same")[0] is passed


def test_and_binds_looser_than_or() -> None:
    # (true || false) && false -> false; JS precedence would say true.
    expression = 'response.includes("a") || response.includes("z") && length > 99'
    assert evaluate_expression(expression, "a") == (False, 0.5)


def test_or_takes_the_best_score() -> None:
    expression = 'response.includes("z") || response.includes("a")'
    assert evaluate_expression(expression, "a") == (True, 1.0)


async def test_anything_else_fails_and_is_never_evaluated() -> None:
    result = await judge(
        "x", {"type": "inline", "expression": "__import__('os').system('true')"}
    )
    assert not result.passed
    assert result.reason == (
        "Inline matcher error: Expression evaluation failed: "
        "Unsupported expression pattern: __import__('os').system('true')"
    )


async def test_reasons() -> None:
    result = await judge("a cat", {"type": "inline", "expression": "length > 1"})
    assert result.reason == "Expression passed: length > 1"


def test_a_deeply_nested_answer_is_not_json_rather_than_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert evaluate_expression("json != null", deep) == (False, 0.0)
    assert evaluate_expression("length > 5", deep) == (True, 1.0)
