"""The Anthropic Messages wire format: request bodies in, parsed answers out.

Pure functions, no I/O and no httpx. `AnthropicClient` (in `_anthropic`) does the
transport.

Request mapping (`encode_messages_request`):

- ``system`` messages: joined into the top-level ``system`` text;
- ``user`` messages: ``{"role": "user", "content": [{"type": "text", ...}]}``;
- ``assistant`` messages: a ``text`` block (when there is text) and one
  ``tool_use`` block per tool call, ``{"type": "tool_use", "id", "name", "input"}``
  with ``input`` the call's arguments as a JSON object (arguments that are not a
  JSON object, which the engine denied, travel as ``{}``);
- ``tool`` messages: ``tool_result`` blocks ``{"tool_use_id", "content",
  "is_error"}`` in a user message; consecutive user-side blocks share one message,
  so roles alternate as the API requires;
- tools: ``{"name", "description", "input_schema"}``;
- ``max_tokens`` (required by the API): the output allowance, else the client's
  default; ``temperature`` and ``top_p`` only when set. The Messages API has no
  seed: a workflow's ``seed`` is not sent.

Response parsing (`parse_messages_response`): ``text`` blocks make the text,
``tool_use`` blocks the tool calls (their ``input`` re-encoded as JSON text);
``thinking`` and ``redacted_thinking`` blocks are skipped. Any other block type, a
``stop_reason`` outside ``end_turn``, ``stop_sequence``, ``max_tokens``,
``refusal`` and ``tool_use``, a ``tool_use`` stop without tool calls (or tool calls
under another stop), and a tool-use id that is empty, repeated, or already used
earlier in the conversation are an `InvalidResponseError`. Usage is
``input_tokens`` plus the cache fields (``cache_creation_input_tokens``,
``cache_read_input_tokens``) as input, ``output_tokens`` as output; anything
missing or malformed means usage is unavailable (``None``), never zero.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from artemiskit._errors import InvalidResponseError, TargetError
from artemiskit.providers._chat_protocol import (
    load_document,
    plain_json,
    sampling_settings,
    token_count,
)
from artemiskit.targets._protocol import TargetResponse, ToolCall, Usage

if TYPE_CHECKING:
    from artemiskit.targets._protocol import Message, ModelRequest

__all__ = ["encode_messages_request", "parse_messages_response"]

_TEXT_STOPS = frozenset({"end_turn", "stop_sequence", "max_tokens", "refusal"})
_SKIPPED_BLOCKS = frozenset({"thinking", "redacted_thinking"})
_CACHE_FIELDS = ("cache_creation_input_tokens", "cache_read_input_tokens")


def encode_messages_request(
    request: ModelRequest, *, default_max_tokens: int
) -> dict[str, Any]:
    """Build the JSON body of one ``POST /messages``.

    Args:
        request: The model request.
        default_max_tokens: ``max_tokens`` when the request sets no allowance.

    Returns:
        A plain JSON-serializable dict.

    Raises:
        TargetError: The conversation cannot be expressed in the Messages API (a
            tool result that answers no earlier tool call). Raised before any
            request.
    """
    system: list[str] = []
    messages: list[dict[str, Any]] = []
    called: set[str] = set()
    for position, message in enumerate(request.messages):
        if message.role == "system":
            system.append(message.content or "")
            continue
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message, position, called)
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": blocks})
    max_tokens = request.max_output_tokens
    body: dict[str, Any] = {
        "model": request.model,
        "max_tokens": default_max_tokens if max_tokens is None else max_tokens,
        "messages": messages,
    }
    if system:
        body["system"] = "\n\n".join(system)
    if request.tools:
        body["tools"] = [
            {
                "name": tool.name,
                "description": tool.description,
                "input_schema": plain_json(tool.input_schema),
            }
            for tool in request.tools
        ]
    body.update(sampling_settings(request))
    return body


def _blocks(message: Message, position: int, called: set[str]) -> list[dict[str, Any]]:
    if message.role == "tool":
        if not message.tool_call_id or message.tool_call_id not in called:
            raise TargetError(
                f"conversation message {position} is a tool result that answers no "
                "earlier tool call; the Messages API cannot correlate it"
            )
        return [
            {
                "type": "tool_result",
                "tool_use_id": message.tool_call_id,
                "content": message.content or "",
                "is_error": message.is_error,
            }
        ]
    blocks: list[dict[str, Any]] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    for call in message.tool_calls:
        called.add(call.id)
        blocks.append(
            {
                "type": "tool_use",
                "id": call.id,
                "name": call.name,
                "input": _input_object(call.arguments),
            }
        )
    if not blocks:
        blocks.append({"type": "text", "text": message.content or ""})
    return blocks


def _input_object(arguments: str) -> dict[str, Any]:
    try:
        value = json.loads(arguments)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def parse_messages_response(body: bytes, request: ModelRequest) -> TargetResponse:
    """Parse a successful Messages API response body.

    Args:
        body: The raw response body of an HTTP 2xx answer.
        request: The request it answers (tool-use ids must be new to it).

    Returns:
        The text, the tool calls and the usage when reported.

    Raises:
        InvalidResponseError: The body is not a Messages answer. The message
            names the rule broken, never the body's content.
    """
    document = load_document(body, "Messages")
    content = document.get("content")
    if not isinstance(content, list):
        raise _invalid("the response has no content list")
    earlier = {call.id for message in request.messages for call in message.tool_calls}
    texts: list[str] = []
    calls: list[ToolCall] = []
    for position, block in enumerate(content):
        where = f"content block {position}"
        kind = block.get("type") if isinstance(block, dict) else None
        if not isinstance(block, dict) or not isinstance(kind, str):
            raise _invalid(f"{where} has no type")
        if kind == "text":
            text = block.get("text")
            if not isinstance(text, str):
                raise _invalid(f"{where} has no text")
            texts.append(text)
        elif kind == "tool_use":
            calls.append(_tool_call(block, where, earlier))
        elif kind not in _SKIPPED_BLOCKS:
            raise _invalid(f"{where} is of an unknown type")
    stop = document.get("stop_reason")
    if stop == "tool_use":
        if not calls:
            raise _invalid("stop_reason tool_use without a tool_use block")
    elif stop in _TEXT_STOPS:
        if calls:
            raise _invalid(f"tool_use blocks under stop_reason {stop}")
    else:
        raise _invalid("unknown stop_reason")
    return TargetResponse(
        text="".join(texts) if texts else None,
        tool_calls=tuple(calls),
        usage=_parse_usage(document.get("usage")),
    )


def _tool_call(block: dict[str, Any], where: str, earlier: set[str]) -> ToolCall:
    call_id = block.get("id")
    if not isinstance(call_id, str) or not call_id:
        raise _invalid(f"{where} has no tool-use id")
    if call_id in earlier:
        raise _invalid(f"{where} repeats a tool-use id used before")
    earlier.add(call_id)
    name = block.get("name")
    if not isinstance(name, str) or not name:
        raise _invalid(f"{where} has no tool name")
    arguments = block.get("input")
    if not isinstance(arguments, dict):
        raise _invalid(f"{where} has no input object")
    try:
        # NaN and infinities are kept as the model sent them: the engine denies them
        text = json.dumps(arguments, ensure_ascii=False)
    except (ValueError, RecursionError) as exc:
        raise _invalid(f"{where} has an input that cannot be re-encoded") from exc
    return ToolCall(id=call_id, name=name, arguments=text)


def _parse_usage(raw: object) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    cached = [raw[field] for field in _CACHE_FIELDS if raw.get(field) is not None]
    input_tokens = token_count(raw.get("input_tokens"))
    output_tokens = token_count(raw.get("output_tokens"))
    cache_tokens = [token_count(value) for value in cached]
    if input_tokens is None or output_tokens is None or None in cache_tokens:
        return None
    return Usage(
        input_tokens=input_tokens + sum(n for n in cache_tokens if n is not None),
        output_tokens=output_tokens,
    )


def _invalid(rule: str) -> InvalidResponseError:
    return InvalidResponseError(
        f"the provider answered outside the Messages protocol: {rule}"
    )
