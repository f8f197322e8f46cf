"""Every snippet of docs/workflow-contract.md is valid, and every key is documented."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from artemiskit import ArtemisKit
from artemiskit.providers import parse_script
from artemiskit.tools import CATALOGUE
from artemiskit.workflow import (
    WORKFLOW_SCHEMA_FILE,
    parse_yaml,
    validate_agent_workflow,
)
from tests.workflow._cases import dump

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "workflow-contract.md"
BLOCK = re.compile(r"(?P<before>[^\n]*)\n```(?P<lang>\w+)\n(?P<body>.*?)\n```", re.S)
SKIP = "<!-- not-a-workflow -->"
SCRIPT = "<!-- a-script -->"

# Fragments (blocks without `version`) are checked inside this workflow.
BASE: dict[str, Any] = {
    "version": 1,
    "name": "docs",
    "target": {"provider": "scripted", "model": "docs"},
    "tools": [
        {"name": name, "allow": {key: ["*"] for key in spec.allow_required}}
        for name, spec in CATALOGUE.items()
    ],
    "conversation": {"turns": [{"user": "hi"}]},
    "budgets": {"max_actions": 10, "timeout_ms": 1000},
}


def _blocks(lang: str, *, marker: str | None = None) -> list[str]:
    text = DOC.read_text("utf-8")
    return [
        m["body"]
        for m in BLOCK.finditer(text)
        if m["lang"] == lang
        and (
            m["before"].strip() == marker
            if marker is not None
            else m["before"].strip() not in (SKIP, SCRIPT)
        )
    ]


YAML_BLOCKS = _blocks("yaml")
SCRIPT_BLOCKS = _blocks("yaml", marker=SCRIPT)


def test_the_page_has_snippets() -> None:
    assert len(YAML_BLOCKS) >= 10


@pytest.mark.parametrize("block", YAML_BLOCKS, ids=lambda b: b.splitlines()[0][:40])
def test_yaml_snippets_validate(block: str) -> None:
    data = parse_yaml(block, source="doc").data
    assert isinstance(data, dict)
    text = block if "version" in data else dump({**BASE, **data})
    assert validate_agent_workflow(text, source="doc") == []


def test_python_snippets_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for block in _blocks("python"):
        exec(compile(block, str(DOC), "exec"), {"__name__": "docs"})


def _keys(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        found |= set(node.get("properties", {}))
        for value in node.values():
            found |= _keys(value)
    elif isinstance(node, list):
        for value in node:
            found |= _keys(value)
    return found


def test_every_schema_key_is_documented() -> None:
    schema = json.loads(WORKFLOW_SCHEMA_FILE.read_text("utf-8"))
    text = DOC.read_text("utf-8")
    missing = sorted(
        key
        for key in _keys(schema)
        if f"`{key}`" not in text and not re.search(rf"^\s*-? ?{key}:", text, re.M)
    )
    assert missing == []
    for name in CATALOGUE:
        assert f"`{name}" in text


def test_the_script_example_is_a_valid_script() -> None:
    assert len(SCRIPT_BLOCKS) == 1
    entries = parse_script(SCRIPT_BLOCKS[0], source="doc")
    keys = {"tool_calls", "text", "usage", "delay_ms"}
    assert all(f"`{key}`" in DOC.read_text("utf-8") for key in keys)
    assert any(entry.delay_ms for entry in entries)
    assert all(entry.usage is not None for entry in entries)


async def test_the_script_example_plays_the_complete_example(tmp_path: Path) -> None:
    """The documented script really drives the documented workflow to a pass."""
    complete = next(b for b in YAML_BLOCKS if "name: summarize-refund-policy" in b)
    workflow = parse_yaml(complete, source="doc").data
    workflow["target"] = {"provider": "scripted", "model": "summarize"}
    workflow["outcomes"] = [o for o in workflow["outcomes"] if "judge" not in o]
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "extra-state.yaml").write_text("{}\n")
    (tmp_path / "summarize.script.yaml").write_text(SCRIPT_BLOCKS[0])
    path = tmp_path / "workflow.yaml"
    path.write_text(dump(workflow))
    result = await ArtemisKit().run_workflow(workflow=path)
    assert result.record.execution.status == "completed"
    assert [r.status for r in result.record.task_verification.requirements] == [
        "passed",
        "passed",
    ]
    assert result.exit_code == 0
