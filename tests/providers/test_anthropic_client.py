"""The Anthropic client against a real Messages API server on 127.0.0.1."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from artemiskit._errors import (
    ConfigError,
    InvalidResponseError,
    TargetError,
    UnsupportedError,
)
from artemiskit.providers import AnthropicClient
from artemiskit.targets import Message, ModelRequest, ToolCall, ToolDefinition, Usage

from ._chat_server import ChatServer, NeverAnswer, Reply
from ._wire import messages_reply

pytestmark = pytest.mark.anyio

SECRET = "sk-ant-SECRET-0123456789abcdef"

READ_FILE = ToolDefinition(
    name="read_file",
    description="Read a file.",
    input_schema={"type": "object", "properties": {"path": {"type": "string"}}},
)
TEXT = [{"type": "text", "text": "Done."}]
USAGE = {"input_tokens": 7, "output_tokens": 3}


def request(*messages: Message, **settings: Any) -> ModelRequest:
    return ModelRequest(
        model="claude-test",
        messages=messages
        or (
            Message(role="system", content="Be careful."),
            Message(role="user", content="Read a.md"),
        ),
        tools=(READ_FILE,),
        **settings,
    )


def tool_use(call_id: str, arguments: Any = None) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": call_id,
        "name": "read_file",
        "input": {"path": "a.md"} if arguments is None else arguments,
    }


async def test_request_shape_headers_and_tool_round_trip(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(
        messages_reply(
            [{"type": "text", "text": "Reading."}, tool_use("toolu_1")],
            stop_reason="tool_use",
            usage=USAGE,
        ),
        messages_reply(TEXT, usage=USAGE),
    )
    async with AnthropicClient(base_url=chat_server.url, api_key=SECRET) as client:
        first = await client.complete(request(max_output_tokens=300, temperature=0.5))
        assert first.text == "Reading."
        assert first.tool_calls == (
            ToolCall(id="toolu_1", name="read_file", arguments='{"path": "a.md"}'),
        )
        conversation = (
            Message(role="system", content="Be careful."),
            Message(role="user", content="Read a.md"),
            Message(role="assistant", content="Reading.", tool_calls=first.tool_calls),
            Message(
                role="tool",
                content="no such file",
                tool_call_id="toolu_1",
                is_error=True,
            ),
            Message(role="user", content="Go on."),
        )
        second = await client.complete(request(*conversation, seed=3))
    assert second.text == "Done."
    first_sent, second_sent = chat_server.requests
    assert first_sent.path == "/v1/messages"
    assert first_sent.headers["x-api-key"] == SECRET
    assert first_sent.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in first_sent.headers
    assert first_sent.json == {
        "model": "claude-test",
        "max_tokens": 300,
        "system": "Be careful.",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Read a.md"}]}
        ],
        "tools": [
            {
                "name": "read_file",
                "description": "Read a file.",
                "input_schema": READ_FILE.input_schema,
            }
        ],
        "temperature": 0.5,
    }
    body = second_sent.json
    assert body["max_tokens"] == 4096  # no allowance: the client's default
    assert "seed" not in body
    assert body["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Reading."},
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "read_file",
                    "input": {"path": "a.md"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": "no such file",
                    "is_error": True,
                },
                {"type": "text", "text": "Go on."},
            ],
        },
    ]


@pytest.mark.parametrize(
    ("usage", "expected"),
    [
        (USAGE, Usage(input_tokens=7, output_tokens=3)),
        (
            {
                **USAGE,
                "cache_creation_input_tokens": 100,
                "cache_read_input_tokens": 20,
            },
            Usage(input_tokens=127, output_tokens=3),
        ),
        (
            {**USAGE, "cache_read_input_tokens": None},
            Usage(input_tokens=7, output_tokens=3),
        ),
        (None, None),
        ({"input_tokens": 7}, None),
        ({**USAGE, "cache_read_input_tokens": -1}, None),
        ({**USAGE, "output_tokens": True}, None),
    ],
)
async def test_usage_counts_cache_tokens_and_missing_usage_is_unavailable(
    chat_server: ChatServer, usage: dict[str, Any] | None, expected: Usage | None
) -> None:
    chat_server.enqueue(messages_reply(TEXT, usage=usage))
    async with AnthropicClient(base_url=chat_server.url) as client:
        response = await client.complete(request())
    assert response.usage == expected


@pytest.mark.parametrize(
    ("content", "stop_reason", "rule"),
    [
        (TEXT, "paused_for_lunch", "unknown stop_reason"),
        (TEXT, None, "unknown stop_reason"),
        (TEXT, "tool_use", "stop_reason tool_use without a tool_use block"),
        ([tool_use("toolu_1")], "end_turn", "tool_use blocks under stop_reason"),
        ([tool_use("toolu_1")], "max_tokens", "tool_use blocks under stop_reason"),
        ([{"type": "image", "source": {}}], "end_turn", "of an unknown type"),
        (
            [tool_use("toolu_1"), tool_use("toolu_1")],
            "tool_use",
            "repeats a tool-use id",
        ),
        ([tool_use("")], "tool_use", "has no tool-use id"),
        ([tool_use("toolu_1", arguments=["a"])], "tool_use", "has no input object"),
        ([{"type": "text"}], "end_turn", "has no text"),
        ("Done.", "end_turn", "has no content list"),
    ],
)
async def test_answers_outside_the_protocol_are_invalid_responses(
    chat_server: ChatServer, content: Any, stop_reason: str | None, rule: str
) -> None:
    chat_server.enqueue(messages_reply(content, stop_reason=stop_reason, usage=USAGE))
    async with AnthropicClient(base_url=chat_server.url) as client:
        with pytest.raises(InvalidResponseError) as caught:
            await client.complete(request())
    assert rule in str(caught.value)
    assert caught.value.exit_code == 2


async def test_a_tool_use_id_already_answered_does_not_correlate(
    chat_server: ChatServer,
) -> None:
    earlier = ToolCall(id="toolu_1", name="read_file", arguments="{}")
    conversation = (
        Message(role="user", content="Read a.md"),
        Message(role="assistant", tool_calls=(earlier,)),
        Message(role="tool", content="x", tool_call_id="toolu_1"),
    )
    chat_server.enqueue(
        messages_reply([tool_use("toolu_1")], stop_reason="tool_use", usage=USAGE)
    )
    async with AnthropicClient(base_url=chat_server.url) as client:
        with pytest.raises(InvalidResponseError, match="repeats a tool-use id"):
            await client.complete(request(*conversation))


async def test_a_tool_result_without_its_call_fails_before_any_request(
    chat_server: ChatServer,
) -> None:
    orphan = (
        Message(role="user", content="Hi"),
        Message(role="tool", content="x", tool_call_id="toolu_9"),
    )
    async with AnthropicClient(base_url=chat_server.url) as client:
        with pytest.raises(TargetError, match="answers no earlier tool call"):
            await client.complete(request(*orphan))
    assert chat_server.requests == []


async def test_arguments_that_are_not_an_object_travel_as_an_empty_input(
    chat_server: ChatServer,
) -> None:
    """A denied call's arguments may be any text; the API needs an object."""
    calls = tuple(
        ToolCall(id=f"t{i}", name="read_file", arguments=text)
        for i, text in enumerate(["not json", "[1]", "[" * 5000 + "]" * 5000])
    )
    conversation = (
        Message(role="user", content="Hi"),
        Message(role="assistant", tool_calls=calls),
        *(
            Message(role="tool", content="denied", tool_call_id=c.id, is_error=True)
            for c in calls
        ),
    )
    chat_server.enqueue(messages_reply(TEXT, usage=USAGE))
    async with AnthropicClient(base_url=chat_server.url) as client:
        await client.complete(request(*conversation))
    sent = chat_server.requests[0].json["messages"][1]["content"]
    assert [block["input"] for block in sent] == [{}, {}, {}]


@pytest.mark.parametrize(
    ("status", "error", "reason"),
    [
        (401, ConfigError, "credential_refused"),
        (404, UnsupportedError, "model_not_found"),
        (400, TargetError, "provider_http_error"),
        (429, TargetError, "provider_rate_limited"),
        (500, TargetError, "provider_server_error"),
        (529, TargetError, "provider_overloaded"),
    ],
)
async def test_each_error_is_one_request_and_names_host_status_and_type(
    chat_server: ChatServer, status: int, error: type[Exception], reason: str
) -> None:
    body = {"type": "error", "error": {"type": "some_error", "message": SECRET}}
    chat_server.enqueue(Reply(status=status, body=body))
    async with AnthropicClient(base_url=chat_server.url, api_key=SECRET) as client:
        with pytest.raises(error) as caught:
            await client.complete(request())
    assert caught.value.reason == reason  # type: ignore[attr-defined]
    message = str(caught.value)
    assert f"(HTTP {status}, some_error)" in message
    assert chat_server.host in message
    assert SECRET not in message
    assert len(chat_server.requests) == 1


async def test_cancellation_aborts_the_request_and_closes_the_connection(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(NeverAnswer())
    scope = anyio.CancelScope()

    async def call(client: AnthropicClient) -> None:
        with scope:
            await client.complete(request())

    async with AnthropicClient(base_url=chat_server.url, api_key=SECRET) as client:
        async with anyio.create_task_group() as group:
            group.start_soon(call, client)
            assert await anyio.to_thread.run_sync(chat_server.wait_for_hanging)
            scope.cancel()
        assert scope.cancelled_caught
        assert await anyio.to_thread.run_sync(chat_server.wait_for_disconnects)
    assert len(chat_server.requests) == 1


def test_repr_and_settings_never_show_the_key() -> None:
    client = AnthropicClient(api_key=SECRET, extra_headers={"anthropic-beta": SECRET})
    assert SECRET not in repr(client)
    assert "api_key=<set>" in repr(client)
    for bad in (
        {"anthropic_version": " "},
        {"default_max_tokens": 0},
        {"api_key": "two\nlines"},
    ):
        with pytest.raises(ConfigError) as caught:
            AnthropicClient(**bad)
        assert SECRET not in str(caught.value)
    with pytest.raises(ConfigError, match="not both"):
        AnthropicClient(api_key=SECRET, extra_headers={"X-Api-Key": "other"})


async def test_body_is_parsed_as_json_text_arguments(chat_server: ChatServer) -> None:
    arguments = {"path": "ü.md", "n": 10**30}
    chat_server.enqueue(
        messages_reply([tool_use("toolu_1", arguments)], stop_reason="tool_use")
    )
    async with AnthropicClient(base_url=chat_server.url) as client:
        response = await client.complete(request())
    assert json.loads(response.tool_calls[0].arguments) == arguments
