"""Model turns written once, rendered in each provider protocol the servers speak.

A test scripts what the model does (`Turn`: text, tool calls, usage) and gets the
`Reply` of an OpenAI-compatible (and Azure) server or of the Anthropic Messages API,
so one workflow can run against every protocol with the same model behaviour.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ._chat_server import ChatServer, Computed, RecordedRequest, Reply, chat_reply

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "PROTOCOLS",
    "Protocol",
    "Turn",
    "config_entry",
    "messages_reply",
    "probe_echo",
    "render",
]

Protocol = Literal["openai", "azure-openai", "anthropic"]
PROTOCOLS: tuple[Protocol, ...] = ("openai", "azure-openai", "anthropic")


@dataclass(frozen=True)
class Turn:
    """What the model answers once: text, tool calls ``(id, name, arguments)``."""

    text: str | None = None
    calls: Sequence[tuple[str, str, dict[str, Any]]] = ()
    usage: tuple[int, int] | None = (10, 5)
    extra: dict[str, Any] = field(default_factory=dict)


def messages_reply(
    content: list[dict[str, Any]],
    *,
    stop_reason: str | None = "end_turn",
    usage: dict[str, Any] | None = None,
) -> Reply:
    """A Messages API answer with these content blocks."""
    body: dict[str, Any] = {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": stop_reason,
    }
    if usage is not None:
        body["usage"] = usage
    return Reply(body=body)


def render(turn: Turn, protocol: Protocol) -> Reply:
    """The reply of a ``protocol`` server that answers ``turn``."""
    if protocol == "anthropic":
        blocks: list[dict[str, Any]] = []
        if turn.text is not None:
            blocks.append({"type": "text", "text": turn.text})
        blocks += [
            {"type": "tool_use", "id": call_id, "name": name, "input": arguments}
            for call_id, name, arguments in turn.calls
        ]
        usage = None
        if turn.usage is not None:
            usage = {"input_tokens": turn.usage[0], "output_tokens": turn.usage[1]}
        stop = "tool_use" if turn.calls else "end_turn"
        return messages_reply(blocks, stop_reason=stop, usage=usage)
    calls = [
        {
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        for call_id, name, arguments in turn.calls
    ]
    chat_usage = None
    if turn.usage is not None:
        chat_usage = {
            "prompt_tokens": turn.usage[0],
            "completion_tokens": turn.usage[1],
            "total_tokens": sum(turn.usage),
        }
    return chat_reply(content=turn.text, tool_calls=calls or None, usage=chat_usage)


def probe_echo(protocol: Protocol) -> Computed:
    """Answer the preflight probe: call its tool with the nonce it was given."""

    def make(request: RecordedRequest) -> Reply:
        last = request.json["messages"][-1]["content"]
        text = last if isinstance(last, str) else last[-1]["text"]
        nonce = text.split("'")[1]
        turn = Turn(calls=[("probe_1", "artemiskit_probe", {"nonce": nonce})])
        return render(turn, protocol)

    return Computed(make)


def config_entry(
    protocol: Protocol, server: ChatServer, **settings: Any
) -> dict[str, Any]:
    """A trusted provider entry of type ``protocol`` for ``server``."""
    entry: dict[str, Any] = {
        "type": protocol,
        "api_key_env": "TEST_PROVIDER_KEY",
        "request_timeout_ms": 20000,
        **settings,
    }
    if protocol == "azure-openai":
        defaults = {
            "base_url": server.root,
            "deployment": "dep-1",
            "api_version": "2024-10-21",
        }
    else:
        defaults = {"base_url": server.url}
    return {**defaults, **entry}
