"""The tool part of the workflow JSON Schema, generated from a tool catalogue.

The shipped ``workflow.schema.json`` is this generation over the built-in catalogue
(a test keeps them equal; ``python scripts/generate_workflow_schema.py`` rewrites the
file). A run with user-defined tools validates against the same schema generated over
its own catalogue. Only declarations are read here: names and ``allow`` keys.
"""

from __future__ import annotations

import copy
import functools
import json
import pathlib
from typing import TYPE_CHECKING, Any

from artemiskit.tools._tool import ALLOW_KEYS
from artemiskit.workflow._schema import SchemaChecker

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "WORKFLOW_SCHEMA_FILE",
    "schema_checker_for",
    "workflow_schema_for",
    "write_workflow_schema",
]

#: The JSON Schema of workflow version 1, shipped in the package.
WORKFLOW_SCHEMA_FILE = pathlib.Path(__file__).with_name("workflow.schema.json")

_TOOL_NAME_AT = (
    ("tool", "name"),
    ("outcome_tool_called", "tool_called"),
    ("outcome_tool_not_called", "tool_not_called"),
    ("fault", "tool"),
)
_TOOL_NAME_DESCRIPTION = (
    "A tool of the built-in catalogue (SPEC 3.1) or one registered by the host."
)
_GLOB_LIST: dict[str, Any] = {
    "type": "array",
    "minItems": 1,
    "maxItems": 256,
    "items": {"type": "string", "minLength": 1, "maxLength": 512},
}


@functools.cache
def _shipped() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(
        WORKFLOW_SCHEMA_FILE.read_text(encoding="utf-8")
    )
    return loaded


def workflow_schema_for(catalogue: Mapping[str, Any]) -> dict[str, Any]:
    """The workflow JSON Schema whose tool part lists ``catalogue``'s tools.

    Args:
        catalogue: Tool name → tool, in catalogue order.
    """
    schema = copy.deepcopy(_shipped())
    defs = schema["$defs"]
    for definition, key in _TOOL_NAME_AT:
        defs[definition]["properties"][key] = {
            "description": _TOOL_NAME_DESCRIPTION,
            "enum": list(catalogue),
        }
    defs["allow"]["properties"] = {
        key: {**_GLOB_LIST, "description": description}
        for key, description in ALLOW_KEYS.items()
    }
    return schema


@functools.lru_cache(maxsize=32)
def schema_checker_for(catalogue: Mapping[str, Any]) -> SchemaChecker:
    """The compiled workflow schema for ``catalogue`` (compiled once per catalogue)."""
    return SchemaChecker(workflow_schema_for(catalogue))


def write_workflow_schema(catalogue: Mapping[str, Any], path: pathlib.Path) -> None:
    """Write the schema generated over ``catalogue`` to ``path`` (2-space JSON)."""
    text = json.dumps(workflow_schema_for(catalogue), indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
