"""What the engine accepts from an `AgentTarget` before it uses any of it.

Tool-call ids must be non-empty and distinct within one answer (tool results are
correlated by them), and usage, when reported, must be two non-negative integers:
anything else is an invalid target response, never zero tokens.
"""

from __future__ import annotations

from artemiskit._errors import ArtemisError, InvalidResponseError, TargetError
from artemiskit.targets._protocol import TargetResponse, ToolCall, Usage

__all__ = ["check_response", "target_failure"]


def target_failure() -> ArtemisError:
    """The error for a target that raised something other than an ArtemisError."""
    return TargetError("the agent target raised an error", reason="target_failure")


def check_response(response: object) -> None:
    """Refuse a target answer outside the protocol before anything uses it.

    Tool-call ids must be non-empty and distinct (results are correlated by
    them), and usage, when reported, must be two non-negative integers.
    """
    if not isinstance(response, TargetResponse):
        raise InvalidResponseError(
            "the target returned something other than a TargetResponse"
        )
    if response.text is not None and not isinstance(response.text, str):
        raise InvalidResponseError("the target's text is not a string")
    seen: set[str] = set()
    for position, call in enumerate(response.tool_calls):
        if not (
            isinstance(call, ToolCall)
            and isinstance(call.id, str)
            and isinstance(call.name, str)
            and isinstance(call.arguments, str)
        ):
            raise InvalidResponseError("the target returned a malformed tool call")
        if not call.id:
            raise InvalidResponseError(f"the target's tool call {position} has no id")
        if call.id in seen:
            raise InvalidResponseError(
                f"the target's tool call {position} repeats the id of an earlier call"
            )
        seen.add(call.id)
    usage = response.usage
    if usage is not None and not (
        isinstance(usage, Usage)
        and isinstance(tokens := usage.input_tokens, int)
        and not isinstance(tokens, bool)
        and tokens >= 0
        and isinstance(tokens := usage.output_tokens, int)
        and not isinstance(tokens, bool)
        and tokens >= 0
    ):
        raise InvalidResponseError(
            "the target's usage is not two non-negative integer token counts"
        )
