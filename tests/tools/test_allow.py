"""Glob semantics of `allow` resource patterns, and the examples of docs/tools.md."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from artemiskit import ArtemisKit
from artemiskit._common._glob import glob_matches
from artemiskit.workflow._checks import glob_problem
from tests._builders import workflow_dict, write_workflow

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
    # A body starting with `!` or `^` would itself negate the class: `[` + `!]`
    # reads as a negated class holding `]`, not as a class holding `!`.
    st.text(ALPHABET, min_size=1, max_size=4).filter(
        lambda b: "]" not in b[1:] and b[0] not in "!^"
    ),
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


async def test_a_hostile_recipient_is_denied_not_hung(tmp_path: Path) -> None:
    """Through the SDK: the model picks the value, the engine still answers."""
    workflow = workflow_dict(
        tools=[{"name": "draft_message", "allow": {"recipients": ["*a*a*a*a*a*a*b"]}}],
        policy={"network": "denied", "on_denial": "report"},
        outcomes=[],
    )
    hostile = {"to": "a" * 320, "subject": "s", "body": "b"}  # the longest allowed
    script: list[dict[str, Any]] = [
        {"tool_calls": [{"name": "draft_message", "arguments": hostile}]},
        {"text": "Done."},
    ]
    result = await ArtemisKit().run_workflow(
        workflow=write_workflow(tmp_path, workflow, script)
    )
    assert result.record.execution.status == "completed"
    assert result.record.policy.denial_reasons == {"recipient_not_allowed": 1}


def reference_regex(pattern: str) -> re.Pattern[str]:
    """The rules of docs/tools.md as a (backtracking) regular expression."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**", index):
            whole = index == 0 or pattern[index - 1] == "/"
            if whole and pattern.startswith("**/", index):
                out.append("(?:.*/)?")
                index += 3
            else:
                out.append(".*")
                index += 2
            continue
        char = pattern[index]
        if char == "[":
            negated = pattern[index + 1 : index + 2] in ("!", "^")
            start = index + (2 if negated else 1)
            close = pattern.find("]", start + 1)
            if close >= 0:
                body, members = pattern[start:close], []
                cursor = 0
                while cursor < len(body):
                    if cursor + 2 < len(body) and body[cursor + 1] == "-":
                        first, last = body[cursor], body[cursor + 2]
                        members.append(f"{re.escape(first)}-{re.escape(last)}")
                        cursor += 3
                    else:
                        members.append(re.escape(body[cursor]))
                        cursor += 1
                inner = "".join(members)
                out.append(f"[^/{inner}]" if negated else f"(?!/)[{inner}]")
                index = close + 1
                continue
        out.append({"*": "[^/]*", "?": "[^/]"}.get(char, re.escape(char)))
        index += 1
    return re.compile("".join(out), re.DOTALL)


GLOB_ALPHABET = "ab/.-]!^*?["


GLOB_PIECES = ["*", "**", "**/", "/", "a", "b", "?", "[!a]", "[a-b]", "[]/]"]
any_globs = st.one_of(
    st.text(GLOB_ALPHABET, max_size=10),
    st.lists(st.sampled_from(GLOB_PIECES), max_size=6).map("".join),
)


@given(any_globs, st.text(ALPHABET, max_size=10))
def test_the_matcher_follows_the_written_rules(pattern: str, value: str) -> None:
    if glob_problem(pattern, is_path=False) is None:
        expected = reference_regex(pattern).fullmatch(value) is not None
        assert glob_matches(pattern, value) is expected


def test_a_hostile_value_cannot_make_matching_backtrack() -> None:
    """A model-chosen resource against a glob with many stars: linear, no hang."""
    assert not glob_matches("*a*a*a*a*a*a*a*b", "a" * 200_000)
    assert not glob_matches("**a**a**a**a**b", "a/" * 100_000)
    assert glob_matches("*a*a*a*a*a*a*a*b", "a" * 200_000 + "b")


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
