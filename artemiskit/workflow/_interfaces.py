"""Tool interfaces: what the contract knows of a tool, without its handler.

A workflow declares tools by name and grants them ``allow`` keys; validating it
needs each tool's effect, resource, ``allow`` keys and schemas, never the code that
runs. So the contract owns these declarations: `ToolInterface`, the one table of
`ALLOW_KEYS`, `Effect`, and the built-in tools' interfaces as data
(``builtin_tools.json``, read by `_builtin_tools`). ``artemiskit.tools`` imports this
module and adds handlers (a `Tool` is an interface plus a handler); the contract
never imports a tool.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

import attrs

from artemiskit.workflow._builtin_tools import builtin_tool_data

__all__ = [
    "ALLOW_KEYS",
    "BUILTIN_INTERFACES",
    "Effect",
    "ToolInterface",
    "ToolResource",
]

Effect = Literal["read", "write"]

#: Every ``allow`` key a tool may use as its resource, with what its globs match.
ALLOW_KEYS: Mapping[str, str] = {
    "paths": "Path globs (`*` within a segment, `**` across segments).",
    "ids": "Document or record id globs.",
    "tables": "Record table globs.",
    "fields": "Record field globs `update_record` may set.",
    "recipients": "Recipient address globs for drafts.",
    "actions": "Action globs for approval requests.",
    "assignees": "Assignee globs for delegated tasks.",
}


@attrs.frozen(kw_only=True)
class ToolResource:
    """Which ``allow`` key a tool's calls are checked against, from which argument.

    Attributes:
        key: The ``allow`` key (one of `ALLOW_KEYS`); a declaration must give it.
        argument: The required string argument whose value must match one of the
            key's globs; ``None`` when the handler filters by the globs itself.
        denial: The reason code of a call whose resource is outside ``allow``.
    """

    key: str
    argument: str | None = None
    denial: str = "resource_not_allowed"


@attrs.frozen(kw_only=True, repr=False, eq=False)
class ToolInterface:
    """One tool as the contract and the model see it: everything but the handler.

    Compared by identity, like `Tool` (its schemas are mappings).

    Attributes:
        name: What a workflow declares and the model calls.
        description: What the model is told the tool does.
        input_schema: JSON Schema (an object schema) of the arguments.
        output_schema: JSON Schema of a successful output.
        effect: ``read`` never changes state; ``write`` may.
        resource: The ``allow`` key checked before any execution, or ``None``.
        version: Part of the checkpoint binding.
        state: The initial local-state section the tool owns, or ``None``.
        optional_allow: Further ``allow`` keys a declaration may give.
    """

    name: str
    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any]
    effect: Effect
    resource: ToolResource | None = None
    version: str = "1"
    state: Mapping[str, Any] | None = None
    optional_allow: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"ToolInterface(name={self.name!r}, effect={self.effect!r})"

    @property
    def allow_required(self) -> tuple[str, ...]:
        """``allow`` keys a declaration must give."""
        return () if self.resource is None else (self.resource.key,)

    @property
    def allow_keys(self) -> tuple[str, ...]:
        """Every ``allow`` key this tool understands."""
        return self.allow_required + self.optional_allow

    def declaration(self) -> dict[str, Any]:
        """The interface as plain JSON data (what checkpoints bind by digest)."""
        resource = None
        if self.resource is not None:
            resource = {"key": self.resource.key, "argument": self.resource.argument}
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": dict(self.input_schema),
            "output_schema": dict(self.output_schema),
            "effect": self.effect,
            "resource": resource,
            "optional_allow": list(self.optional_allow),
            "version": self.version,
            "state": None if self.state is None else dict(self.state),
        }

    def schema_problem(
        self, which: Literal["input", "output"], value: Any
    ) -> str | None:
        """Check arguments or an output against the interface's schema.

        Args:
            which: ``input`` for arguments, ``output`` for a result.
            value: The decoded JSON value.

        Returns:
            ``None`` when the value conforms, else a one-line description that names
            the offending key but never repeats the value.
        """
        from artemiskit._common import _tool_schemas

        validators = _tool_schemas.schema_validators(self)
        return _tool_schemas.schema_problem(validators, which, value)


def _interface(data: Mapping[str, Any]) -> ToolInterface:
    resource = data["resource"]
    return ToolInterface(
        name=data["name"],
        description=data["description"],
        input_schema=data["input_schema"],
        output_schema=data["output_schema"],
        effect=cast("Effect", data["effect"]),
        resource=None if resource is None else ToolResource(**resource),
        version=data["version"],
        state=data["state"],
        optional_allow=tuple(data["optional_allow"]),
    )


#: The built-in tools' interfaces by name, in catalogue order.
BUILTIN_INTERFACES: Mapping[str, ToolInterface] = {
    entry["name"]: _interface(entry) for entry in builtin_tool_data()
}
