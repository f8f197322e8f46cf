"""What the built-in client says when a provider misbehaves, through a real server.

Each HTTP status maps to its typed error and reason code; each way a body breaks
the Chat Completions protocol is named by the rule it breaks (never by content);
the client's repr and its header checks never let a secret or a bad byte through.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from artemiskit import ConfigError, InvalidResponseError, TargetError, UnsupportedError
from artemiskit.providers import OpenAIClient
from artemiskit.targets import Message, ModelRequest

from ._chat_server import ChatServer, Reply, chat_reply

pytestmark = pytest.mark.anyio

SECRET = "sk-SECRET-protocol-errors"


def request() -> ModelRequest:
    return ModelRequest(
        model="test-model",
        messages=(Message(role="user", content="Hi."),),
        tools=(),
    )


@pytest.mark.parametrize(
    ("status", "body", "error", "reason", "detail"),
    [
        (401, {}, ConfigError, "credential_refused", "HTTP 401"),
        (403, {}, ConfigError, "credential_refused", "HTTP 403"),
        (404, {}, UnsupportedError, "model_not_found", "HTTP 404"),
        (
            429,
            {"error": {"code": "rate_limit_exceeded"}},
            TargetError,
            "provider_rate_limited",
            "HTTP 429, rate_limit_exceeded",
        ),
        (500, {}, TargetError, "provider_server_error", "HTTP 500"),
        (503, {}, TargetError, "provider_overloaded", "HTTP 503"),
        (529, {}, TargetError, "provider_overloaded", "HTTP 529"),
        (400, {}, TargetError, "provider_http_error", "HTTP 400"),
        (430, {}, TargetError, "provider_http_error", "HTTP 430"),
        (300, {}, TargetError, "provider_http_error", "HTTP 300"),
    ],
)
async def test_each_status_has_its_error_and_reason(
    chat_server: ChatServer,
    status: int,
    body: dict[str, Any],
    error: type[Exception],
    reason: str,
    detail: str,
) -> None:
    chat_server.enqueue(Reply(status=status, body=body))
    async with OpenAIClient(base_url=chat_server.url, api_key=SECRET) as client:
        with pytest.raises(error) as caught:
            await client.complete(request())
    assert caught.value.reason == reason  # type: ignore[attr-defined]
    message = str(caught.value)
    assert f"({detail})" in message
    assert chat_server.url.removesuffix("/v1") in message
    assert SECRET not in message
    if status in (429, 500, 503, 529):
        assert message.endswith("no retry was made")
    if status == 404:
        assert "'test-model'" in message
        assert message.endswith("and that base_url ends with the API root, e.g. /v1")
    assert len(chat_server.requests) == 1


def call(**changes: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "read_file", "arguments": "{}"},
    }
    item.update(changes)
    return item


def answer(message: Any) -> dict[str, Any]:
    return {"choices": [{"index": 0, "message": message}]}


BROKEN: list[tuple[Any, str]] = [
    (b"{not json", "the provider's response body is not valid JSON"),
    ([], "the response is not a JSON object"),
    ({"choices": []}, "the response has no choices"),
    ({"choices": "x"}, "the response has no choices"),
    ({"choices": [{"message": "x"}]}, "the first choice has no message object"),
    ({"choices": ["x"]}, "the first choice has no message object"),
    (answer({"content": 3}), "the message content is neither text nor null"),
    (answer({"tool_calls": {}}), "message.tool_calls is not a list"),
    (answer({"tool_calls": ["x"]}), "tool call 0 is not an object"),
    (answer({"tool_calls": [call(id="")]}), "tool call 0 has no id"),
    (
        answer({"tool_calls": [call(), call()]}),
        "tool call 1 repeats the id of an earlier call",
    ),
    (
        answer({"tool_calls": [call(type="code")]}),
        "tool call 0 is not of type function",
    ),
    (answer({"tool_calls": [call(function=[])]}), "tool call 0 has no function object"),
    (
        answer({"tool_calls": [call(function={"name": "", "arguments": "{}"})]}),
        "tool call 0 has no function name",
    ),
    (
        answer({"tool_calls": [call(function={"name": "read_file", "arguments": {}})]}),
        "tool call 0 has no arguments JSON text",
    ),
]


@pytest.mark.parametrize(("body", "rule"), BROKEN)
async def test_a_broken_answer_names_the_rule_it_breaks(
    chat_server: ChatServer, body: Any, rule: str
) -> None:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    chat_server.enqueue(Reply(body=raw))
    async with OpenAIClient(base_url=chat_server.url) as client:
        with pytest.raises(InvalidResponseError) as caught:
            await client.complete(request())
    message = str(caught.value)
    if isinstance(body, bytes):
        assert message == rule
    else:
        prefix = "the provider answered outside the Chat Completions protocol: "
        assert message == prefix + rule


async def test_a_tool_call_without_a_type_is_a_function_call(
    chat_server: ChatServer,
) -> None:
    item = call()
    del item["type"]
    chat_server.enqueue(Reply(body=answer({"content": None, "tool_calls": [item]})))
    async with OpenAIClient(base_url=chat_server.url) as client:
        response = await client.complete(request())
    assert [c.name for c in response.tool_calls] == ["read_file"]


async def test_a_refusal_is_the_answer_text(chat_server: ChatServer) -> None:
    chat_server.enqueue(Reply(body=answer({"content": None, "refusal": "No."})))
    async with OpenAIClient(base_url=chat_server.url) as client:
        response = await client.complete(request())
    assert response.text == "No."


def test_repr_shows_whether_a_key_is_set_never_the_key() -> None:
    with_key = OpenAIClient(
        base_url="http://127.0.0.1:9/v1",
        api_key=SECRET,
        extra_headers={"X-Org": "org-SECRET"},
    )
    assert repr(with_key) == (
        "OpenAIClient(base_url='http://127.0.0.1:9/v1', api_key=<set>, "
        "request_timeout_ms=60000, extra_headers=['x-org'])"
    )
    without = OpenAIClient(base_url="http://127.0.0.1:9/v1")
    assert "api_key=None" in repr(without)
    assert "extra_headers=[]" in repr(without)


@pytest.mark.parametrize("name", ["X-Org", "x_custom", "A!#$%&'*+-.^_`|~z", "X1"])
def test_header_names_that_are_tokens_are_accepted(name: str) -> None:
    OpenAIClient(base_url="http://127.0.0.1:9/v1", extra_headers={name: "v"})


@pytest.mark.parametrize("name", ["", "X Org", "X:Org", "Ünï", "X(1)", "X/1"])
def test_header_names_that_are_not_tokens_are_refused(name: str) -> None:
    with pytest.raises(
        ConfigError, match=r"^an extra header name is not a valid HTTP token$"
    ):
        OpenAIClient(base_url="http://127.0.0.1:9/v1", extra_headers={name: "v"})


@pytest.mark.parametrize("value", ["", "a b", "tab\there", "~!", " "])
def test_printable_header_values_are_accepted(value: str) -> None:
    OpenAIClient(base_url="http://127.0.0.1:9/v1", extra_headers={"X-V": value})


@pytest.mark.parametrize("value", ["a\nb", "a\rb", "\x1f", "\x7f", "é", "\x00"])
def test_unprintable_header_values_are_refused(value: str) -> None:
    with pytest.raises(ConfigError, match="printable ASCII on one line"):
        OpenAIClient(base_url="http://127.0.0.1:9/v1", extra_headers={"X-V": value})


ERROR_BODY_BOUND = 64 * 1024


@pytest.mark.parametrize("status", [429, 300])
@pytest.mark.parametrize("chunked", [False, True])
@pytest.mark.parametrize(("extra", "kept"), [(0, True), (1, False)])
async def test_an_error_body_within_its_bound_keeps_its_code(
    chat_server: ChatServer, status: int, chunked: bool, extra: int, kept: bool
) -> None:
    body = json.dumps({"error": {"code": "rate_limit_exceeded"}}).encode()
    body += b" " * (ERROR_BODY_BOUND - len(body) + extra)
    chat_server.enqueue(Reply(status=status, body=body, chunked=chunked))
    async with OpenAIClient(base_url=chat_server.url) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(request())
    assert ("rate_limit_exceeded" in str(caught.value)) is kept
    assert f"HTTP {status}" in str(caught.value)


async def test_a_redirect_is_an_error_never_followed(chat_server: ChatServer) -> None:
    chat_server.enqueue(
        Reply(status=307, body={}, headers=(("Location", chat_server.url + "/x"),)),
        Reply(body={"choices": [{"message": {"content": "followed"}}]}),
    )
    async with OpenAIClient(base_url=chat_server.url) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(request())
    assert caught.value.reason == "provider_http_error"
    assert len(chat_server.requests) == 1


async def test_messages_without_text_are_sent_with_empty_content(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(Reply(body=answer({"content": "ok"})))
    silent = ModelRequest(
        model="test-model",
        messages=(
            Message(role="system", content=None),
            Message(role="user", content=None),
            Message(role="assistant", content=None),
        ),
        tools=(),
    )
    async with OpenAIClient(base_url=chat_server.url) as client:
        await client.complete(silent)
    (sent,) = chat_server.requests
    assert [m["content"] for m in sent.json["messages"]] == ["", "", ""]


async def test_a_tool_result_without_its_call_id_is_refused_before_sending(
    chat_server: ChatServer,
) -> None:
    orphan = ModelRequest(
        model="test-model",
        messages=(
            Message(role="user", content="Hi."),
            Message(role="tool", content="result"),
        ),
        tools=(),
    )
    async with OpenAIClient(base_url=chat_server.url) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(orphan)
    assert str(caught.value) == (
        "conversation message 1 is a tool result without a tool_call_id; Chat "
        "Completions cannot correlate it"
    )
    assert chat_server.requests == []


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"extra_headers": {"Content-Type": "text/plain"}},
            "extra header 'Content-Type' is reserved or repeated",
        ),
        (
            {"extra_headers": {"HOST": "example.org"}},
            "extra header 'HOST' is reserved or repeated",
        ),
        (
            {"extra_headers": {"X-Team": "qa", "x-team": "ops"}},
            "extra header 'x-team' is reserved or repeated",
        ),
        (
            {"api_key": "sk-1", "extra_headers": {"authorization": "Bearer sk-2"}},
            "give the credential either as api_key or as an authorization extra "
            "header, not both",
        ),
        (
            {"api_key": " "},
            "the provider api_key must be non-empty printable ASCII on one line",
        ),
        (
            {"api_key": "sk-1\nX-Injected: 1"},
            "the provider api_key must be non-empty printable ASCII on one line",
        ),
    ],
)
def test_each_header_refusal_says_what_is_wrong(
    settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        OpenAIClient(base_url="http://127.0.0.1:9/v1", **settings)
    assert str(caught.value) == message


async def test_distinct_extra_headers_and_an_authorization_header_are_sent(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(chat_reply(content="ok"))
    headers = {"X-Team": "qa", "X-Org": "acme", "Authorization": "Token abc"}
    async with OpenAIClient(base_url=chat_server.url, extra_headers=headers) as client:
        await client.complete(request())
    (sent,) = chat_server.requests
    assert (
        sent.headers["x-team"],
        sent.headers["x-org"],
        sent.headers["authorization"],
    ) == ("qa", "acme", "Token abc")
