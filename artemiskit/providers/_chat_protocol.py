"""The OpenAI Chat Completions wire format: request bodies in, parsed answers out.

Pure functions, no I/O and no httpx, so every protocol edge case is testable without
a server. `OpenAIClient` (in `_openai`) does the transport.

Request mapping (`encode_chat_request`):

- ``system`` / ``user`` messages: ``{"role", "content"}``;
- ``assistant`` messages: ``content`` (``null`` allowed next to tool calls) and
  ``tool_calls: [{"id", "type": "function", "function": {"name", "arguments"}}]``
  with the arguments as the original JSON text;
- ``tool`` messages: ``{"role": "tool", "tool_call_id", "content"}``; Chat
  Completions has no error flag, so an error result is carried by its content;
- tools: ``{"type": "function", "function": {"name", "description", "parameters"}}``;
- ``max_tokens`` (not ``max_completion_tokens``, for compatibility with vLLM,
  llama.cpp server and Ollama), ``temperature``, ``top_p`` and ``seed`` only when set.

Response parsing (`parse_chat_response`) reads the first choice. A body that is not
JSON, has no choices, or holds a malformed tool call is an `InvalidResponseError`.
Usage is taken only when ``prompt_tokens`` and ``completion_tokens`` are both
non-negative integers; anything else means usage is unavailable (``None``), never zero.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from artemiskit._errors import InvalidResponseError, TargetError
from artemiskit.targets._protocol import (
    Message,
    ModelRequest,
    TargetResponse,
    ToolCall,
    Usage,
)

__all__ = [
    "encode_chat_request",
    "error_code_of",
    "load_document",
    "parse_chat_response",
    "plain_json",
    "sampling_settings",
    "token_count",
]

_SAFE_CODE = re.compile(r"^[A-Za-z0-9_.\-]{1,64}$")


def encode_chat_request(request: ModelRequest) -> dict[str, Any]:
    """Build the JSON body of one ``POST /chat/completions``.

    Args:
        request: The model request.

    Returns:
        A plain JSON-serializable dict.

    Raises:
        TargetError: The conversation cannot be expressed in Chat Completions
            (a tool message without ``tool_call_id``). Raised before any request.
    """
    body: dict[str, Any] = {
        "model": request.model,
        "messages": [_encode_message(m, i) for i, m in enumerate(request.messages)],
    }
    if request.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": plain_json(tool.input_schema),
                },
            }
            for tool in request.tools
        ]
    if request.max_output_tokens is not None:
        body["max_tokens"] = request.max_output_tokens
    body.update(sampling_settings(request))
    if request.seed is not None:
        body["seed"] = request.seed
    return body


def sampling_settings(request: ModelRequest) -> dict[str, float]:
    """``temperature`` and ``top_p``, only those the request sets."""
    settings = {"temperature": request.temperature, "top_p": request.top_p}
    return {name: value for name, value in settings.items() if value is not None}


def _encode_message(message: Message, position: int) -> dict[str, Any]:
    if message.role == "tool":
        if not message.tool_call_id:
            raise TargetError(
                f"conversation message {position} is a tool result without a "
                "tool_call_id; Chat Completions cannot correlate it"
            )
        return {
            "role": "tool",
            "tool_call_id": message.tool_call_id,
            "content": message.content or "",
        }
    if message.role == "assistant":
        encoded: dict[str, Any] = {"role": "assistant", "content": message.content}
        if message.tool_calls:
            encoded["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in message.tool_calls
            ]
        elif message.content is None:
            encoded["content"] = ""
        return encoded
    return {"role": message.role, "content": message.content or ""}


def plain_json(value: object) -> object:
    """Turn mappings and tuples (e.g. a frozen JSON Schema) into dicts and lists."""
    if isinstance(value, Mapping):
        return {str(key): plain_json(item) for key, item in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray)):
        return [plain_json(item) for item in value]
    return value


def parse_chat_response(body: bytes) -> TargetResponse:
    """Parse a successful Chat Completions response body.

    Args:
        body: The raw response body of an HTTP 2xx answer.

    Returns:
        The first choice's text and tool calls, and the usage when reported.

    Raises:
        InvalidResponseError: The body is not a Chat Completions answer. The
            message names the rule broken, never the body's content.
    """
    document = load_document(body, "Chat Completions")
    choices = document.get("choices")
    if not isinstance(choices, list) or not choices:
        raise _invalid("the response has no choices")
    choice = choices[0]
    if not isinstance(choice, dict) or not isinstance(choice.get("message"), dict):
        raise _invalid("the first choice has no message object")
    message: dict[str, object] = choice["message"]
    text = message.get("content")
    if text is None and isinstance(message.get("refusal"), str):
        text = message["refusal"]
    if text is not None and not isinstance(text, str):
        raise _invalid("the message content is neither text nor null")
    return TargetResponse(
        text=text,
        tool_calls=_parse_tool_calls(message.get("tool_calls")),
        usage=_parse_usage(document.get("usage")),
    )


def _parse_tool_calls(raw: object) -> tuple[ToolCall, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise _invalid("message.tool_calls is not a list")
    calls: list[ToolCall] = []
    seen: set[str] = set()
    for position, item in enumerate(raw):
        where = f"tool call {position}"
        if not isinstance(item, dict):
            raise _invalid(f"{where} is not an object")
        call_id = item.get("id")
        if not isinstance(call_id, str) or not call_id:
            raise _invalid(f"{where} has no id")
        if call_id in seen:
            raise _invalid(f"{where} repeats the id of an earlier call")
        seen.add(call_id)
        kind = item.get("type", "function")
        if kind != "function":
            raise _invalid(f"{where} is not of type function")
        function = item.get("function")
        if not isinstance(function, dict):
            raise _invalid(f"{where} has no function object")
        name = function.get("name")
        if not isinstance(name, str) or not name:
            raise _invalid(f"{where} has no function name")
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            raise _invalid(f"{where} has no arguments JSON text")
        calls.append(ToolCall(id=call_id, name=name, arguments=arguments))
    return tuple(calls)


def _parse_usage(raw: object) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    prompt = token_count(raw.get("prompt_tokens"))
    completion = token_count(raw.get("completion_tokens"))
    if prompt is None or completion is None:
        return None
    return Usage(input_tokens=prompt, output_tokens=completion)


def load_document(body: bytes, protocol: str) -> dict[str, Any]:
    """The JSON object of a successful answer.

    Raises:
        InvalidResponseError: The body is not JSON, or not an object.
    """
    try:
        document: object = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise InvalidResponseError(
            "the provider's response body is not valid JSON"
        ) from exc
    if not isinstance(document, dict):
        raise InvalidResponseError(
            f"the provider answered outside the {protocol} protocol: "
            "the response is not a JSON object"
        )
    return document


def token_count(value: object) -> int | None:
    """A reported token count: a non-negative integer, else ``None``."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


def error_code_of(body: bytes) -> str | None:
    """Return the provider's machine-readable error code from an error body.

    Only a short identifier (``error.code`` or ``error.type``, e.g.
    ``model_not_found``) is returned; free text is never taken, because providers
    echo parts of the request (even a masked key) in their messages. ``code`` wins
    over ``type``, unless it is all digits: gateways such as LiteLLM repeat the HTTP
    status there (``"429"``) and put the useful name in ``type``.

    Args:
        body: The raw body of an HTTP error answer.

    Returns:
        The identifier, or ``None`` when there is no safe one.
    """
    try:
        document: object = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict) or not isinstance(document.get("error"), dict):
        return None
    error: dict[str, object] = document["error"]
    code, kind = error.get("code"), error.get("type")
    safe = [
        value
        for value in (code, kind)
        if isinstance(value, str) and _SAFE_CODE.match(value)
    ]
    if len(safe) == 2 and str(code).isdigit():
        return str(kind)  # a gateway's status repeated as a string says nothing new
    return safe[0] if safe else None


def _invalid(rule: str) -> InvalidResponseError:
    return InvalidResponseError(
        f"the provider answered outside the Chat Completions protocol: {rule}"
    )
