"""Whatever text a model sends is recorded and replayed, never a traceback.

Lone surrogates, quotes, control characters and non-ASCII text in model text and
tool arguments: a cassette keeps them exactly (as ASCII escapes where UTF-8
cannot hold them) and a replay reproduces the run. The request digest written
out directly equals the digest of the request's canonical JSON.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from artemiskit import ArtemisKit, TargetRequest, TargetResponse, ToolCall, Usage
from artemiskit._common._digests import bytes_digest, canonical_json, json_digest
from artemiskit.providers._replay_digests import RequestDigests, message_text
from artemiskit.records._cassette import encode_message, encode_request
from artemiskit.targets import Message
from tests._builders import write_workflow

pytestmark = pytest.mark.anyio

HOSTILE = ['{"path": "\ud800"}', 'quote " back \\ nul \x00 é 😀', "\udc00"]
PARAMETERS = {"model": "m", "temperature": None, "top_p": None, "seed": None}


class _Hostile:
    """Asks for a file with a lone surrogate in its path, then says odd things."""

    def __init__(self) -> None:
        self.calls = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        usage = Usage(input_tokens=1, output_tokens=1)
        if self.calls == 1:
            call = ToolCall(id="c\ud800", name="read_file", arguments=HOSTILE[0])
            return TargetResponse(tool_calls=(call,), usage=usage)
        return TargetResponse(text=HOSTILE[1] + HOSTILE[2], usage=usage)


async def test_hostile_model_text_records_and_replays(tmp_path: Path) -> None:
    workflow = write_workflow(tmp_path)
    cassette = tmp_path / "run.cassette.jsonl"
    kit = ArtemisKit()
    recorded = await kit.run_workflow(
        workflow=workflow, target=_Hostile(), record_cassette=cassette
    )
    assert recorded.record.cassette is not None
    cassette.read_bytes().decode("utf-8")  # the file is valid UTF-8
    replayed = await kit.run_workflow(workflow=workflow, replay=cassette)
    assert replayed.record.verdict == recorded.record.verdict
    assert replayed.record.execution.reason == recorded.record.execution.reason
    assert replayed.transcript == recorded.transcript
    (call,) = replayed.transcript[1].tool_calls
    assert (call.id, call.arguments) == ("c\ud800", HOSTILE[0])


_text = st.one_of(st.none(), st.text())


@given(
    content=_text,
    call_id=st.text(),
    name=st.text(),
    arguments=st.text(),
    is_error=st.booleans(),
)
def test_message_text_is_the_canonical_json(
    content: str | None, call_id: str, name: str, arguments: str, is_error: bool
) -> None:
    message = Message(
        role="assistant",
        content=content,
        tool_calls=(ToolCall(id=call_id, name=name, arguments=arguments),),
        tool_call_id=None if content is None else call_id,
        is_error=is_error,
    )
    assert message_text(message) == canonical_json(encode_message(message))


def test_request_digest_is_the_digest_of_the_encoded_request() -> None:
    messages = (
        Message(role="user", content="é"),
        Message(
            role="assistant",
            tool_calls=(ToolCall(id="1", name="read_file", arguments="{}"),),
        ),
        Message(role="tool", content="x", tool_call_id="1"),
    )
    request = TargetRequest(messages=messages, tools=(), max_output_tokens=7)
    expected = json_digest(encode_request(request, PARAMETERS))
    assert RequestDigests(PARAMETERS).digest(request) == expected


def test_a_growing_conversation_digests_as_each_request_whole() -> None:
    """Requests hashed as the conversation grows give each whole request's digest.

    A request that is no continuation (an edited earlier message, a shorter
    conversation) is hashed afresh.
    """
    user = Message(role="user", content="é \ud800 lone surrogate")
    call = Message(
        role="assistant",
        tool_calls=(ToolCall(id="1", name="read_file", arguments="{}"),),
    )
    result = Message(role="tool", content="x", tool_call_id="1")
    edited = Message(role="user", content="another first message")
    conversations = [
        (user,),
        (user, call, result),
        (user, call, result, Message(role="assistant", content="done")),
        (edited, call),
        (user,),
        (),
    ]
    digests = RequestDigests(PARAMETERS)
    for messages in conversations:
        request = TargetRequest(messages=messages, tools=(), max_output_tokens=7)
        data = canonical_json(encode_request(request, PARAMETERS))
        expected = bytes_digest(data.encode("utf-8", "surrogatepass"))
        assert digests.digest(request) == expected
