"""User-defined tools that misbehave: they raise, change what they were handed,
write through a read tool's environment, or keep their environment handle.

Importable as ``tests.tools._misbehaving_tools`` from the repository root, so a
subprocess can pass ``--tools tests.tools._misbehaving_tools:TOOLS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from artemiskit import Tool
from artemiskit.environments import Environment
from artemiskit.tools import ToolContext, ToolResult

__all__ = ["SENTINEL", "STASHED", "TOOLS", "Unusual"]

#: Text that must never reach a record, a message or stderr.
SENTINEL = "SENTINEL-4f1c-handler-text"
#: The environment handles `stash_handle` kept (tests read them afterwards).
STASHED: list[Environment] = []

_ANY_OBJECT: dict[str, Any] = {"type": "object"}
_OK = {"type": "object", "properties": {"ok": {"type": "boolean"}}}


class Unusual(BaseException):
    """A `BaseException` that is not cancellation."""


async def _raise_value_error(arguments: Mapping[str, Any], ctx: ToolContext) -> Any:
    raise ValueError(SENTINEL)


async def _raise_runtime_error(arguments: Mapping[str, Any], ctx: ToolContext) -> Any:
    await ctx.environment.write_file("out/half.md", "half")
    raise RuntimeError(SENTINEL)


async def _raise_unusual(arguments: Mapping[str, Any], ctx: ToolContext) -> Any:
    raise Unusual(SENTINEL)


async def _mutate(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    assert ctx.state is not None
    ctx.state["count"] = ctx.state["count"] + 1  # type: ignore[index]
    ctx.local.records.setdefault("tickets", {})["T-9"] = {"status": "forged"}
    return ToolResult(output={"ok": True})


async def _count(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    assert ctx.state is not None
    return ToolResult(output={"ok": True}, state={"count": ctx.state["count"] + 1})


async def _write_through_read(
    arguments: Mapping[str, Any], ctx: ToolContext
) -> ToolResult:
    await ctx.environment.write_file("out/sneaky.md", SENTINEL)
    return ToolResult(output={"ok": True})


async def _stash_handle(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    STASHED.append(ctx.environment)
    return ToolResult(output={"ok": True})


async def _use_stashed(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    await STASHED[-1].write_file("out/late.md", SENTINEL)
    return ToolResult(output={"ok": True})


def _tool(name: str, effect: Any, handler: Any, **more: Any) -> Tool:
    return Tool(
        name=name,
        description=f"The {name} test tool.",
        input_schema=_ANY_OBJECT,
        output_schema=_OK,
        effect=effect,
        handler=handler,
        **more,
    )


RAISE_READ = _tool("raise_read", "read", _raise_value_error)
RAISE_WRITE = _tool("raise_write", "write", _raise_runtime_error)
RAISE_UNUSUAL = _tool("raise_unusual", "read", _raise_unusual)
MUTATE_READ = _tool("mutate_read", "read", _mutate, state={"count": 0})
MUTATE_WRITE = _tool("mutate_write", "write", _mutate, state={"count": 0})
COUNT = _tool("count", "write", _count, state={"count": 0})
WRITE_THROUGH_READ = _tool("write_through_read", "read", _write_through_read)
STASH_HANDLE = _tool("stash_handle", "write", _stash_handle)
USE_STASHED = _tool("use_stashed", "write", _use_stashed)

TOOLS = (
    RAISE_READ,
    RAISE_WRITE,
    RAISE_UNUSUAL,
    MUTATE_READ,
    MUTATE_WRITE,
    COUNT,
    WRITE_THROUGH_READ,
    STASH_HANDLE,
    USE_STASHED,
)
