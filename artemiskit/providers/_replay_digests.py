"""Request digests, computed as a conversation grows (SPEC 22).

A request's digest is the digest of its canonical JSON (`encode_request`:
messages, tools, parameters). A run's requests share their tools and parameters,
whose canonical text is made once; each message's is written out directly
(`message_text`) and hashed once per run, as the conversation grows; the
request's text is put together from them: the same bytes, hence the same digest,
as ``json_digest(encode_request(request, parameters))``.
"""

from __future__ import annotations

import hashlib
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any

from artemiskit._common._digests import canonical_json
from artemiskit.records._cassette import encode_tool

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.targets._protocol import Message, TargetRequest, ToolDefinition

__all__ = ["RequestDigests", "message_text"]


def _string(value: str | None) -> str:
    return "null" if value is None else encode_basestring(value)


def message_text(message: Message) -> str:
    """``canonical_json(encode_message(message))``, written out directly.

    The keys in sorted order, strings escaped by the JSON encoder's own
    function: the same text, without building the mapping and sorting it for
    every message of every request.
    """
    calls = ",".join(
        f'{{"arguments":{encode_basestring(call.arguments)},'
        f'"id":{encode_basestring(call.id)},"name":{encode_basestring(call.name)}}}'
        for call in message.tool_calls
    )
    return (
        f'{{"content":{_string(message.content)},'
        f'"is_error":{"true" if message.is_error else "false"},'
        f'"role":{encode_basestring(message.role)},'
        f'"tool_call_id":{_string(message.tool_call_id)},'
        f'"tool_calls":[{calls}]}}'
    )


def _tools_text(tools: tuple[ToolDefinition, ...]) -> str:
    """The canonical JSON of offered tools, remembered across runs.

    Every run of a workflow offers the same tools, described by the same
    catalogue schemas (the same objects): keyed by names, descriptions and the
    schemas' identities, the text is made once. The entry keeps its schemas
    alive, so an identity cannot be reused while it is remembered.
    """
    key = tuple((tool.name, tool.description, id(tool.input_schema)) for tool in tools)
    known = _TOOLS_TEXTS.get(key)
    if known is not None:
        return known[1]
    text = canonical_json([encode_tool(tool) for tool in tools])
    if len(_TOOLS_TEXTS) >= _TOOLS_KEPT:
        _TOOLS_TEXTS.clear()
    _TOOLS_TEXTS[key] = (tuple(tool.input_schema for tool in tools), text)
    return text


_TOOLS_TEXTS: dict[
    tuple[tuple[str, str, int], ...], tuple[tuple[object, ...], str]
] = {}
_TOOLS_KEPT = 64


class RequestDigests:
    """The digests of one target's requests (a run's, or its judge's).

    A run's requests grow one conversation: each repeats the messages of the
    one before and adds a few. The hash of the text up to the last message
    digested is kept (the messages are immutable, and checked to be the same
    objects), so each request hashes only its new messages and its tail, not
    the whole conversation again.
    """

    __slots__ = ("_allowances", "_hashed", "_parameters", "_prefix", "_tools")

    def __init__(self, parameters: Mapping[str, Any]) -> None:
        self._parameters = dict(parameters)
        self._tools: tuple[tuple[ToolDefinition, ...], str] | None = None
        self._allowances: dict[int | None, str] = {}
        self._hashed: tuple[Message, ...] = ()
        self._prefix = hashlib.sha256(b'{"messages":[')

    def _offered(self, tools: tuple[ToolDefinition, ...]) -> str:
        if self._tools is not None and self._tools[0] is tools:
            return self._tools[1]
        text = _tools_text(tools)
        self._tools = (tools, text)
        return text

    def _messages(self, messages: tuple[Message, ...]) -> Any:
        """The hash of ``{"messages":[`` and ``messages``' texts (a copy)."""
        hashed = self._hashed
        if len(messages) < len(hashed) or any(
            mine is not theirs for mine, theirs in zip(hashed, messages, strict=False)
        ):
            # not a continuation of the conversation hashed so far
            hashed = ()
            self._prefix = hashlib.sha256(b'{"messages":[')
        new = messages[len(hashed) :]
        if new:
            text = ",".join(map(message_text, new))
            if hashed:
                text = "," + text
            # a model may send a lone surrogate: kept as it is, never a failure
            self._prefix.update(text.encode("utf-8", "surrogatepass"))
            self._hashed = messages
        return self._prefix.copy()

    def digest(self, request: TargetRequest) -> str:
        """The digest of ``request`` as `encode_request` encodes it.

        The same bytes as ``json_digest(encode_request(...))``, hashed as the
        conversation grows.
        """
        allowance = request.max_output_tokens
        parameters = self._allowances.get(allowance)
        if parameters is None:
            parameters = canonical_json(
                {**self._parameters, "max_output_tokens": allowance}
            )
            self._allowances[allowance] = parameters
        hashed = self._messages(tuple(request.messages))
        tail = f'],"parameters":{parameters},"tools":{self._offered(request.tools)}}}'
        hashed.update(tail.encode("utf-8", "surrogatepass"))
        return "sha256:" + str(hashed.hexdigest())
