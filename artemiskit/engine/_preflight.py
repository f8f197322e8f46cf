"""Preflight (SPEC 6): probe that the target really performs a tool round trip.

The probe asks for one structured call of a probe tool with a nonce, answers it with
a correlated tool result, and expects a text continuation. Advertised tool support
alone proves nothing; this exchange does. Its requests, tool action and tokens count
in the run's budgets and are also reported separately.
"""

from __future__ import annotations

import json
import secrets
from typing import Literal

import attrs

from artemiskit.targets._protocol import (
    Message,
    TargetResponse,
    ToolCall,
    ToolDefinition,
)

__all__ = [
    "PROBE_TOOL",
    "PreflightMode",
    "PreflightSummary",
    "new_nonce",
    "probe_continuation",
    "probe_opening",
    "probe_problem",
]

PreflightMode = Literal["off", "probe", "only"]

PROBE_TOOL = ToolDefinition(
    name="artemiskit_probe",
    description="Capability probe: call it exactly once with the nonce you are given.",
    input_schema={
        "type": "object",
        "properties": {"nonce": {"type": "string"}},
        "required": ["nonce"],
        "additionalProperties": False,
    },
)


@attrs.frozen(kw_only=True)
class PreflightSummary:
    """What the probe established and what it consumed (kept across resume)."""

    status: Literal["passed", "failed"]
    reason: str
    model_requests: int = 0
    tool_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    unmeasured_responses: int = 0


def new_nonce() -> str:
    """A fresh, unguessable probe nonce."""
    return secrets.token_hex(8)


def probe_opening(nonce: str) -> tuple[Message, ...]:
    """The probe conversation's opening messages."""
    return (
        Message(
            role="system",
            content="This is a capability probe of tool calling. Call the tool "
            "artemiskit_probe exactly once, then answer with one short sentence.",
        ),
        Message(
            role="user", content=f"Call artemiskit_probe with nonce {nonce!r} now."
        ),
    )


def probe_problem(response: TargetResponse, nonce: str) -> str | None:
    """Why the first probe answer fails, or ``None`` if it made the probe call."""
    if not response.tool_calls:
        return "no_tool_call"
    call = response.tool_calls[0]
    if call.name != PROBE_TOOL.name:
        return "wrong_tool"
    try:
        arguments = json.loads(call.arguments)
    except (ValueError, RecursionError):
        return "invalid_arguments"
    if not isinstance(arguments, dict) or arguments.get("nonce") != nonce:
        return "wrong_arguments"
    return None


def probe_continuation(
    opening: tuple[Message, ...], response: TargetResponse, nonce: str
) -> tuple[Message, ...]:
    """The conversation for the continuation: the call and its correlated result."""
    call: ToolCall = response.tool_calls[0]
    return (
        *opening,
        Message(role="assistant", content=response.text, tool_calls=(call,)),
        Message(
            role="tool",
            content=json.dumps({"nonce": nonce, "received": True}),
            tool_call_id=call.id,
        ),
    )
