"""Glob semantics of `allow` resource patterns, and the examples of docs/tools.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artemiskit.tools._allow import glob_matches
from artemiskit.workflow._checks import glob_problem

DOC = Path(__file__).resolve().parents[2] / "docs" / "tools.md"


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
        ("f[^ab].md", "fc.md", True),
        ("f[^ab].md", "fa.md", False),
        ("*@example.com", "ops@example.com", True),
        ("*@example.com", "ops@example.com.evil", False),
        ("T-*", "T-1", True),
        ("a.b", "axb", False),
        # No class, negated or not, and no `?` ever matches `/` (issue 12).
        ("report[!s]*.md", "report/secret.md", False),
        ("report[^s]*.md", "report/secret.md", False),
        ("a[/]b", "a/b", False),
        ("a[.-0]b", "a/b", False),
        ("a[.-0]b", "a.b", True),
        ("a[!x]b", "a/b", False),
        ("a[!-0]b", "a/b", False),
        # A `]` first in a class and a `-` at either end name themselves.
        ("[]a]", "]", True),
        ("[!]a]", "]", False),
        ("[!]a]", "b", True),
        ("[a-]", "-", True),
        ("[-a]", "-", True),
        # `**/` means "any folders, none included" only as a whole segment.
        ("a**/b", "ab", False),
        ("a**/b", "ax/b", True),
        ("docs/**/x", "docs/x", True),
        # There is no escape character.
        ("a\\*", "a\\bc", True),
        ("a\\*", "a*", False),
    ],
)
def test_glob_semantics(pattern: str, value: str, expected: bool) -> None:
    assert glob_matches(pattern, value) is expected


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("a[bc", "glob has a '[' without a closing ']'"),
        ("a[!]", "glob has a '[' without a closing ']'"),
        ("a[z-a]", "glob has a character range whose end comes before its start"),
    ],
)
def test_malformed_classes_are_refused_by_validation(
    pattern: str, problem: str
) -> None:
    assert glob_problem(pattern, is_path=False) == problem
    assert glob_matches(pattern, "a") is False


@given(st.text(max_size=30))
def test_star_star_matches_everything_and_literals_match_themselves(text: str) -> None:
    assert glob_matches("**", text)
    literal = "".join(c for c in text if c not in "*?[]")
    assert glob_matches(literal, literal)


ALPHABET = "ab/.-]!^"
classes = st.builds(
    lambda negated, body: f"[{negated}{body}]",
    st.sampled_from(["", "!", "^"]),
    st.text(ALPHABET, min_size=1, max_size=4).filter(lambda b: "]" not in b[1:]),
)
elements = st.one_of(
    st.sampled_from(["*", "?", "a", "b", ".", "-", "!", "^"]),
    classes,
)
# `*` next to `*` would be `**`, the one element that may cross a `/`.
segments = (
    st.lists(elements, min_size=1, max_size=5)
    .map("".join)
    .filter(lambda s: "**" not in s)
)


@given(st.lists(segments, min_size=1, max_size=3), st.text(ALPHABET, max_size=12))
def test_no_single_segment_element_crosses_a_slash(
    parts: list[str], value: str
) -> None:
    """Without `**`, a match has exactly the glob's segments: nothing eats a `/`."""
    pattern = "/".join(parts)
    if glob_problem(pattern, is_path=False) is None and glob_matches(pattern, value):
        assert value.count("/") == len(parts) - 1


@given(segments, st.text(ALPHABET, max_size=12))
def test_one_segment_glob_never_matches_a_slash(pattern: str, value: str) -> None:
    if glob_problem(pattern, is_path=False) is None and "/" in value:
        assert not glob_matches(pattern, value)


def _examples() -> list[tuple[str, str, bool]]:
    text = DOC.read_text("utf-8")
    section = text[text.index("Examples (the test suite checks") :]
    rows: list[tuple[str, str, bool]] = []
    for line in section.splitlines()[4:]:
        if not line.startswith("| `"):
            break
        glob, matches, misses = (cell.strip() for cell in line.strip("|").split("|"))
        pattern = glob.strip("`")
        rows += [(pattern, v, True) for v in re.findall(r"`([^`]*)`", matches)]
        rows += [(pattern, v, False) for v in re.findall(r"`([^`]*)`", misses)]
    return rows


def test_docs_have_glob_examples() -> None:
    assert len(_examples()) >= 30


@pytest.mark.parametrize(("pattern", "value", "expected"), _examples())
def test_every_glob_example_of_the_docs_holds(
    pattern: str, value: str, expected: bool
) -> None:
    assert glob_problem(pattern, is_path=False) is None
    assert glob_matches(pattern, value) is expected
