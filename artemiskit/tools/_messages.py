"""Local-only communication tools.

Drafts are never sent, approvals stay pending, and delegations are records that no
agent runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import attrs

from artemiskit.tools._state import Approval, Delegation, Draft
from artemiskit.tools._tool import (
    BuiltinTool,
    Tool,
    ToolChange,
    ToolContext,
    ToolResource,
    ToolResult,
    digest,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["MESSAGE_TOOLS"]

_SHORT: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 256}


def _schema(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _kept(
    ctx: ToolContext,
    resource: Literal["draft", "approval", "delegation"],
    entry: Draft | Approval | Delegation,
) -> ToolResult:
    """Append ``entry`` to its local list; the change evidence is its digest."""
    collection = f"{resource}s"
    grown: dict[str, Any] = {collection: (*getattr(ctx.local, collection), entry)}
    change = ToolChange(
        resource=resource, before=None, after=digest(attrs.asdict(entry))
    )
    return ToolResult(
        output={f"{resource}_id": entry.id, "status": entry.status},
        local=attrs.evolve(ctx.local, **grown),
        change=change,
    )


async def draft_message(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Keep a local draft; nothing is sent."""
    draft = Draft(
        id=ctx.new_id("draft"),
        to=args["to"],
        subject=args["subject"],
        body=args["body"],
    )
    return _kept(ctx, "draft", draft)


async def request_approval(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """File a local approval request that stays pending."""
    approval = Approval(
        id=ctx.new_id("approval"), action=args["action"], reason=args["reason"]
    )
    return _kept(ctx, "approval", approval)


async def delegate_task(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Record a delegated task; no agent runs it."""
    delegation = Delegation(
        id=ctx.new_id("delegation"), assignee=args["assignee"], task=args["task"]
    )
    return _kept(ctx, "delegation", delegation)


MESSAGE_TOOLS: tuple[Tool, ...] = (
    BuiltinTool(
        name="draft_message",
        description="Write a local draft message. Drafts are never sent.",
        input_schema=_schema(
            {
                "to": {"type": "string", "minLength": 3, "maxLength": 320},
                "subject": {"type": "string", "maxLength": 998},
                "body": {"type": "string"},
            }
        ),
        output_schema=_schema({"draft_id": _SHORT, "status": {"const": "draft"}}),
        effect="write",
        handler=draft_message,
        resource=ToolResource(
            key="recipients", argument="to", denial="recipient_not_allowed"
        ),
    ),
    BuiltinTool(
        name="request_approval",
        description=(
            "File a local approval request. It stays pending; nothing approves it."
        ),
        input_schema=_schema({"action": _SHORT, "reason": {"type": "string"}}),
        output_schema=_schema({"approval_id": _SHORT, "status": {"const": "pending"}}),
        effect="write",
        handler=request_approval,
        resource=ToolResource(
            key="actions", argument="action", denial="action_not_allowed"
        ),
    ),
    BuiltinTool(
        name="delegate_task",
        description=(
            "Record a task for another assignee. It stays a local pending record; "
            "no agent runs."
        ),
        input_schema=_schema({"assignee": _SHORT, "task": {"type": "string"}}),
        output_schema=_schema(
            {"delegation_id": _SHORT, "status": {"const": "pending"}}
        ),
        effect="write",
        handler=delegate_task,
        resource=ToolResource(
            key="assignees", argument="assignee", denial="assignee_not_allowed"
        ),
    ),
)
