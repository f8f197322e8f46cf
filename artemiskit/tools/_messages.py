"""Local-only communication tools.

Drafts are never sent, approvals stay pending, and delegations are records that no
agent runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import attrs

from artemiskit.tools._tool import (
    BuiltinTool,
    Tool,
    ToolChange,
    ToolContext,
    ToolResult,
    digest,
)
from artemiskit.workflow._interfaces import BUILTIN_INTERFACES
from artemiskit.workflow._local_state import Approval, Delegation, Draft

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["MESSAGE_TOOLS"]


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
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["draft_message"], handler=draft_message
    ),
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["request_approval"], handler=request_approval
    ),
    BuiltinTool.implementing(
        BUILTIN_INTERFACES["delegate_task"], handler=delegate_task
    ),
)
