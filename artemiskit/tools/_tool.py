"""A tool as one object: its declaration and its handler.

The declaration is what the contract and the model see; the handler is what runs.
Built-in tools and user-defined tools are the same `Tool` class. The engine admits a
call against the declaration (input schema, then the ``allow`` rule of the tool's
resource), calls the handler with a `ToolContext`, and validates the output against
the output schema before the model sees it.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

import attrs

from artemiskit._common._digests import json_digest
from artemiskit._common._glob import glob_matches
from artemiskit._common._slots import slot_builder
from artemiskit._common._tool_schemas import schema_problem, schema_validators
from artemiskit._errors import ToolDefinitionError
from artemiskit.environments._base import Environment
from artemiskit.workflow._interfaces import (
    ALLOW_KEYS,
    Effect,
    ToolInterface,
    ToolResource,
)
from artemiskit.workflow._local_state import LocalState

__all__ = [
    "new_tool_context",
    "Allow",
    "AllowRule",
    "BuiltinTool",
    "Handler",
    "Tool",
    "ToolChange",
    "ToolContext",
    "ToolFailure",
    "ToolResult",
    "digest",
    "matches_any",
]

#: The ``allow`` of a declared tool: key → globs (only the keys the workflow gave).
Allow = Mapping[str, tuple[str, ...]]
#: A built-in tool's own allow rule: a denial reason code, or ``None`` to admit.
AllowRule = Callable[[Allow, Mapping[str, Any]], "str | None"]

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


def _is_json_object(value: Any) -> bool:
    if not isinstance(value, Mapping):
        return False
    try:
        json.dumps(dict(value), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def digest(value: Any) -> str | None:
    """A sha256 over the canonical JSON of ``value`` (``None`` stays ``None``)."""
    return None if value is None else json_digest(value)


def matches_any(patterns: tuple[str, ...] | list[str] | None, value: str) -> bool:
    """Whether any glob of ``patterns`` matches (no patterns: nothing matches).

    Decisions on a tuple of globs are remembered for recent values of at most
    `_REMEMBERED_LENGTH` characters (longer text is never kept).
    """
    if patterns is None:
        return False
    if isinstance(patterns, tuple) and len(value) <= _REMEMBERED_LENGTH:
        return _matches_any(patterns, value)
    return any(glob_matches(p, value) for p in patterns)


_REMEMBERED_LENGTH = 1024


@functools.lru_cache(maxsize=4096)
def _matches_any(patterns: tuple[str, ...], value: str) -> bool:
    return any(glob_matches(p, value) for p in patterns)


@attrs.frozen(kw_only=True)
class ToolContext:
    """What a handler may use.

    Attributes:
        environment: The run's environment; the only way to reach files (simulated
            or inside the Docker sandbox alike). A user-defined tool gets a handle
            for this one call: read-only for a ``read`` tool, never closable, and
            dead once the call returned.
        state: A copy of the tool's own local-state section (a JSON object), or
            ``None`` when the tool declares none: changing it changes nothing;
            a ``write`` tool returns the new section in `ToolResult.state`.
        allow: The workflow's ``allow`` for this tool, key → globs.
        local: The detached state of the built-in document, record and message
            tools (a copy, for a user-defined tool).
        new_id: Makes an id unique within the run from a prefix.
    """

    environment: Environment
    state: Mapping[str, Any] | None
    allow: Allow
    local: LocalState
    new_id: Callable[[str], str]


#: `ToolContext` from its fields, in order (one per tool call; `_common._slots`).
new_tool_context = slot_builder(ToolContext)


@attrs.frozen(kw_only=True)
class ToolChange:
    """Evidence of one successful write: digests only, never the content."""

    resource: Literal["file", "record", "draft", "approval", "delegation", "tool_state"]
    before: str | None
    after: str | None


@attrs.frozen(kw_only=True)
class ToolResult:
    """A successful call.

    Attributes:
        output: What the model receives; must satisfy the tool's output schema.
        state: The tool's new local-state section (``None``: unchanged).
        local: The next detached state of the built-in tools (``None``: unchanged).
        change: State-change evidence of a write; a changed ``state`` section of a
            write tool produces it when the handler gives none.
    """

    output: dict[str, Any]
    state: Mapping[str, Any] | None = None
    local: LocalState | None = None
    change: ToolChange | None = None


class ToolFailure(Exception):
    """A tool request that failed in a way the model is told about.

    ``code`` is a stable reason code; ``message`` is safe to show to the model (it is
    never put in records).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


Handler = Callable[[Mapping[str, Any], ToolContext], Awaitable[ToolResult]]


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Tool:
    """One tool: declaration, version and handler.

    Attributes:
        name: What a workflow declares and the model calls (``[a-z][a-z0-9_]*``).
        description: What the model is told the tool does.
        input_schema: JSON Schema (an object schema) of the arguments.
        output_schema: JSON Schema of a successful output.
        effect: ``read`` never changes state; ``write`` may (a pending write blocks
            resume like any possibly-effectful call).
        handler: ``async (arguments, context) -> ToolResult``.
        resource: The ``allow`` key checked before any execution, or ``None``.
        version: Part of the checkpoint binding: a resume under another version of
            the tool is refused.
        state: The initial local-state section the tool owns (a JSON object), or
            ``None`` for none. It is session state (checkpointed) and appears in the
            final state under ``tools.<name>``.
        optional_allow: Further ``allow`` keys a declaration may give (built-ins).
        allow_rule: A built-in's own allow rule, used instead of ``resource``'s.

    Raises:
        ToolDefinitionError: A field is invalid (name, schemas, resource).
    """

    name: str
    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any]
    effect: Effect
    handler: Handler
    resource: ToolResource | None = None
    version: str = "1"
    state: Mapping[str, Any] | None = None
    optional_allow: tuple[str, ...] = ()
    allow_rule: AllowRule | None = None

    def __attrs_post_init__(self) -> None:
        name = self.name
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ToolDefinitionError(
                "a tool name must match [a-z][a-z0-9_]* (at most 64 characters)",
                reason="invalid_tool",
            )
        if self.effect not in ("read", "write"):
            raise ToolDefinitionError(
                f"tool {name!r}: effect must be read or write", reason="invalid_tool"
            )
        if not callable(self.handler):
            raise ToolDefinitionError(
                f"tool {name!r}: handler must be an async callable",
                reason="invalid_tool",
            )
        if not isinstance(self.version, str) or not self.version:
            raise ToolDefinitionError(
                f"tool {name!r}: version must be a non-empty string",
                reason="invalid_tool",
            )
        if self.state is not None and not _is_json_object(self.state):
            raise ToolDefinitionError(
                f"tool {name!r}: state must be a JSON object or None",
                reason="invalid_tool",
            )
        if self.input_schema.get("type") != "object":
            raise ToolDefinitionError(
                f"tool {name!r}: the input schema must describe an object",
                reason="invalid_tool",
            )
        for key in self.allow_keys:
            if key not in ALLOW_KEYS:
                known = ", ".join(ALLOW_KEYS)
                raise ToolDefinitionError(
                    f"tool {name!r}: {key!r} is not an allow key (known: {known})",
                    reason="invalid_tool",
                )
        argument = None if self.resource is None else self.resource.argument
        if argument is not None:
            properties = self.input_schema.get("properties", {})
            required = self.input_schema.get("required", ())
            if (
                argument not in required
                or properties.get(argument, {}).get("type") != "string"
            ):
                raise ToolDefinitionError(
                    f"tool {name!r}: the resource argument {argument!r} must be a "
                    "required string argument",
                    reason="invalid_tool",
                )
        self._check_schemas()

    def __repr__(self) -> str:
        return (
            f"Tool(name={self.name!r}, effect={self.effect!r}, "
            f"version={self.version!r})"
        )

    @property
    def kind(self) -> Effect:
        """The effect, under its catalogue-table name (SPEC 3.1)."""
        return self.effect

    @property
    def allow_required(self) -> tuple[str, ...]:
        """``allow`` keys a declaration must give."""
        return () if self.resource is None else (self.resource.key,)

    @property
    def allow_keys(self) -> tuple[str, ...]:
        """Every ``allow`` key this tool understands."""
        return self.allow_required + self.optional_allow

    @property
    def interface(self) -> ToolInterface:
        """The tool without its handler: what the contract and the model see."""
        return _interface_of(self)

    @classmethod
    def implementing(
        cls,
        interface: ToolInterface,
        *,
        handler: Handler,
        allow_rule: AllowRule | None = None,
    ) -> Tool:
        """The tool that runs ``handler`` for ``interface``.

        Args:
            interface: The declaration (a built-in's comes from the contract).
            handler: ``async (arguments, context) -> ToolResult``.
            allow_rule: A built-in's own allow rule, used instead of the
                resource's.

        Raises:
            ToolDefinitionError: The interface is not a valid tool.
        """
        return cls(
            name=interface.name,
            description=interface.description,
            input_schema=interface.input_schema,
            output_schema=interface.output_schema,
            effect=interface.effect,
            handler=handler,
            resource=interface.resource,
            version=interface.version,
            state=interface.state,
            optional_allow=interface.optional_allow,
            allow_rule=allow_rule,
        )

    def declaration(self) -> dict[str, Any]:
        """Everything about the tool except its handler, as plain JSON data."""
        return self.interface.declaration()

    def _validators(self) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        return schema_validators(self)

    def _check_schemas(self) -> None:
        self._validators()

    def schema_problem(
        self, which: Literal["input", "output"], value: Any
    ) -> str | None:
        """Check arguments or an output against the tool's schema.

        Args:
            which: ``input`` for arguments, ``output`` for a result.
            value: The decoded JSON value.

        Returns:
            ``None`` when the value conforms, else a one-line description that names
            the offending key but never repeats the value.
        """
        return schema_problem(self._validators(), which, value)

    def allow_problem(self, allow: Allow, arguments: Mapping[str, Any]) -> str | None:
        """A denial reason code if the call's resource is outside ``allow``."""
        if self.allow_rule is not None:
            return self.allow_rule(allow, arguments)
        if self.resource is None or self.resource.argument is None:
            return None
        value = arguments[self.resource.argument]
        if matches_any(allow.get(self.resource.key), value):
            return None
        return self.resource.denial


@attrs.frozen(kw_only=True, repr=False, eq=False)
class BuiltinTool(Tool):
    """A tool of the built-in catalogue: its schemas compile on first use.

    A user-defined `Tool` compiles its schemas when it is made, so an invalid one
    is refused at once; the built-ins' are known to compile (their tests use every
    one), and loading the catalogue, as a cold validation does, compiles nothing.
    """

    def _check_schemas(self) -> None:
        return None


@functools.cache
def _interface_of(tool: Tool) -> ToolInterface:
    return ToolInterface(
        name=tool.name,
        description=tool.description,
        input_schema=tool.input_schema,
        output_schema=tool.output_schema,
        effect=tool.effect,
        resource=tool.resource,
        version=tool.version,
        state=tool.state,
        optional_allow=tool.optional_allow,
    )
