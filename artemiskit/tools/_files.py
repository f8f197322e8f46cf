"""File tools: read, list, write and delete files of the environment."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit._common._paths import normalize_path, path_problem
from artemiskit._errors import FileOperationError
from artemiskit.tools._tool import (
    Allow,
    BuiltinTool,
    Tool,
    ToolChange,
    ToolContext,
    ToolFailure,
    ToolResult,
    digest,
    matches_any,
)
from artemiskit.workflow._interfaces import BUILTIN_INTERFACES

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["FILE_TOOLS"]


def path_allowed(allow: Allow, arguments: Mapping[str, Any]) -> str | None:
    """A file tool's allow rule: a valid path that one of ``paths`` matches."""
    path = arguments["path"]
    if path_problem(path) is not None:
        return "invalid_path"
    return (
        None
        if matches_any(allow.get("paths"), normalize_path(path))
        else ("path_not_allowed")
    )


def _directory_valid(allow: Allow, arguments: Mapping[str, Any]) -> str | None:
    """A listing is filtered, not denied; only its directory must be a valid path."""
    directory = arguments.get("directory")
    if isinstance(directory, str) and directory not in ("", ".", "./"):
        return "invalid_path" if path_problem(directory) is not None else None
    return None


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
    visible = [f for f in files if matches_any(ctx.allow.get("paths"), f)]
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
    change = ToolChange(resource="file", before=digest(before), after=digest(content))
    size = len(content.encode("utf-8"))
    return ToolResult(output={"path": path, "size": size}, change=change)


async def append_file(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Append text to a file, creating it when missing."""
    path = normalize_path(args["path"])
    try:
        before = await _read_or_none(ctx, path)
        after = (before or "") + args["content"]
        await ctx.environment.write_file(path, after)
    except FileOperationError as exc:
        raise ToolFailure(exc.reason, exc.message) from exc
    change = ToolChange(resource="file", before=digest(before), after=digest(after))
    size = len(after.encode("utf-8"))
    return ToolResult(output={"path": path, "size": size}, change=change)


async def delete_file(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Remove a file."""
    path = normalize_path(args["path"])
    try:
        before = await ctx.environment.read_file(path)
        await ctx.environment.delete_file(path)
    except FileOperationError as exc:
        raise ToolFailure(exc.reason, exc.message) from exc
    change = ToolChange(resource="file", before=digest(before), after=None)
    return ToolResult(output={"path": path, "deleted": True}, change=change)


FILE_TOOLS: tuple[Tool, ...] = (
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["read_file"],
        handler=read_file,
        allow_rule=path_allowed,
    ),
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["list_files"],
        handler=list_files,
        allow_rule=_directory_valid,
    ),
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["write_file"],
        handler=write_file,
        allow_rule=path_allowed,
    ),
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["append_file"],
        handler=append_file,
        allow_rule=path_allowed,
    ),
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["delete_file"],
        handler=delete_file,
        allow_rule=path_allowed,
    ),
)
