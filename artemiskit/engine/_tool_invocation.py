"""Invoking one tool handler: its context, its output check, its state section.

The single place where the engine calls a tool (built-in or user-defined): a
user-defined handler gets a handle on the environment (`ToolEnvironment`:
read-only for a ``read`` tool, dead once the call returned) and copies of its own
local-state section and of the local state (the built-in handlers, trusted, get
them as they are), and the declaration's ``allow``; its output must satisfy the
tool's output schema and its new section must be a JSON object, else the attempt is
`MalformedOutputError` (``invalid_evidence``, never shown to the model). Only a
``write`` tool's returned section or local state changes state: changing the copies
it was handed changes nothing.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit.engine._tool_environment import ToolEnvironment
from artemiskit.records._verification import StateChange
from artemiskit.tools._tool import (
    BuiltinTool,
    Tool,
    ToolChange,
    ToolResult,
    digest,
    new_tool_context,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from artemiskit.environments._base import Environment
    from artemiskit.workflow._local_state import LocalState
    from artemiskit.workflow._model import Workflow

__all__ = ["Invoked", "MalformedOutputError", "initial_sections", "invoke_tool"]

_context = new_tool_context


class MalformedOutputError(Exception):
    """A handler returned something its declaration does not allow."""


class Invoked:
    """A successful call: the output, the next local state, the change evidence.

    ``encoded`` is the output's JSON text (non-ASCII kept), when it was encoded
    while being checked. A per-call scratch object: a plain slotted class.
    """

    __slots__ = ("change", "encoded", "local", "output")

    def __init__(
        self,
        *,
        output: dict[str, Any],
        local: LocalState | None,
        change: StateChange | None,
        encoded: str | None = None,
    ) -> None:
        self.output = output
        self.local = local
        self.change = change
        self.encoded = encoded


def initial_sections(
    catalogue: Mapping[str, Tool], workflow: Workflow
) -> dict[str, dict[str, Any]]:
    """A fresh copy of the initial section of each declared tool that owns one."""
    return {
        declared.name: json.loads(json.dumps(dict(tool.state)))
        for declared in workflow.tools
        if (tool := catalogue.get(declared.name)) is not None and tool.state is not None
    }


#: One encoder for every output (``json.dumps`` with options builds one per call).
_ENCODER = json.JSONEncoder(allow_nan=False, ensure_ascii=False)


def _json_object(value: Any) -> bool:
    return _encoded_object(value) is not None


def _encoded_object(value: Any) -> str | None:
    """``value``'s JSON text if it is a JSON object, else ``None``."""
    if not isinstance(value, dict):
        return None
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError, RecursionError):
        return None


async def invoke_tool(
    tool: Tool,
    arguments: Mapping[str, Any],
    *,
    environment: Environment,
    local: LocalState,
    allow: Mapping[str, tuple[str, ...]],
    new_id: Callable[[str], str],
) -> Invoked:
    """Run ``tool``'s handler once and check what it returned.

    Raises:
        ToolFailure: The handler failed in a way the model is told about.
        FileOperationError: An environment file request was refused.
        MalformedOutputError: The output breaks the output schema, or the new
            section is not a JSON object.
    """
    section = local.sections.get(tool.name)
    write = tool.effect == "write"
    if isinstance(tool, BuiltinTool):
        # trusted: changes nothing it reads, keeps no handle, writes only if write
        context = _context(environment, section, allow, local, new_id)
        result = await tool.handler(arguments, context)
    else:
        handle = ToolEnvironment(environment, writable=write)
        context = _context(
            handle,
            None if section is None else copy.deepcopy(section),
            allow,
            copy.deepcopy(local),
            new_id,
        )
        try:
            result = await tool.handler(arguments, context)
        finally:
            handle.retire()
    if not isinstance(result, ToolResult):
        raise MalformedOutputError(tool.name)
    output = result.output
    encoded = _encoded_object(output)
    if encoded is None or tool.schema_problem("output", output) is not None:
        raise MalformedOutputError(tool.name)
    after_local = result.local
    change = result.change
    if not write and (after_local is not None or result.state is not None):
        raise MalformedOutputError(tool.name)  # a read tool changes no state
    if result.state is not None:
        new_section = result.state
        if tool.state is None or not _json_object(new_section):
            raise MalformedOutputError(tool.name)
        base = after_local or local
        after_local = attrs.evolve(
            base,
            sections={**base.sections, tool.name: copy.deepcopy(dict(new_section))},
        )
        if change is None and new_section != section:
            change = ToolChange(
                resource="tool_state", before=digest(section), after=digest(new_section)
            )
    evidence = None
    if change is not None and write:
        evidence = StateChange(
            tool=tool.name,
            resource=change.resource,
            before=change.before,
            after=change.after,
        )
    return Invoked(output=output, local=after_local, change=evidence, encoded=encoded)
