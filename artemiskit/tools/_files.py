"""File tools: read, list, write and delete files of the environment."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit._common._paths import normalize_path
from artemiskit._errors import FileOperationError
from artemiskit.records._verification import StateChange
from artemiskit.tools._allow import matches_any
from artemiskit.tools._base import Handler, ToolContext, ToolFailure, ToolResult, digest

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["FILE_HANDLERS"]


async def _read_or_none(ctx: ToolContext, path: str) -> str | None:
    try:
        return await ctx.environment.read_file(path)
    except FileOperationError as exc:
        if exc.reason in ("not_found", "is_directory"):
            return None
        raise


async def read_file(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Return a file's text."""
    path = normalize_path(args["path"])
    try:
        content = await ctx.environment.read_file(path)
    except FileOperationError as exc:
        raise ToolFailure(exc.reason, exc.message) from exc
    return ToolResult(output={"path": path, "content": content})


async def list_files(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """List allowed files, optionally under one directory."""
    directory = args.get("directory")
    if directory in (None, "", ".", "./"):
        directory = None
    else:
        directory = normalize_path(directory)
    try:
        files = await ctx.environment.list_files(directory)
    except FileOperationError as exc:
        raise ToolFailure(exc.reason, exc.message) from exc
    visible = [f for f in files if matches_any(ctx.allow.paths, f)]
    return ToolResult(output={"files": visible})


async def write_file(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Create or replace a file."""
    path = normalize_path(args["path"])
    content: str = args["content"]
    try:
        before = await _read_or_none(ctx, path)
        await ctx.environment.write_file(path, content)
    except FileOperationError as exc:
        raise ToolFailure(exc.reason, exc.message) from exc
    change = StateChange(
        tool="write_file", resource="file", before=digest(before), after=digest(content)
    )
    size = len(content.encode("utf-8"))
    return ToolResult(output={"path": path, "size": size}, change=change)


async def delete_file(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Remove a file."""
    path = normalize_path(args["path"])
    try:
        before = await ctx.environment.read_file(path)
        await ctx.environment.delete_file(path)
    except FileOperationError as exc:
        raise ToolFailure(exc.reason, exc.message) from exc
    change = StateChange(
        tool="delete_file", resource="file", before=digest(before), after=None
    )
    return ToolResult(output={"path": path, "deleted": True}, change=change)


FILE_HANDLERS: dict[str, Handler] = {
    "read_file": read_file,
    "list_files": list_files,
    "write_file": write_file,
    "delete_file": delete_file,
}
