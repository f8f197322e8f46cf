"""Request digests, computed as a conversation grows (SPEC 22).

A request's digest is the digest of its canonical JSON (`encode_request`:
messages, tools, parameters). A run's requests share their tools and the prefix
of their messages, so each message's and the tools' canonical text is made once
and the request's text is put together from them: the same bytes, hence the same
digest, as ``json_digest(encode_request(request, parameters))``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit._common._digests import bytes_digest, canonical_json
from artemiskit.replay._cassette import encode_message, encode_tool

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.targets._protocol import Message, TargetRequest, ToolDefinition

__all__ = ["RequestDigests"]


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

    __slots__ = ("_messages", "_parameters", "_tools")

    def __init__(self, parameters: Mapping[str, Any]) -> None:
        self._parameters = dict(parameters)
        # by object id; the entry keeps its object alive, so the id stays its own
        self._messages: dict[int, tuple[Message, str]] = {}
        self._tools: tuple[tuple[ToolDefinition, ...], str] | None = None

    def _message(self, message: Message) -> str:
        known = self._messages.get(id(message))
        if known is not None and known[0] is message:
            return known[1]
        text = canonical_json(encode_message(message))
        self._messages[id(message)] = (message, text)
        return text

    def _offered(self, tools: tuple[ToolDefinition, ...]) -> str:
        if self._tools is not None and self._tools[0] is tools:
            return self._tools[1]
        text = _tools_text(tools)
        self._tools = (tools, text)
        return text

    def digest(self, request: TargetRequest) -> str:
        """The digest of ``request`` as `encode_request` encodes it."""
        parameters = canonical_json(
            {**self._parameters, "max_output_tokens": request.max_output_tokens}
        )
        messages = ",".join(self._message(message) for message in request.messages)
        text = (
            f'{{"messages":[{messages}],"parameters":{parameters},'
            f'"tools":{self._offered(request.tools)}}}'
        )
        return bytes_digest(text.encode("utf-8"))
