"""Record tools over the detached local state: get one record, update its fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

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

__all__ = ["RECORD_TOOLS"]


def record_allowed(allow: Allow, arguments: Mapping[str, Any]) -> str | None:
    """The table must match ``tables``; ``ids`` and ``fields``, when given, too."""
    if not matches_any(allow.get("tables"), arguments["table"]):
        return "table_not_allowed"
    ids = allow.get("ids")
    if ids is not None and not matches_any(ids, arguments["id"]):
        return "id_not_allowed"
    fields = allow.get("fields")
    if fields is not None and "fields" in arguments:
        for field in arguments["fields"]:
            if not matches_any(fields, field):
                return "field_not_allowed"
    return None


async def get_record(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Return one record's fields."""
    table, record_id = args["table"], args["id"]
    fields = ctx.local.records.get(table, {}).get(record_id)
    if fields is None:
        raise ToolFailure("not_found", "no record has this table and id")
    return ToolResult(output={"table": table, "id": record_id, "fields": dict(fields)})


async def update_record(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Set fields of one record, creating it when missing."""
    table, record_id = args["table"], args["id"]
    before = ctx.local.records.get(table, {}).get(record_id)
    after = {**(before or {}), **dict(args["fields"])}
    records = {name: dict(rows) for name, rows in ctx.local.records.items()}
    records.setdefault(table, {})[record_id] = after
    change = ToolChange(resource="record", before=digest(before), after=digest(after))
    return ToolResult(
        output={"table": table, "id": record_id, "fields": dict(after)},
        local=attrs.evolve(ctx.local, records=records),
        change=change,
    )


RECORD_TOOLS: tuple[Tool, ...] = (
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["get_record"],
        handler=get_record,
        allow_rule=record_allowed,
    ),
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["update_record"],
        handler=update_record,
        allow_rule=record_allowed,
    ),
)
