"""Two user-defined tools for examples/custom_tool/workflow.yaml.

Register them with ``ArtemisKit(tools=TOOLS)`` or, for the CLI, with
``--tools examples.custom_tool.order_tools:TOOLS`` (run from the repository root).

- ``lookup_order {id}`` (read, resource ``ids`` from ``id``) reads
  ``orders/<id>.json`` through the environment, so it works in the simulated
  environment and in the Docker sandbox alike.
- ``file_refund {order_id, amount, reason}`` (write, resource ``ids`` from
  ``order_id``) keeps refund requests in its own local-state section, which is
  checkpointed with the session and appears in the final state under
  ``tools.file_refund``. Nothing is paid out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from artemiskit import FileOperationError, Tool
from artemiskit.tools import ToolContext, ToolFailure, ToolResource, ToolResult

ORDER_ID = {"type": "string", "pattern": "^[A-Z]-[0-9]{1,8}$"}


async def lookup_order(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Return an order's status and total from ``orders/<id>.json``."""
    order_id = arguments["id"]
    try:
        text = await ctx.environment.read_file(f"orders/{order_id}.json")
    except FileOperationError as exc:
        raise ToolFailure(exc.reason, "no such order") from exc
    order = json.loads(text)
    return ToolResult(
        output={"id": order_id, "status": order["status"], "total": order["total"]}
    )


async def file_refund(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Keep a pending refund request in this tool's own state section."""
    assert ctx.state is not None  # the tool declares a section
    refund = {
        "id": ctx.new_id("refund"),
        "order_id": arguments["order_id"],
        "amount": arguments["amount"],
        "status": "pending",
    }
    refunds = [*ctx.state["refunds"], refund]
    return ToolResult(
        output={"refund_id": refund["id"], "status": "pending"},
        state={"refunds": refunds},
    )


LOOKUP_ORDER = Tool(
    name="lookup_order",
    description="Look up an order by id: its status and total.",
    input_schema={
        "type": "object",
        "properties": {"id": ORDER_ID},
        "required": ["id"],
        "additionalProperties": False,
    },
    output_schema={
        "type": "object",
        "properties": {
            "id": ORDER_ID,
            "status": {"enum": ["open", "shipped", "delivered"]},
            "total": {"type": "number", "minimum": 0},
        },
        "required": ["id", "status", "total"],
        "additionalProperties": False,
    },
    effect="read",
    handler=lookup_order,
    resource=ToolResource(key="ids", argument="id"),
    version="1",
)

FILE_REFUND = Tool(
    name="file_refund",
    description="File a refund request; it stays pending, nothing is paid.",
    input_schema={
        "type": "object",
        "properties": {
            "order_id": ORDER_ID,
            "amount": {"type": "number", "exclusiveMinimum": 0},
            "reason": {"type": "string", "maxLength": 500},
        },
        "required": ["order_id", "amount", "reason"],
        "additionalProperties": False,
    },
    output_schema={
        "type": "object",
        "properties": {
            "refund_id": {"type": "string"},
            "status": {"const": "pending"},
        },
        "required": ["refund_id", "status"],
        "additionalProperties": False,
    },
    effect="write",
    handler=file_refund,
    resource=ToolResource(key="ids", argument="order_id"),
    version="1",
    state={"refunds": []},
)

TOOLS = (LOOKUP_ORDER, FILE_REFUND)
