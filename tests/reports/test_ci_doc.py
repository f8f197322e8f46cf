"""docs/ci.md's GitHub Actions workflow: valid YAML, its `akit` steps run as shown."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path
from typing import Any

from artemiskit.workflow import parse_yaml
from tests.examples._blocks import page_blocks, resolve_akit
from tests.reports._evidence import ROOT, akit

PAGE = ROOT / "docs" / "ci.md"


def _actions_workflow() -> dict[str, Any]:
    block = next(b for b in page_blocks(PAGE) if "jobs:" in b.body)
    data: dict[str, Any] = parse_yaml(block.body, source=block.where).data
    return data


def _akit_lines(workflow: dict[str, Any]) -> list[list[str]]:
    steps = workflow["jobs"]["suite"]["steps"]
    return [
        shlex.split(line)
        for step in steps
        for line in str(step.get("run", "")).splitlines()
        if line.startswith("akit ")
    ]


def test_the_workflow_uploads_the_report_and_writes_the_summary() -> None:
    workflow = _actions_workflow()
    steps = workflow["jobs"]["suite"]["steps"]
    runs = "\n".join(str(step.get("run", "")) for step in steps)
    assert '>> "$GITHUB_STEP_SUMMARY"' in runs
    upload = next(s for s in steps if "upload-artifact" in s.get("uses", ""))
    assert upload["with"]["path"] == "out/"
    assert upload["if"] == "always()"


def test_the_akit_steps_run_as_the_page_shows(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    commands = _akit_lines(_actions_workflow())
    assert [words[1] for words in commands] == ["workflow", "report"]
    for words in commands:
        resolve_akit(tuple(words))
        done = akit(*words[1:], cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "report.html").is_file()
    summary = (tmp_path / "out" / "report.md").read_text("utf-8")
    assert summary.startswith("## ArtemisKit report")
