"""Record tools over the detached local state: get one record, update its fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from artemiskit.records._verification import StateChange
from artemiskit.tools._base import Handler, ToolContext, ToolFailure, ToolResult, digest

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["RECORD_HANDLERS"]


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
    change = StateChange(
        tool="update_record",
        resource="record",
        before=digest(before),
        after=digest(after),
    )
    return ToolResult(
        output={"table": table, "id": record_id, "fields": dict(after)},
        local=attrs.evolve(ctx.local, records=records),
        change=change,
    )


RECORD_HANDLERS: dict[str, Handler] = {
    "get_record": get_record,
    "update_record": update_record,
}
