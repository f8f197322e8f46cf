"""The linear-time pattern engine: refusals, matching, and a bound on work."""

from __future__ import annotations

import pytest

from artemiskit._common._matching import PatternSyntaxError, compile_linear


@pytest.mark.parametrize("pattern", [r"(a)\1", r"(?=x)", r"(?<!y)z", "(", "a{100000}"])
def test_patterns_that_need_backtracking_or_are_invalid_are_refused(
    pattern: str,
) -> None:
    with pytest.raises(PatternSyntaxError, match="linear time"):
        compile_linear(pattern)


def test_an_overlong_pattern_is_refused() -> None:
    with pytest.raises(PatternSyntaxError, match="longer than"):
        compile_linear("a" * 5000)


def test_a_catastrophic_pattern_on_a_long_text_answers_without_matching() -> None:
    # With a backtracking engine this is 2^n steps; RE2 scans the text once.
    pattern = compile_linear(r"(a+)+b")
    assert not pattern.search("a" * 200_000)
    assert pattern.search("a" * 200_000 + "b")


def test_flags_spans_and_substitution_use_string_indexes() -> None:
    pattern = compile_linear("é+", ignore_case=True)
    assert pattern.sub("#", "xÉéy") == "x#y"
    assert list(compile_linear("b").spans("abcb")) == [(1, 2), (3, 4)]
    assert compile_linear("^b$", multiline=True).search("a\nb")
    assert compile_linear("a.b", dot_all=True).fullmatch("a\nb")
    assert compile_linear("x").sub(str.upper, "axbx") == "aXbX"


def test_repr_never_shows_the_pattern() -> None:
    assert "secret" not in repr(compile_linear("secret"))
