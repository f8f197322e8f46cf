"""Build suite folders for tests: workflows whose scripts hold ``variants:``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests._builders import PASSING_SCRIPT, USAGE, workflow_dict

FAILING_SCRIPT: list[dict[str, Any]] = [
    {
        "tool_calls": [
            {
                "name": "write_file",
                "arguments": {"path": "out/summary.md", "content": "no idea"},
            }
        ],
        "usage": USAGE,
    },
    {"text": "Done.", "usage": USAGE},
]

SLOW_SCRIPT: list[dict[str, Any]] = [
    {"text": "slow", "delay_ms": 60000, "usage": USAGE}
]


def write_member(
    root: Path,
    name: str,
    variants: list[list[dict[str, Any]]],
    *,
    folder_name: str | None = None,
    **changes: Any,
) -> Path:
    """Write ``root/NAME/workflow.yaml`` and its script (with ``variants:``)."""
    folder = root / (folder_name or name)
    folder.mkdir(parents=True, exist_ok=True)
    data = workflow_dict(name=name, **changes)
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    script = {"version": 1, "variants": variants}
    (folder / "agent.script.yaml").write_text(json.dumps(script), encoding="utf-8")
    return path


def write_suite(root: Path) -> Path:
    """Two workflows: ``steady`` always passes, ``flaky`` fails every second run."""
    suite = root / "suite"
    write_member(suite, "steady", [PASSING_SCRIPT])
    write_member(suite, "flaky", [PASSING_SCRIPT, FAILING_SCRIPT])
    return suite


#: What differs between two runs of the same suite: identities and times.
_VOLATILE_TOP = {"suite_id", "started_at", "finished_at"}
_VOLATILE_RUN = {"run_id", "duration_ms"}


def comparable_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """``suite.json`` without what differs between two runs of one suite.

    Identities, times and the executor's name are left out.
    """
    kept = {k: v for k, v in summary.items() if k not in _VOLATILE_TOP}
    kept["settings"] = {**kept["settings"], "executor": None}
    kept["totals"] = {**kept["totals"], "duration_ms": None}
    kept["workflows"] = [
        {
            **workflow,
            "runs": [
                {k: v for k, v in run.items() if k not in _VOLATILE_RUN}
                for run in workflow["runs"]
            ],
        }
        for workflow in summary["workflows"]
    ]
    return kept
