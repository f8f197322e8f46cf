"""The tool part of the workflow JSON Schema, generated from a tool catalogue.

The shipped ``workflow.schema.json`` is this generation over the built-in catalogue,
and ``_compiled_schema.py`` its validator, generated ahead of time so that a cold
validation compiles nothing (tests keep both files equal to a fresh generation;
``python scripts/generate_workflow_schema.py`` rewrites both). The shipped validator
only says whether a document conforms: its errors carry no details, which keeps the
module small enough to load fast from source; the problems of a document that does
not conform come from validators compiled on first use (`SchemaChecker`). It is used
only for the schema it was generated from (checked by digest); a run with
user-defined tools validates against the same schema generated over its own
catalogue, compiled on first use. Only declarations are read here: names, effects
and ``allow`` keys.

The shipped validator imports nothing, fastjsonschema included, so it stays valid
whatever fastjsonschema a user has installed; its text is generated with the
version the ``test`` extra pins, which keeps the freshness test reproducible.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import pathlib
import re
from typing import TYPE_CHECKING, Any

from artemiskit.workflow import _compiled_schema
from artemiskit.workflow._interfaces import ALLOW_KEYS
from artemiskit.workflow._predicates import OPERAND_SCHEMAS
from artemiskit.workflow._schema import SchemaChecker, standalone

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = [
    "COMPILED_SCHEMA_FILE",
    "WORKFLOW_SCHEMA_FILE",
    "compiled_schema_source",
    "schema_checker_for",
    "shipped_schema_checker",
    "workflow_schema_for",
    "write_workflow_schema",
]

#: The JSON Schema of workflow version 1, shipped in the package.
WORKFLOW_SCHEMA_FILE = pathlib.Path(__file__).with_name("workflow.schema.json")
#: Its validator, generated from it with ``fastjsonschema.compile_to_code``.
COMPILED_SCHEMA_FILE = pathlib.Path(__file__).with_name("_compiled_schema.py")

_COMPILED_HEADER = '''"""Validator of workflow.schema.json (fastjsonschema {version}).

It says whether a document conforms, not why (`SchemaChecker` finds the problems).
Do not edit: ``python scripts/generate_workflow_schema.py`` rewrites this file.
"""
# ruff: noqa
# mypy: ignore-errors

SCHEMA_DIGEST = "{digest}"


class SchemaMismatch(ValueError):
    """The data does not conform (which rule it breaks is not said here)."""


def conforms(data):
    """Whether ``data`` conforms to the schema."""
    try:
        validate(data)
    except SchemaMismatch:
        return False
    return True

'''
#: What fastjsonschema's generated code imports and raises, and what replaces it.
_FASTJSONSCHEMA_IMPORT = (
    "from fastjsonschema import JsonSchemaValueException, JsonSchemaValuesException\n"
)
_DECIMAL_IMPORT = "from decimal import Decimal\n"
#: Parsed YAML holds no `decimal.Decimal`, so the check needs only a class that has
#: no instance where the generated code names it; importing `decimal` would cost a
#: cold check more than checking a whole valid document.
_DECIMAL_STAND_IN = (
    "class Decimal:\n"
    '    """No value checked here is a decimal.Decimal (parsed YAML holds none)."""\n'
)
_RAISE = re.compile(r"^( *)raise JsonSchemaValueException\(.*\)$", re.MULTILINE)

_TOOL_NAME_AT = (
    ("tool", "name"),
    ("outcome_tool_called", "tool_called"),
    ("outcome_tool_not_called", "tool_not_called"),
    ("fault", "tool"),
    ("trajectory_step", "tool"),
)
#: Where predicate keys sit beside a subject: (definition, key path to the mapping).
_PREDICATES_AT: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("outcome_file", ()),
    ("outcome_state", ()),
    ("outcome_final_response", ("properties", "final_response")),
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
    """The workflow JSON Schema: its tool part lists ``catalogue``'s tools.

    The predicate keys beside each outcome's subject come from the predicate
    table (`OPERAND_SCHEMAS`).

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
    for key, operand in OPERAND_SCHEMAS.items():
        defs[f"predicate_{key}"] = copy.deepcopy(dict(operand))
    for definition, inner in _PREDICATES_AT:
        node = defs[definition]
        for step in inner:
            node = node[step]
        node["properties"].update(
            {key: {"$ref": f"#/$defs/predicate_{key}"} for key in OPERAND_SCHEMAS}
        )
    defs["allow"]["properties"] = {
        key: {**_GLOB_LIST, "description": description}
        for key, description in ALLOW_KEYS.items()
    }
    defs["tool"]["properties"]["resource"]["properties"]["key"] = {
        "description": "Any `allow` key.",
        "enum": list(ALLOW_KEYS),
    }
    return schema


def _digest(schema: Mapping[str, Any]) -> str:
    text = json.dumps(schema, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=32)
def schema_checker_for(catalogue: Mapping[str, Any]) -> SchemaChecker:
    """The compiled workflow schema for ``catalogue`` (compiled once per catalogue).

    The schema of the built-in catalogue uses the validator shipped in
    ``_compiled_schema.py``; any other is compiled on first use.
    """
    schema = workflow_schema_for(catalogue)
    if _digest(schema) != _compiled_schema.SCHEMA_DIGEST:
        return SchemaChecker(schema)
    return shipped_schema_checker()


@functools.cache
def shipped_schema_checker() -> SchemaChecker:
    """The shipped schema (of the built-in catalogue) with its shipped validator."""
    conforms: Callable[[Any], bool] = _compiled_schema.conforms
    return SchemaChecker(_shipped(), conforms=conforms)


def compiled_schema_source(catalogue: Mapping[str, Any]) -> str:
    """The source of ``_compiled_schema.py``: the validator of ``catalogue``'s schema.

    Args:
        catalogue: Tool name → tool (the built-in catalogue for the shipped file).
    """
    import fastjsonschema  # only to generate: validation imports the shipped file

    schema = workflow_schema_for(catalogue)
    code = fastjsonschema.compile_to_code(standalone(schema, schema))
    header = _COMPILED_HEADER.format(
        version=fastjsonschema.VERSION, digest=_digest(schema)
    )
    return header + _without_details(code).rstrip() + "\n"


def _without_details(code: str) -> str:
    """The code fastjsonschema generated, each error reduced to a bare `SchemaMismatch`.

    Each raise of the generated code spells out the schema node it checked; dropped,
    the module is a third of the size, and a cold validation compiles it from
    source that much faster.
    """
    if _FASTJSONSCHEMA_IMPORT not in code or _DECIMAL_IMPORT not in code:
        raise RuntimeError("fastjsonschema's generated code changed its imports")
    lean = code.replace(_FASTJSONSCHEMA_IMPORT, "")
    lean = lean.replace(_DECIMAL_IMPORT, _DECIMAL_STAND_IN)
    lean = _RAISE.sub(r"\1raise SchemaMismatch", lean)
    lean = lean.replace("JsonSchemaValuesException", "SchemaMismatch")
    lean = lean.replace("JsonSchemaValueException", "SchemaMismatch")
    if "SchemaMismatch(" in lean or "errors.append" in lean:
        raise RuntimeError("fastjsonschema's generated code changed how it raises")
    compile(lean, str(COMPILED_SCHEMA_FILE), "exec")
    return lean


def write_workflow_schema(catalogue: Mapping[str, Any], path: pathlib.Path) -> None:
    """Write the schema generated over ``catalogue`` to ``path`` (2-space JSON)."""
    text = json.dumps(workflow_schema_for(catalogue), indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
