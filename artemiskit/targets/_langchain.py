"""A LangChain chat model as an `AgentTarget` (SPEC 16; ``artemiskit[langchain]``).

The model only answers: the engine, not LangChain, admits and runs every tool call.
LangChain is imported when the first request is made, never at import time.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from artemiskit._common._extras import install_hint
from artemiskit._errors import InvalidResponseError, TargetError, UnsupportedError
from artemiskit.targets._protocol import TargetResponse, ToolCall, Usage

if TYPE_CHECKING:
    from artemiskit.targets._protocol import Message, TargetRequest

__all__ = ["LangChainTarget"]

_HINT = f"install it with: {install_hint('langchain')}"
#: Content blocks that repeat a tool call the answer also lists in ``tool_calls``.
_CALL_BLOCKS = ("tool_use", "tool_call")


class LangChainTarget:
    """Drive any LangChain chat model that supports tool binding.

    Each `respond` call is one ``ainvoke`` of the model with the declared tools
    bound. Usage comes from the answer's ``usage_metadata``; an answer without it
    leaves usage unmeasured, never zero. Cancellation reaches the model's call.
    LangChain's async API runs on asyncio: under another event loop the target
    refuses (unsupported, exit 3).

    Args:
        model: A LangChain ``BaseChatModel`` whose ``bind_tools`` works.
    """

    def __init__(self, model: Any) -> None:
        self._model = model

    def __repr__(self) -> str:
        return f"LangChainTarget(model={type(self._model).__name__})"

    async def respond(self, request: TargetRequest) -> TargetResponse:
        """Ask the model once; its tool calls go back to the engine unrun.

        Raises:
            UnsupportedError: LangChain is not installed, or the loop is not asyncio.
            TargetError: The model raised (its type is named, not its message).
            InvalidResponseError: The model answered something other than an
                ``AIMessage`` with text and tool calls.
        """
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            raise UnsupportedError(
                "a LangChain model needs the asyncio event loop",
                reason="langchain_needs_asyncio",
            ) from None
        try:
            from langchain_core.messages import AIMessage
        except ImportError:
            raise UnsupportedError(
                f"LangChain is not installed: {_HINT}", reason="langchain_missing"
            ) from None
        model = self._model
        if request.tools:
            model = model.bind_tools(
                [
                    {
                        "type": "function",
                        "function": {
                            "name": tool.name,
                            "description": tool.description,
                            "parameters": dict(tool.input_schema),
                        },
                    }
                    for tool in request.tools
                ]
            )
        try:
            answer = await model.ainvoke(_to_langchain(request.messages))
        except (TargetError, InvalidResponseError, UnsupportedError):
            raise
        except Exception as exc:
            raise TargetError(
                f"the LangChain model failed ({type(exc).__name__})",
                reason="target_failure",
            ) from None
        if not isinstance(answer, AIMessage):
            raise InvalidResponseError(
                f"the LangChain model answered a {type(answer).__name__}, "
                "not an AIMessage"
            )
        return TargetResponse(
            text=_text(answer.content),
            tool_calls=tuple(
                _tool_call(call, n) for n, call in enumerate(answer.tool_calls)
            ),
            usage=_usage(answer.usage_metadata),
        )


def _to_langchain(messages: tuple[Message, ...]) -> list[Any]:
    from langchain_core.messages import (
        AIMessage,
        HumanMessage,
        SystemMessage,
        ToolMessage,
    )

    converted: list[Any] = []
    for message in messages:
        text = message.content or ""
        if message.role == "system":
            converted.append(SystemMessage(content=text))
        elif message.role == "user":
            converted.append(HumanMessage(content=text))
        elif message.role == "assistant":
            calls = [
                {"id": c.id, "name": c.name, "args": _arguments(c.arguments)}
                for c in message.tool_calls
            ]
            converted.append(AIMessage(content=text, tool_calls=calls))
        else:
            converted.append(
                ToolMessage(
                    content=text,
                    tool_call_id=message.tool_call_id or "",
                    status="error" if message.is_error else "success",
                )
            )
    return converted


def _arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _text(content: Any) -> str | None:
    if isinstance(content, str):
        return content or None
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            elif isinstance(block, dict) and block.get("type") in (
                "tool_use",
                "tool_call",
            ):
                continue
            else:
                raise InvalidResponseError(
                    "the LangChain model answered a content block of an unknown type"
                )
        return "".join(parts) or None
    raise InvalidResponseError(
        "the LangChain model answered content of an unknown shape"
    )


def _tool_call(call: Any, number: int) -> ToolCall:
    name = call.get("name")
    if not isinstance(name, str) or not name:
        raise InvalidResponseError(
            "the LangChain model asked for a tool without a name"
        )
    call_id = call.get("id") or f"langchain-call-{number}"
    return ToolCall(
        id=str(call_id), name=name, arguments=json.dumps(call.get("args", {}))
    )


def _usage(metadata: Any) -> Usage | None:
    if not metadata:
        return None
    input_tokens = metadata.get("input_tokens")
    output_tokens = metadata.get("output_tokens")
    if not (
        type(input_tokens) is int
        and type(output_tokens) is int
        and input_tokens >= 0
        and output_tokens >= 0
    ):
        raise InvalidResponseError("the LangChain model reported invalid usage")
    return Usage(input_tokens=input_tokens, output_tokens=output_tokens)
