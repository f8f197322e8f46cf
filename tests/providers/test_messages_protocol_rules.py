"""The Messages API wire format (SPEC 16): what is sent, and the exact message a
user sees for each rule an answer breaks.

These call the protocol module's two functions directly: the Anthropic client tests
show the same through a real server; here every rule gets its own exact message.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from artemiskit._errors import InvalidResponseError, TargetError
from artemiskit.providers._messages_protocol import (
    encode_messages_request,
    parse_messages_response,
)
from artemiskit.targets import Message, ModelRequest, ToolCall

OUTSIDE = "the provider answered outside the Messages protocol: "


def request(*messages: Message) -> ModelRequest:
    return ModelRequest(model="claude-test", messages=messages, tools=())


def encode(*messages: Message) -> dict[str, Any]:
    return encode_messages_request(request(*messages), default_max_tokens=64)


def parse(document: object, *earlier: Message) -> Any:
    return parse_messages_response(json.dumps(document).encode(), request(*earlier))


def answer(content: object, stop_reason: str = "end_turn") -> dict[str, Any]:
    return {"type": "message", "content": content, "stop_reason": stop_reason}


def tool_use(call_id: str = "toolu_1", **fields: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "read_file", "input": {}} | (
        fields
    )


def refusal(document: object, *earlier: Message) -> str:
    with pytest.raises(InvalidResponseError) as caught:
        parse(document, *earlier)
    return caught.value.message


def test_system_messages_are_joined_by_a_blank_line_empty_ones_kept() -> None:
    body = encode(
        Message(role="system", content="Be careful."),
        Message(role="system", content=None),
        Message(role="user", content="Hi."),
    )
    assert body["system"] == "Be careful.\n\n"


def test_a_message_without_content_or_calls_is_one_empty_text_block() -> None:
    body = encode(
        Message(role="user", content="Hi."),
        Message(role="assistant", content=None),
    )
    assert body["messages"][-1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": ""}],
    }


def test_an_empty_tool_result_is_sent_as_empty_content() -> None:
    call = ToolCall(id="toolu_1", name="read_file", arguments="{}")
    body = encode(
        Message(role="user", content="Read."),
        Message(role="assistant", tool_calls=(call,)),
        Message(role="tool", tool_call_id="toolu_1", content=None),
    )
    assert body["messages"][-1]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": "",
            "is_error": False,
        }
    ]


def test_a_tool_result_answering_no_call_names_its_position() -> None:
    with pytest.raises(TargetError) as caught:
        encode(
            Message(role="user", content="Read."),
            Message(role="tool", tool_call_id="toolu_9", content="x"),
        )
    assert caught.value.message == (
        "conversation message 1 is a tool result that answers no earlier tool "
        "call; the Messages API cannot correlate it"
    )


def test_text_blocks_are_joined_without_separator() -> None:
    parsed = parse(
        answer([{"type": "text", "text": "Hel"}, {"type": "text", "text": "lo."}])
    )
    assert parsed.text == "Hello."


def test_an_answer_with_only_a_tool_call_has_no_text() -> None:
    parsed = parse(answer([tool_use()], "tool_use"))
    assert parsed.text is None
    assert [call.name for call in parsed.tool_calls] == ["read_file"]


def test_tool_call_input_keeps_non_ascii_characters() -> None:
    parsed = parse(answer([tool_use(input={"path": "café.md"})], "tool_use"))
    assert parsed.tool_calls[0].arguments == '{"path": "café.md"}'


@pytest.mark.parametrize(
    ("document", "rule"),
    [
        ([], "the response is not a JSON object"),
        ({"content": "Hello."}, "the response has no content list"),
        (answer(["Hello."]), "content block 0 has no type"),
        (answer([{"text": "Hello."}]), "content block 0 has no type"),
        (
            answer([{"type": "text", "text": "A"}, {"type": 3}]),
            "content block 1 has no type",
        ),
        (answer([tool_use(name="")], "tool_use"), "content block 0 has no tool name"),
        (answer([tool_use(id="")], "tool_use"), "content block 0 has no tool-use id"),
        (
            answer([{"type": "text", "text": "A"}], "tool_use"),
            "stop_reason tool_use without a tool_use block",
        ),
        (answer([{"type": "text", "text": "A"}], "paused"), "unknown stop_reason"),
    ],
    ids=[
        "not-an-object",
        "no-content-list",
        "block-not-an-object",
        "block-without-type",
        "second-block-type-not-a-string",
        "empty-tool-name",
        "empty-tool-use-id",
        "tool-use-stop-without-call",
        "unknown-stop-reason",
    ],
)
def test_each_broken_rule_has_its_own_message(document: object, rule: str) -> None:
    assert refusal(document) == OUTSIDE + rule
