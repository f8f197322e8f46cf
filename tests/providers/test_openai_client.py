"""The OpenAI-compatible client against a real Chat Completions server on 127.0.0.1."""

from __future__ import annotations

import socket
import time
from typing import Any

import anyio
import httpx
import pytest

from artemiskit._errors import (
    ArtemisError,
    ConfigError,
    InvalidResponseError,
    TargetError,
    UnsupportedError,
)
from artemiskit.providers import OpenAIClient
from artemiskit.targets import (
    Message,
    ModelRequest,
    TargetRequest,
    ToolCall,
    ToolDefinition,
    Usage,
    create_model_client_target,
)

from ._chat_server import (
    ChatServer,
    CloseConnection,
    Computed,
    NeverAnswer,
    RecordedRequest,
    Reply,
    Trickle,
    chat_reply,
)

pytestmark = pytest.mark.anyio

SECRET = "sk-test-SECRET-0123456789abcdef"

READ_FILE = ToolDefinition(
    name="read_file",
    description="Read a file.",
    input_schema={
        "type": "object",
        "properties": {"path": {"type": "string"}},
        "required": ("path",),
    },
)


def simple_request(**settings: Any) -> ModelRequest:
    return ModelRequest(
        model="test-model",
        messages=(
            Message(role="system", content="Be careful."),
            Message(role="user", content="Read a.md"),
        ),
        tools=(READ_FILE,),
        **settings,
    )


def assert_no_secret(exc: BaseException) -> None:
    """Neither the error nor anything chained to it shows the key."""
    seen: BaseException | None = exc
    while seen is not None:
        assert SECRET not in str(seen)
        assert SECRET not in repr(seen)
        seen = seen.__cause__ or seen.__context__


async def in_thread(wait: Any, *args: Any) -> bool:
    result: bool = await anyio.to_thread.run_sync(wait, *args)
    return result


async def test_tool_call_round_trip_correlates_tool_call_id(
    chat_server: ChatServer,
) -> None:
    raw_arguments = '{"path":  "a.md" }'
    chat_server.enqueue(
        chat_reply(
            tool_calls=[
                {
                    "id": "call_abc",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": raw_arguments},
                }
            ],
            usage={"prompt_tokens": 30, "completion_tokens": 7},
        ),
        chat_reply(
            content="Done.", usage={"prompt_tokens": 50, "completion_tokens": 2}
        ),
    )
    async with OpenAIClient(base_url=chat_server.url, api_key=SECRET) as client:
        target = create_model_client_target(client, model="test-model", temperature=0)
        history: tuple[Message, ...] = (Message(role="user", content="Read a.md"),)
        first = await target.respond(
            TargetRequest(messages=history, tools=(READ_FILE,))
        )
        assert first.tool_calls == (
            ToolCall(id="call_abc", name="read_file", arguments=raw_arguments),
        )
        assert first.usage == Usage(input_tokens=30, output_tokens=7)
        history += (
            Message(role="assistant", content=first.text, tool_calls=first.tool_calls),
            Message(
                role="tool", content="file text", tool_call_id=first.tool_calls[0].id
            ),
        )
        second = await target.respond(
            TargetRequest(messages=history, tools=(READ_FILE,))
        )
    assert second.text == "Done."
    assert second.tool_calls == ()

    requests = chat_server.requests
    assert len(requests) == 2
    assert all(
        r.method == "POST" and r.path == "/v1/chat/completions" for r in requests
    )
    messages = requests[1].json["messages"]
    assert messages[1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_abc",
                "type": "function",
                "function": {"name": "read_file", "arguments": raw_arguments},
            }
        ],
    }
    assert messages[2] == {
        "role": "tool",
        "tool_call_id": "call_abc",
        "content": "file text",
    }


async def test_request_body_shape(chat_server: ChatServer) -> None:
    chat_server.enqueue(chat_reply(content="ok"))
    async with OpenAIClient(
        base_url=chat_server.url, api_key=SECRET, extra_headers={"X-Team": "qa"}
    ) as client:
        await client.complete(
            simple_request(max_output_tokens=321, temperature=0.25, top_p=0.5, seed=7)
        )
    (request,) = chat_server.requests
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    assert request.headers["content-type"] == "application/json"
    assert request.headers["accept"] == "application/json"
    assert request.headers["user-agent"].startswith("artemiskit/")
    assert request.headers["x-team"] == "qa"
    assert request.json == {
        "model": "test-model",
        "messages": [
            {"role": "system", "content": "Be careful."},
            {"role": "user", "content": "Read a.md"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "read_file",
                    "description": "Read a file.",
                    "parameters": {
                        "type": "object",
                        "properties": {"path": {"type": "string"}},
                        "required": ["path"],
                    },
                },
            }
        ],
        "max_tokens": 321,
        "temperature": 0.25,
        "top_p": 0.5,
        "seed": 7,
    }


async def test_unset_settings_are_not_sent_and_no_key_no_header(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(chat_reply(content="ok"))
    async with OpenAIClient(base_url=chat_server.url) as client:
        await client.complete(
            ModelRequest(
                model="m", messages=(Message(role="user", content="hi"),), tools=()
            )
        )
    (request,) = chat_server.requests
    assert "authorization" not in request.headers
    assert request.json == {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
    }


@pytest.mark.parametrize("status", [500, 502, 503])
async def test_server_error_is_one_request_and_target_error(
    chat_server: ChatServer, status: int
) -> None:
    chat_server.enqueue(Reply(status=status, body={"error": {"code": "overloaded"}}))
    async with OpenAIClient(base_url=chat_server.url, api_key=SECRET) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(simple_request())
    assert caught.value.exit_code == 7
    assert caught.value.reason == (
        "provider_overloaded" if status == 503 else "provider_server_error"
    )
    assert f"HTTP {status}" in str(caught.value)
    assert len(chat_server.requests) == 1
    assert_no_secret(caught.value)


async def test_refused_connection_is_target_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with OpenAIClient(
        base_url=f"http://127.0.0.1:{port}/v1", api_key=SECRET
    ) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(simple_request())
    assert caught.value.reason == "provider_connect_refused"
    assert "refused the connection (nothing was sent)" in str(caught.value)
    assert_no_secret(caught.value)


async def test_dropped_connection_is_one_request_and_target_error(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(CloseConnection())
    async with OpenAIClient(base_url=chat_server.url, api_key=SECRET) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(simple_request())
    assert len(chat_server.requests) == 1
    assert_no_secret(caught.value)


@pytest.mark.parametrize(
    ("status", "error_type", "exit_code"),
    [
        (401, ConfigError, 1),
        (403, ConfigError, 1),
        (404, UnsupportedError, 3),
        (400, TargetError, 7),
        (422, TargetError, 7),
        (429, TargetError, 7),
    ],
)
async def test_http_status_mapping(
    chat_server: ChatServer,
    status: int,
    error_type: type[ArtemisError],
    exit_code: int,
) -> None:
    # Providers echo (masked) keys in their error text; it must never be shown.
    body = {"error": {"message": f"Incorrect API key {SECRET}", "code": "some_code"}}
    chat_server.enqueue(Reply(status=status, body=body))
    async with OpenAIClient(base_url=chat_server.url, api_key=SECRET) as client:
        with pytest.raises(error_type) as caught:
            await client.complete(simple_request())
    assert isinstance(caught.value, error_type)
    assert caught.value.exit_code == exit_code
    assert str(status) in str(caught.value)
    assert "some_code" in str(caught.value)
    assert len(chat_server.requests) == 1
    assert_no_secret(caught.value)


async def test_redirect_is_not_followed(chat_server: ChatServer) -> None:
    chat_server.enqueue(Reply(status=307, body={}), chat_reply(content="never"))
    async with OpenAIClient(base_url=chat_server.url) as client:
        with pytest.raises(TargetError, match="HTTP 307"):
            await client.complete(simple_request())
    assert len(chat_server.requests) == 1


@pytest.mark.parametrize(
    "reply",
    [
        Reply(body=b"<html>not json</html>", content_type="text/html"),
        Reply(body={"object": "chat.completion"}),
        Reply(body={"choices": []}),
        Reply(body=[1, 2]),
        chat_reply(tool_calls=[{"type": "function", "function": {"name": "x"}}]),
        chat_reply(
            tool_calls=[
                {"id": "c1", "type": "function", "function": {"arguments": "{}"}}
            ]
        ),
    ],
    ids=["not-json", "no-choices", "empty-choices", "not-object", "no-id", "no-name"],
)
async def test_invalid_responses(chat_server: ChatServer, reply: Reply) -> None:
    chat_server.enqueue(reply)
    async with OpenAIClient(base_url=chat_server.url, api_key=SECRET) as client:
        with pytest.raises(InvalidResponseError) as caught:
            await client.complete(simple_request())
    assert caught.value.exit_code == 2
    assert len(chat_server.requests) == 1
    assert_no_secret(caught.value)


@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "chunked"])
async def test_oversized_response_is_invalid(
    chat_server: ChatServer, chunked: bool
) -> None:
    chat_server.enqueue(Reply(body=b" " * (17 * 1024 * 1024), chunked=chunked))
    async with OpenAIClient(base_url=chat_server.url) as client:
        with pytest.raises(InvalidResponseError, match="exceeds"):
            await client.complete(simple_request())
    assert len(chat_server.requests) == 1


@pytest.mark.parametrize(
    "usage",
    [None, {}, {"prompt_tokens": 3}, {"prompt_tokens": "3", "completion_tokens": 1}],
    ids=["absent", "empty", "partial", "malformed"],
)
async def test_missing_usage_is_unavailable(
    chat_server: ChatServer, usage: dict[str, Any] | None
) -> None:
    chat_server.enqueue(chat_reply(content="hi", usage=usage))
    async with OpenAIClient(base_url=chat_server.url) as client:
        response = await client.complete(simple_request())
    assert response.text == "hi"
    assert response.usage is None


async def test_chunked_answer_is_read(chat_server: ChatServer) -> None:
    reply = chat_reply(content="x" * 3_000_000)
    chat_server.enqueue(Reply(body=reply.body, chunked=True))
    async with OpenAIClient(base_url=chat_server.url) as client:
        response = await client.complete(simple_request())
    assert response.text == "x" * 3_000_000


async def test_usage_is_parsed(chat_server: ChatServer) -> None:
    chat_server.enqueue(
        chat_reply(
            content="hi",
            usage={"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15},
        )
    )
    async with OpenAIClient(base_url=chat_server.url) as client:
        response = await client.complete(simple_request())
    assert response.usage == Usage(input_tokens=11, output_tokens=4)


async def test_cancel_scope_aborts_request_and_closes_connection(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(NeverAnswer())
    scope = anyio.CancelScope()

    async def call(client: OpenAIClient) -> None:
        with scope:
            await client.complete(simple_request())

    async with OpenAIClient(base_url=chat_server.url, api_key=SECRET) as client:
        async with anyio.create_task_group() as group:
            group.start_soon(call, client)
            assert await in_thread(chat_server.wait_for_hanging)
            scope.cancel()
        assert scope.cancelled_caught
        assert await in_thread(chat_server.wait_for_disconnects)
    assert len(chat_server.requests) == 1


async def test_deadline_scope_aborts_request_and_closes_connection(
    chat_server: ChatServer,
) -> None:
    """The same through a deadline, as `move_on_after` sets one."""
    chat_server.enqueue(NeverAnswer())
    scope = anyio.CancelScope()

    async def call(client: OpenAIClient) -> None:
        with scope:
            await client.complete(simple_request())

    async with OpenAIClient(base_url=chat_server.url) as client:
        async with anyio.create_task_group() as group:
            group.start_soon(call, client)
            assert await in_thread(chat_server.wait_for_hanging)
            scope.deadline = anyio.current_time()
        assert scope.cancelled_caught
        assert await in_thread(chat_server.wait_for_disconnects)


async def test_client_is_reusable_after_a_cancelled_request(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(NeverAnswer(), chat_reply(content="after"))
    async with OpenAIClient(base_url=chat_server.url) as client:
        with anyio.move_on_after(3600) as scope:
            async with anyio.create_task_group() as group:
                group.start_soon(client.complete, simple_request())
                assert await in_thread(chat_server.wait_for_hanging)
                scope.cancel()
        response = await client.complete(simple_request())
    assert response.text == "after"
    assert len(chat_server.requests) == 2


async def test_request_timeout_is_target_error(chat_server: ChatServer) -> None:
    chat_server.enqueue(NeverAnswer())
    async with OpenAIClient(
        base_url=chat_server.url, api_key=SECRET, request_timeout_ms=50
    ) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(simple_request())
    assert caught.value.reason == "provider_timeout"
    assert "request_timeout_ms=50" in str(caught.value)
    assert_no_secret(caught.value)
    assert len(chat_server.requests) <= 1
    if chat_server.requests:
        assert await in_thread(chat_server.wait_for_disconnects)


#: httpx's own default timeout, shortened for the test (it is 5 s): a client that
#: let it apply would give up on `slow_answer`.
TRANSPORT_DEFAULT = httpx.Timeout(0.2)
SLOW_PROVIDER_SECONDS = 0.6  # past TRANSPORT_DEFAULT, far within request_timeout_ms


def slow_answer(request: RecordedRequest) -> Reply:
    """A provider that takes longer than httpx's default to answer, then answers."""
    del request
    time.sleep(SLOW_PROVIDER_SECONDS)
    return chat_reply(content="slow but fine")


async def test_a_slow_answer_within_request_timeout_ms_is_accepted(
    chat_server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # request_timeout_ms alone bounds a request: no shorter transport default
    # applies. httpx's default (5 s) is made 0.2 s, so that showing it does not
    # apply takes 0.6 s instead of 6.
    defaults = httpx.AsyncClient.__init__.__kwdefaults__
    assert defaults is not None
    monkeypatch.setitem(defaults, "timeout", TRANSPORT_DEFAULT)
    async with httpx.AsyncClient() as plain:
        assert plain.timeout == TRANSPORT_DEFAULT
    chat_server.enqueue(Computed(slow_answer))
    async with OpenAIClient(
        base_url=chat_server.url, api_key=SECRET, request_timeout_ms=60_000
    ) as client:
        response = await client.complete(simple_request())
    assert response.text == "slow but fine"
    assert len(chat_server.requests) == 1


async def test_non_ascii_text_is_sent_as_utf_8(chat_server: ChatServer) -> None:
    chat_server.enqueue(chat_reply(content="ok"))
    request = ModelRequest(
        model="test-model",
        messages=(Message(role="user", content="Rückerstattung ✓"),),
        tools=(),
    )
    async with OpenAIClient(base_url=chat_server.url) as client:
        await client.complete(request)
    (sent,) = chat_server.requests
    assert "Rückerstattung ✓".encode() in sent.body


async def test_request_timeout_ms_bounds_a_body_that_keeps_trickling(
    chat_server: ChatServer,
) -> None:
    # every piece arrives well within the deadline; the whole answer does not
    chat_server.enqueue(Trickle(chat_reply(content="late").body, pause_s=0.1))
    async with OpenAIClient(base_url=chat_server.url, request_timeout_ms=300) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(simple_request())
    assert caught.value.reason == "provider_timeout"


async def test_closed_client_refuses_without_a_request(chat_server: ChatServer) -> None:
    client = OpenAIClient(base_url=chat_server.url)
    await client.aclose()
    await client.aclose()
    with pytest.raises(TargetError) as caught:
        await client.complete(simple_request())
    assert str(caught.value) == "the Chat Completions client is closed"
    assert chat_server.requests == []


async def test_tool_message_without_id_fails_before_any_request(
    chat_server: ChatServer,
) -> None:
    request = ModelRequest(
        model="m", messages=(Message(role="tool", content="x"),), tools=()
    )
    async with OpenAIClient(base_url=chat_server.url) as client:
        with pytest.raises(TargetError, match="tool_call_id"):
            await client.complete(request)
    assert chat_server.requests == []


async def test_unencodable_request_fails_before_any_request(
    chat_server: ChatServer,
) -> None:
    async with OpenAIClient(base_url=chat_server.url) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(simple_request(temperature=float("nan")))
    assert (caught.value.reason, str(caught.value)) == (
        "invalid_model_request",
        "the model request cannot be encoded as JSON (a non-finite number or a "
        "non-JSON value in the settings or a tool schema)",
    )
    assert chat_server.requests == []
