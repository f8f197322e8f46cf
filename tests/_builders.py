"""Build workflow and script files for tests (YAML is a superset of JSON)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

BASE_WORKFLOW: dict[str, Any] = {
    "version": 1,
    "name": "test-workflow",
    "target": {"provider": "scripted", "model": "agent"},
    "environment": {"files": {"docs/policy.md": "Refunds within 30 days."}},
    "tools": [
        {"name": "read_file", "allow": {"paths": ["docs/**"]}},
        {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
    ],
    "conversation": {"turns": [{"user": "Summarize the policy."}]},
    "budgets": {"max_actions": 20, "timeout_ms": 30000},
    "outcomes": [
        {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
    ],
}

USAGE = {"input_tokens": 10, "output_tokens": 5}

PASSING_SCRIPT: list[dict[str, Any]] = [
    {
        "tool_calls": [{"name": "read_file", "arguments": {"path": "docs/policy.md"}}],
        "usage": USAGE,
    },
    {
        "tool_calls": [
            {
                "name": "write_file",
                "arguments": {"path": "out/summary.md", "content": "30 days"},
            }
        ],
        "usage": USAGE,
    },
    {"text": "Done.", "usage": USAGE},
]


def workflow_dict(**changes: Any) -> dict[str, Any]:
    """A deep copy of the base workflow with top-level keys replaced."""
    data = copy.deepcopy(BASE_WORKFLOW)
    data.update(changes)
    return data


def write_workflow(
    folder: Path,
    workflow: dict[str, Any] | None = None,
    script: list[dict[str, Any]] | None = None,
) -> Path:
    """Write ``workflow.yaml`` and its ``agent.script.yaml`` into ``folder``."""
    data = workflow if workflow is not None else workflow_dict()
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    model = data["target"]["model"]
    entries = script if script is not None else PASSING_SCRIPT
    (folder / f"{model}.script.yaml").write_text(
        json.dumps({"version": 1, "responses": entries}, indent=2), encoding="utf-8"
    )
    return path
