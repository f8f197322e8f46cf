"""Local-only communication tools.

Drafts are never sent, approvals stay pending, and delegations are records that no
agent runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from artemiskit.engine._state import Approval, Delegation, Draft, StateChange
from artemiskit.tools._base import Handler, ToolContext, ToolResult, digest

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["MESSAGE_HANDLERS"]


async def draft_message(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Keep a local draft; nothing is sent."""
    draft = Draft(
        id=ctx.new_id("draft"),
        to=args["to"],
        subject=args["subject"],
        body=args["body"],
    )
    change = StateChange(
        tool="draft_message",
        resource="draft",
        before=None,
        after=digest(attrs.asdict(draft)),
    )
    return ToolResult(
        output={"draft_id": draft.id, "status": "draft"},
        local=attrs.evolve(ctx.local, drafts=(*ctx.local.drafts, draft)),
        change=change,
    )


async def request_approval(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """File a local approval request that stays pending."""
    approval = Approval(
        id=ctx.new_id("approval"), action=args["action"], reason=args["reason"]
    )
    change = StateChange(
        tool="request_approval",
        resource="approval",
        before=None,
        after=digest(attrs.asdict(approval)),
    )
    return ToolResult(
        output={"approval_id": approval.id, "status": "pending"},
        local=attrs.evolve(ctx.local, approvals=(*ctx.local.approvals, approval)),
        change=change,
    )


async def delegate_task(args: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    """Record a delegated task; no agent runs it."""
    delegation = Delegation(
        id=ctx.new_id("delegation"), assignee=args["assignee"], task=args["task"]
    )
    change = StateChange(
        tool="delegate_task",
        resource="delegation",
        before=None,
        after=digest(attrs.asdict(delegation)),
    )
    return ToolResult(
        output={"delegation_id": delegation.id, "status": "pending"},
        local=attrs.evolve(ctx.local, delegations=(*ctx.local.delegations, delegation)),
        change=change,
    )


MESSAGE_HANDLERS: dict[str, Handler] = {
    "draft_message": draft_message,
    "request_approval": request_approval,
    "delegate_task": delegate_task,
}
