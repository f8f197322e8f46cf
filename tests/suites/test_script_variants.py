"""Scripted ``variants:`` (SPEC 13): parsing, and a single run replays the first."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from artemiskit import WorkflowError
from artemiskit.providers._scripted import parse_script, parse_script_variants
from tests._builders import PASSING_SCRIPT
from tests._cli import akit
from tests.suites._suites import FAILING_SCRIPT, write_member

VARIANTS = """\
version: 1
variants:
  - - text: first
  - - text: second
    - text: again
"""


def test_variants_parse_in_order() -> None:
    variants = parse_script_variants(VARIANTS)
    assert [[e.text for e in v] for v in variants] == [["first"], ["second", "again"]]
    assert [e.text for e in parse_script(VARIANTS)] == ["first"]


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("version: 1\nvariants: []\n", 2, 11, "non-empty list"),
        ("version: 1\nvariants:\n  - []\n", 3, 5, "non-empty list"),
        ("version: 1\nvariants:\n  - - {text: 3}\n", 3, 14, "must be a string"),
        (
            "version: 1\nresponses: [{text: a}]\nvariants: [[{text: b}]]\n",
            3,
            1,
            "either responses or variants",
        ),
    ],
)
def test_invalid_variants_are_located(
    text: str, line: int, column: int, message: str
) -> None:
    with pytest.raises(WorkflowError) as caught:
        parse_script_variants(text, source="s.script.yaml")
    problem = caught.value.problems[0]
    assert (problem.source, problem.line, problem.column) == (
        "s.script.yaml",
        line,
        column,
    )
    assert message in problem.message


def test_single_run_replays_the_first_variant(tmp_path: Path) -> None:
    path = write_member(tmp_path, "w", [PASSING_SCRIPT, FAILING_SCRIPT])
    done = akit("workflow", "run", path)
    assert done.returncode == 0, done.stderr
    path = write_member(tmp_path / "other", "w", [FAILING_SCRIPT, PASSING_SCRIPT])
    done = akit("workflow", "run", path)
    assert done.returncode == 8, done.stderr


def test_transcript_output_of_a_single_run(tmp_path: Path) -> None:
    path = write_member(tmp_path, "w", [PASSING_SCRIPT])
    transcript = tmp_path / "t.json"
    record = tmp_path / "r.json"
    done = akit(
        "workflow", "run", path, "--transcript-output", transcript, "--output", record
    )
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(os.stat(transcript).st_mode) == 0o600
    data = json.loads(transcript.read_text("utf-8"))
    tool_results = [m for m in data["messages"] if m["role"] == "tool"]
    assert any("30 days" in (m["content"] or "") for m in tool_results)
    assert "30 days" not in record.read_text("utf-8")


def test_transcript_output_must_be_new(tmp_path: Path) -> None:
    path = write_member(tmp_path, "w", [PASSING_SCRIPT])
    transcript = tmp_path / "t.json"
    transcript.write_text("keep", "utf-8")
    done = akit("workflow", "run", path, "--transcript-output", transcript)
    assert done.returncode == 1
    assert "already exists" in done.stderr
    assert transcript.read_text("utf-8") == "keep"
