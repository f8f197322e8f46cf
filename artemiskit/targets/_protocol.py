"""What the engine asks of an agent: the `AgentTarget` and `ModelClient` protocols.

Everything here is plain attrs data so that a conversation can be checkpointed and
replayed into any target. Tool-call arguments stay the JSON text the model produced,
so that the engine validates the *original* arguments. Reprs show roles, ids, tool
names and counts, never text or arguments.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal, Protocol, runtime_checkable

import attrs

from artemiskit._common._slots import slot_builder

__all__ = [
    "new_message",
    "new_target_request",
    "AgentTarget",
    "Message",
    "ModelClient",
    "ModelRequest",
    "ResumableTarget",
    "TargetRequest",
    "TargetResponse",
    "ToolCall",
    "ToolDefinition",
    "Usage",
    "create_model_client_target",
]


@attrs.frozen(kw_only=True, repr=False)
class ToolCall:
    """One tool call the model asked for.

    Attributes:
        id: The provider's call id; tool results are correlated by it.
        name: The tool the model named (maybe one it was never offered).
        arguments: The arguments as JSON text, exactly as the model produced them.
    """

    id: str
    name: str
    arguments: str

    def __repr__(self) -> str:
        return f"ToolCall(id={self.id!r}, name={self.name!r})"


@attrs.frozen(kw_only=True, repr=False)
class Message:
    """One conversation message.

    Attributes:
        role: ``system``, ``user``, ``assistant`` or ``tool``.
        content: The text, if any.
        tool_calls: Calls an assistant message asked for.
        tool_call_id: For a ``tool`` message, the call it answers.
        is_error: For a ``tool`` message, whether it reports a failure or denial.
    """

    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    is_error: bool = False

    def __repr__(self) -> str:
        extra = ""
        if self.tool_calls:
            extra += f", tool_calls={self.tool_calls!r}"
        if self.role == "tool":
            extra += f", tool_call_id={self.tool_call_id!r}, is_error={self.is_error}"
        return f"Message(role={self.role!r}{extra})"


#: `Message` from its fields, in order (the engine's hot path; `_common._slots`).
new_message = slot_builder(Message)


@attrs.frozen(kw_only=True)
class Usage:
    """Provider-reported token usage of one response."""

    input_tokens: int
    output_tokens: int


@attrs.frozen(kw_only=True)
class ToolDefinition:
    """A tool as offered to the model: name, description, input JSON Schema."""

    name: str
    description: str
    input_schema: Mapping[str, Any]


@attrs.frozen(kw_only=True, repr=False)
class TargetRequest:
    """What the engine hands an `AgentTarget` for one model invocation.

    Attributes:
        messages: The conversation so far, system message first.
        tools: The declared tools, in declaration order.
        max_output_tokens: The output allowance: the workflow's
            ``max_output_tokens`` bounded by what is left of ``max_tokens``;
            ``None`` when neither sets one.
        retry_admission: Set by the engine: a target that may retry a failed
            provider request (accounted retries, SPEC 16) awaits
            ``retry_admission(reason, delay_s)`` before each new attempt, with the
            failure's reason code and the wait it intends. ``True`` means the
            engine admitted the attempt as a model request of its own (counted,
            in the ledger, disclosed); ``False`` means no further attempt may be
            made (the budget or the deadline does not allow it), and the target
            raises the failure.
    """

    messages: tuple[Message, ...]
    tools: tuple[ToolDefinition, ...]
    max_output_tokens: int | None = None
    retry_admission: Callable[[str, float], Awaitable[bool]] | None = attrs.field(
        default=None, eq=False
    )

    def __repr__(self) -> str:
        return (
            f"TargetRequest(messages={len(self.messages)}, "
            f"tools={_tool_names(self.tools)!r}, "
            f"max_output_tokens={self.max_output_tokens!r})"
        )


#: `TargetRequest` from its fields, in order (one per model request).
new_target_request = slot_builder(TargetRequest)


@attrs.frozen(kw_only=True, repr=False)
class TargetResponse:
    """One answer of the target.

    Attributes:
        text: Text for the user, if any.
        tool_calls: Tool calls to run before the model is asked again.
        usage: Provider-reported usage, or ``None`` when the provider reported none
            (then usage is *unavailable*, never zero).
    """

    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage | None = None

    def __repr__(self) -> str:
        return (
            f"TargetResponse(text={'<hidden>' if self.text else None}, "
            f"tool_calls={self.tool_calls!r}, usage={self.usage!r})"
        )


@runtime_checkable
class AgentTarget(Protocol):
    """An agent the engine drives: one model invocation per `respond` call.

    A target is trusted host code. It must make at most one provider request per
    call (or disclose its own retries), honour cancellation promptly, and report
    usage only as the provider reported it.
    """

    async def respond(self, request: TargetRequest) -> TargetResponse:
        """Answer the conversation in ``request``.

        Raises:
            TargetError: The target failed (exit 7).
            InvalidResponseError: The provider answered outside its protocol.
        """
        ...


@runtime_checkable
class ResumableTarget(AgentTarget, Protocol):
    """A target whose answers depend on how many requests the run already made.

    When a paused run resumes in a new session, the engine tells such a target
    how many model requests the earlier attempts made, before the first new one
    (the offline scripted target continues its script there).
    """

    def resume_after(self, model_requests: int) -> None:
        """Continue as if ``model_requests`` requests had already been answered."""
        ...


@attrs.frozen(kw_only=True, repr=False)
class ModelRequest:
    """A provider-level chat request: the target request plus model settings."""

    model: str
    messages: tuple[Message, ...]
    tools: tuple[ToolDefinition, ...]
    max_output_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    seed: int | None = None

    def __repr__(self) -> str:
        return (
            f"ModelRequest(model={self.model!r}, messages={len(self.messages)}, "
            f"tools={_tool_names(self.tools)!r}, "
            f"max_output_tokens={self.max_output_tokens!r})"
        )


def _tool_names(tools: tuple[ToolDefinition, ...]) -> tuple[str, ...]:
    return tuple(tool.name for tool in tools)


@runtime_checkable
class ModelClient(Protocol):
    """A low-level provider client: one `complete` call is one provider request."""

    async def complete(self, request: ModelRequest) -> TargetResponse:
        """Send one chat request and return the parsed answer."""
        ...


@attrs.frozen(kw_only=True)
class _ModelClientTarget:
    client: ModelClient
    model: str
    temperature: float | None = None
    top_p: float | None = None
    seed: int | None = None

    async def respond(self, request: TargetRequest) -> TargetResponse:
        return await self.client.complete(
            ModelRequest(
                model=self.model,
                messages=request.messages,
                tools=request.tools,
                max_output_tokens=request.max_output_tokens,
                temperature=self.temperature,
                top_p=self.top_p,
                seed=self.seed,
            )
        )


def create_model_client_target(
    client: ModelClient,
    *,
    model: str,
    temperature: float | None = None,
    top_p: float | None = None,
    seed: int | None = None,
) -> AgentTarget:
    """Wrap a `ModelClient` as an `AgentTarget` for one model.

    Args:
        client: The provider client; each `respond` makes exactly one
            `client.complete` call.
        model: The model name sent with every request.
        temperature: Sampling temperature, if any.
        top_p: Nucleus sampling, if any.
        seed: Provider seed, if any.

    Returns:
        A target that forwards the conversation, tools and output allowance.
    """
    return _ModelClientTarget(
        client=client, model=model, temperature=temperature, top_p=top_p, seed=seed
    )
