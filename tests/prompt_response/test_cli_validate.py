"""``akit validate``: scenario files checked offline, with TypeScript exit codes."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tests._cli import akit

if TYPE_CHECKING:
    from pathlib import Path

GOOD = (
    "name: good\ndescription: d\ncases:\n"
    "  - id: a\n    prompt: Hello {{who}}\n    variables: {who: you}\n"
    "    expected: {type: exact, value: '4'}\n"
)


def test_a_valid_folder_exits_0_and_skips_workflows_with_a_notice(
    tmp_path: Path,
) -> None:
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "workflow.yaml").write_text(
        "version: 1\nname: w\ntarget: {provider: scripted, model: m}\n",
        encoding="utf-8",
    )
    done = akit("validate", tmp_path, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["valid"] is True
    assert report["summary"] == {
        "total": 1,
        "passed": 1,
        "failed": 0,
        "withWarnings": 0,
    }
    assert "skipped" in done.stderr
    assert "workflow file" in done.stderr


def test_an_invalid_file_lists_every_problem_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "name: bad\ncases:\n"
        "  - id: a\n    prompt: Hi {{missing}}\n    variables: {x: 1}\n"
        "    expected: {type: regex}\n"
        "  - id: a\n    prompt: p\n    expected: {type: nope}\n",
        encoding="utf-8",
    )
    done = akit("validate", path)
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if line.startswith(str(path))]
    assert [line.split(": ", 2)[0].removeprefix(str(path)) for line in lines] == [
        ":6:15",
        ":9:22",
        ":7:9",
        ":4:13",
    ]
    assert "Traceback" not in done.stderr


def test_a_workflow_named_directly_is_refused_with_2(tmp_path: Path) -> None:
    path = tmp_path / "workflow.yaml"
    path.write_text(
        "version: 1\nname: w\nconversation: {turns: []}\n", encoding="utf-8"
    )
    done = akit("validate", path)
    assert done.returncode == 2
    assert "is a workflow file" in done.stderr


def test_nothing_matched_exits_2(tmp_path: Path) -> None:
    assert akit("validate", tmp_path).returncode == 2
    assert akit("validate", tmp_path / "missing.yaml").returncode == 2


def test_strict_counts_warnings(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(GOOD.replace("description: d\n", ""), encoding="utf-8")
    assert akit("validate", path).returncode == 0
    assert akit("validate", path, "--strict").returncode == 1
