"""Request digests, computed as a conversation grows (SPEC 22).

A request's digest is the digest of its canonical JSON (`encode_request`:
messages, tools, parameters). A run's requests share their tools and parameters,
whose canonical text is made once; each message's is written out directly
(`message_text`); the request's text is put together from them: the same bytes,
hence the same digest, as ``json_digest(encode_request(request, parameters))``.
"""

from __future__ import annotations

from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any

from artemiskit._common._digests import bytes_digest, canonical_json
from artemiskit.replay._cassette import encode_tool

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
    """The digests of one target's requests (a run's, or its judge's)."""

    __slots__ = ("_allowances", "_parameters", "_tools")

    def __init__(self, parameters: Mapping[str, Any]) -> None:
        self._parameters = dict(parameters)
        self._tools: tuple[tuple[ToolDefinition, ...], str] | None = None
        self._allowances: dict[int | None, str] = {}

    def _offered(self, tools: tuple[ToolDefinition, ...]) -> str:
        if self._tools is not None and self._tools[0] is tools:
            return self._tools[1]
        text = _tools_text(tools)
        self._tools = (tools, text)
        return text

    def digest(self, request: TargetRequest) -> str:
        """The digest of ``request`` as `encode_request` encodes it."""
        allowance = request.max_output_tokens
        parameters = self._allowances.get(allowance)
        if parameters is None:
            parameters = canonical_json(
                {**self._parameters, "max_output_tokens": allowance}
            )
            self._allowances[allowance] = parameters
        messages = ",".join(map(message_text, request.messages))
        text = (
            f'{{"messages":[{messages}],"parameters":{parameters},'
            f'"tools":{self._offered(request.tools)}}}'
        )
        # a model may send a lone surrogate: kept as it is, never a failure
        return bytes_digest(text.encode("utf-8", "surrogatepass"))
