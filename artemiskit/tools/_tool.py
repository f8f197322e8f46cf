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
import fastjsonschema

from artemiskit._common._digests import json_digest
from artemiskit._common._glob import glob_matches
from artemiskit._errors import ToolDefinitionError
from artemiskit.environments._base import Environment
from artemiskit.tools._schemas import compile_tool_schema
from artemiskit.tools._state import LocalState

__all__ = [
    "ALLOW_KEYS",
    "Allow",
    "AllowRule",
    "BuiltinTool",
    "Effect",
    "Handler",
    "Tool",
    "ToolChange",
    "ToolContext",
    "ToolFailure",
    "ToolResource",
    "ToolResult",
    "digest",
    "matches_any",
]

Effect = Literal["read", "write"]
#: The ``allow`` of a declared tool: key → globs (only the keys the workflow gave).
Allow = Mapping[str, tuple[str, ...]]
#: A built-in tool's own allow rule: a denial reason code, or ``None`` to admit.
AllowRule = Callable[[Allow, Mapping[str, Any]], "str | None"]

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
            or inside the Docker sandbox alike).
        state: The tool's own local-state section (a JSON object), or ``None`` when
            the tool declares none. Return a new section in `ToolResult.state`.
        allow: The workflow's ``allow`` for this tool, key → globs.
        local: The detached state of the built-in document, record and message tools.
        new_id: Makes an id unique within the run from a prefix.
    """

    environment: Environment
    state: Mapping[str, Any] | None
    allow: Allow
    local: LocalState
    new_id: Callable[[str], str]


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

    def declaration(self) -> dict[str, Any]:
        """Everything about the tool except its handler, as plain JSON data."""
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

    def _validators(self) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        return _validators_of(self)

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
        check = self._validators()[0 if which == "input" else 1]
        try:
            check(value)
        except fastjsonschema.JsonSchemaValueException as exc:
            return f"{exc.rule} rule broken at {exc.name}"
        return None

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
def _validators_of(tool: Tool) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    return (
        compile_tool_schema(tool.input_schema, name=tool.name, what="input"),
        compile_tool_schema(tool.output_schema, name=tool.name, what="output"),
    )
