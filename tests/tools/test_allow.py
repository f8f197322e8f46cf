"""Glob semantics of `allow` resource patterns."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artemiskit.tools._allow import glob_matches


@pytest.mark.parametrize(
    ("pattern", "value", "expected"),
    [
        ("docs/**", "docs/a/b.md", True),
        ("docs/**", "other/a.md", False),
        ("out/*.md", "out/a.md", True),
        ("out/*.md", "out/x/a.md", False),
        ("**/*.md", "a.md", True),
        ("**/*.md", "x/y/a.md", True),
        ("**/*.md", "a.txt", False),
        ("f?.md", "fa.md", True),
        ("f?.md", "f/.md", False),
        ("f[ab].md", "fa.md", True),
        ("f[ab].md", "fc.md", False),
        ("f[!ab].md", "fc.md", True),
        ("f[!ab].md", "fa.md", False),
        ("*@example.com", "ops@example.com", True),
        ("*@example.com", "ops@example.com.evil", False),
        ("T-*", "T-1", True),
        ("a.b", "axb", False),
    ],
)
def test_glob_semantics(pattern: str, value: str, expected: bool) -> None:
    assert glob_matches(pattern, value) is expected


@given(st.text(max_size=30))
def test_star_star_matches_everything_and_literals_match_themselves(text: str) -> None:
    assert glob_matches("**", text)
    literal = "".join(c for c in text if c not in "*?[]")
    assert glob_matches(literal, literal)
