"""Wire-format edge cases of Chat Completions, without a server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from artemiskit._errors import InvalidResponseError
from artemiskit.providers._chat_protocol import (
    encode_chat_request,
    error_code_of,
    parse_chat_response,
)
from artemiskit.targets import Message, ModelRequest, ToolCall, Usage


def body_with(message: dict[str, Any], **extra: Any) -> bytes:
    return json.dumps({"choices": [{"message": message}], **extra}).encode()


def test_assistant_messages_are_encoded_for_chat_completions() -> None:
    call = ToolCall(id="c1", name="read_file", arguments='{"path":"a"}')
    body = encode_chat_request(
        ModelRequest(
            model="m",
            messages=(
                Message(role="assistant"),
                Message(role="assistant", content="thinking", tool_calls=(call,)),
                Message(role="tool", tool_call_id="c1", is_error=True),
            ),
            tools=(),
        )
    )
    assert body["messages"] == [
        {"role": "assistant", "content": ""},
        {
            "role": "assistant",
            "content": "thinking",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": '{"path":"a"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": ""},
    ]
    assert "tools" not in body


def test_text_and_tool_calls_together() -> None:
    response = parse_chat_response(
        body_with(
            {
                "content": "Let me look.",
                "tool_calls": [
                    {"id": "a", "function": {"name": "x", "arguments": ""}},
                    {
                        "id": "b",
                        "type": "function",
                        "function": {"name": "y", "arguments": "[1"},
                    },
                ],
            },
            usage={"prompt_tokens": 0, "completion_tokens": 0},
        )
    )
    assert response.text == "Let me look."
    # Arguments stay exactly as sent, even when they are not valid JSON: the engine
    # validates the original arguments.
    assert [c.arguments for c in response.tool_calls] == ["", "[1"]
    assert response.usage == Usage(input_tokens=0, output_tokens=0)


def test_refusal_is_the_text_when_there_is_no_content() -> None:
    response = parse_chat_response(body_with({"content": None, "refusal": "No."}))
    assert response.text == "No."
    assert response.tool_calls == ()


@pytest.mark.parametrize(
    "usage",
    [
        {"prompt_tokens": True, "completion_tokens": 1},
        {"prompt_tokens": -1, "completion_tokens": 1},
        {"prompt_tokens": 1.5, "completion_tokens": 1},
        [1, 2],
        "12",
    ],
)
def test_malformed_usage_is_unavailable(usage: object) -> None:
    assert parse_chat_response(body_with({"content": "x"}, usage=usage)).usage is None


@pytest.mark.parametrize(
    "message",
    [
        {"content": 5},
        {"content": None, "tool_calls": {"id": "a"}},
        {"tool_calls": ["call"]},
        {"tool_calls": [{"id": "", "function": {"name": "x", "arguments": "{}"}}]},
        {"tool_calls": [{"id": "a", "type": "custom", "function": {"name": "x"}}]},
        {"tool_calls": [{"id": "a", "function": "x"}]},
        {"tool_calls": [{"id": "a", "function": {"name": "x", "arguments": {}}}]},
        {
            "tool_calls": [
                {"id": "a", "function": {"name": "x", "arguments": "{}"}},
                {"id": "a", "function": {"name": "y", "arguments": "{}"}},
            ]
        },
    ],
    ids=[
        "content-number",
        "tool-calls-object",
        "call-not-object",
        "empty-id",
        "not-function",
        "function-not-object",
        "arguments-object",
        "duplicate-id",
    ],
)
def test_protocol_violations(message: dict[str, Any]) -> None:
    with pytest.raises(InvalidResponseError):
        parse_chat_response(body_with(message))


@pytest.mark.parametrize(
    "body",
    [b"", b"\xff\xfe", b"[" * 100_000, b'{"choices": [1]}', b'{"choices": [{}]}'],
    ids=["empty", "not-utf8", "deep", "choice-not-object", "no-message"],
)
def test_unparseable_bodies(body: bytes) -> None:
    with pytest.raises(InvalidResponseError):
        parse_chat_response(body)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (
            b'{"error": {"code": "model_not_found", "message": "sk-abc"}}',
            "model_not_found",
        ),
        (
            b'{"error": {"code": null, "type": "invalid_request_error"}}',
            "invalid_request_error",
        ),
        (b'{"error": {"code": "has spaces sk-abc"}}', None),
        # LiteLLM repeats the status in `code`; its `type` names the failure
        (b'{"error": {"code": "429", "type": "throttling_error"}}', "throttling_error"),
        (b'{"error": {"code": "429", "type": "bad type sk-abc"}}', "429"),
        (b'{"error": {"code": "429"}}', "429"),
        (b'{"error": {"code": "e42", "type": "x"}}', "e42"),
        (b'{"error": "text"}', None),
        (b"oops", None),
    ],
)
def test_error_code_is_a_safe_identifier_only(body: bytes, code: str | None) -> None:
    assert error_code_of(body) == code
