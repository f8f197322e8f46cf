"""The built-in tool catalogue (SPEC 3.1): names, kinds, allow keys and JSON Schemas.

The table lives in ``catalogue.json`` beside this module so that editors and other
languages can read it too; it is loaded once and each schema is compiled once.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, Literal

import attrs
import fastjsonschema

__all__ = ["CATALOGUE", "ToolSpec", "schema_problem"]


@attrs.frozen(kw_only=True)
class ToolSpec:
    """One catalogue tool as the model and the policy see it.

    Attributes:
        name: The tool name a workflow declares.
        kind: ``read`` tools never change state; ``write`` tools do.
        family: The catalogue module that implements it.
        description: What the model is told the tool does.
        allow_required: ``allow`` keys a declaration must give.
        allow_optional: ``allow`` keys a declaration may also give.
        input_schema: JSON Schema of the arguments.
        output_schema: JSON Schema of a successful result.
    """

    name: str
    kind: Literal["read", "write"]
    family: str
    description: str
    allow_required: tuple[str, ...]
    allow_optional: tuple[str, ...]
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any]

    @property
    def allow_keys(self) -> tuple[str, ...]:
        """Every ``allow`` key this tool understands."""
        return self.allow_required + self.allow_optional


def _load() -> dict[str, ToolSpec]:
    raw = json.loads(
        resources.files(__package__).joinpath("catalogue.json").read_text("utf-8")
    )
    return {
        name: ToolSpec(
            name=name,
            kind=entry["kind"],
            family=entry["family"],
            description=entry["description"],
            allow_required=tuple(entry["allow_required"]),
            allow_optional=tuple(entry["allow_optional"]),
            input_schema=entry["input"],
            output_schema=entry["output"],
        )
        for name, entry in raw["tools"].items()
    }


CATALOGUE: Mapping[str, ToolSpec] = _load()


@functools.cache
def _validator(tool: str, which: Literal["input", "output"]) -> Callable[[Any], Any]:
    spec = CATALOGUE[tool]
    schema = spec.input_schema if which == "input" else spec.output_schema
    return fastjsonschema.compile(dict(schema))


def schema_problem(
    tool: str, which: Literal["input", "output"], value: Any
) -> str | None:
    """Check a tool's arguments or result against its schema.

    Args:
        tool: A catalogue tool name.
        which: ``input`` for arguments, ``output`` for a result.
        value: The decoded JSON value.

    Returns:
        ``None`` when the value conforms, else a one-line description that names
        the offending key but never repeats the value.
    """
    try:
        _validator(tool, which)(value)
    except fastjsonschema.JsonSchemaValueException as exc:
        return f"{exc.rule} rule broken at {exc.name}"
    return None
