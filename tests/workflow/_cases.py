"""A valid base workflow and helpers to derive invalid ones from it."""

from __future__ import annotations

import copy
import io
from collections.abc import Callable
from typing import Any

from ruamel.yaml import YAML

__all__ = ["BASE", "dump", "variant"]

BASE: dict[str, Any] = {
    "version": 1,
    "name": "base",
    "target": {"provider": "scripted", "model": "base"},
    "environment": {
        "kind": "simulated",
        "files": {"docs/a.md": "hello ${HOME}"},
        "state": {
            "documents": {"d-1": {"title": "T", "content": "C"}},
            "records": {"tickets": {"T-1": {"status": "open"}}},
        },
        "fixture": "fixtures/extra.yaml",
    },
    "tools": [
        {"name": "read_file", "allow": {"paths": ["docs/**"]}},
        {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
        {"name": "read_document", "allow": {"ids": ["d-*"]}},
        {"name": "get_record", "allow": {"tables": ["tickets"]}},
    ],
    "policy": {"network": "denied", "on_denial": "stop"},
    "conversation": {"system": "Be careful.", "turns": [{"user": "Do it."}]},
    "budgets": {"max_actions": 20, "timeout_ms": 60000},
    "outcomes": [
        {"id": "written", "file": "out/x.md", "contains": ["hello"]},
        {"id": "read", "tool_called": "read_file", "min": 1},
    ],
    "faults": [
        {"id": "f-1", "tool": "read_file", "occurrence": 1, "kind": "unavailable_tool"}
    ],
    "retry": {"max_attempts": 2},
}


def dump(data: Any) -> str:
    """Render plain data as block-style YAML."""
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.width = 4096
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def variant(change: Callable[[dict[str, Any]], object]) -> str:
    """Return the base workflow as YAML after ``change`` mutated a copy of it."""
    data = copy.deepcopy(BASE)
    change(data)
    return dump(data)
