"""Hostile tool arguments from a real Chat Completions server end as denials."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from artemiskit import ArtemisKit
from artemiskit.providers import AnthropicClient, OpenAIClient
from artemiskit.records import record_to_dict
from tests._builders import workflow_dict
from tests._hostile_arguments import HOSTILE_ARGUMENTS

from ._chat_server import ChatServer, Reply, chat_reply

USAGE = {"prompt_tokens": 11, "completion_tokens": 4}


def hostile_reply(call_id: str, arguments: str) -> Reply:
    call = {
        "id": call_id,
        "type": "function",
        "function": {"name": "read_file", "arguments": arguments},
    }
    return chat_reply(tool_calls=[call], usage=USAGE)


def write(folder: Path, **changes: Any) -> Path:
    path = folder / "workflow.yaml"
    workflow = workflow_dict(target={"provider": "local", "model": "m1"}, **changes)
    path.write_text(json.dumps(workflow), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(HOSTILE_ARGUMENTS))
async def test_hostile_arguments_are_an_invalid_arguments_denial(
    tmp_path: Path, chat_server: ChatServer, name: str
) -> None:
    chat_server.enqueue(hostile_reply("call_1", HOSTILE_ARGUMENTS[name]))
    async with OpenAIClient(base_url=chat_server.url) as client:
        result = await ArtemisKit().run_workflow(
            workflow=write(tmp_path), client=client
        )
    record = result.record
    assert record.execution.status == "policy_denied"
    assert record.execution.reason == "invalid_arguments"
    assert result.exit_code == 4
    assert record.policy.denial_reasons == {"invalid_arguments": 1}
    assert record.budget.usage_measurement == "complete"
    assert len(chat_server.requests) == 1
    record_to_dict(record)


async def test_report_mode_sends_the_hostile_calls_back_and_goes_on(
    tmp_path: Path, chat_server: ChatServer
) -> None:
    names = sorted(HOSTILE_ARGUMENTS)
    chat_server.enqueue(
        *(hostile_reply(f"call_{n}", HOSTILE_ARGUMENTS[n]) for n in names),
        chat_reply(content="Gave up.", usage=USAGE),
    )
    path = write(
        tmp_path,
        policy={"on_denial": "report"},
        outcomes=[{"id": "nothing-read", "tool_not_called": "read_file"}],
        budgets={"max_actions": 50, "timeout_ms": 30000},
    )
    async with OpenAIClient(base_url=chat_server.url) as client:
        result = await ArtemisKit().run_workflow(workflow=path, client=client)
    record = result.record
    assert record.execution.status == "completed"
    assert result.exit_code == 0
    assert record.policy.denial_reasons == {"invalid_arguments": len(names)}
    requests = chat_server.requests
    assert len(requests) == len(names) + 1
    last = requests[-1].json
    echoed = [
        call["function"]["arguments"]
        for message in last["messages"]
        for call in message.get("tool_calls", [])
    ]
    assert echoed == [HOSTILE_ARGUMENTS[n] for n in names]
    record_to_dict(record)


def anthropic_body(arguments: str) -> Reply:
    """A Messages answer whose tool input is ``arguments``, verbatim when it must be."""
    try:
        value = json.loads(arguments)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, dict):
        block: Any = {
            "type": "tool_use",
            "id": "t1",
            "name": "read_file",
            "input": value,
        }
        body: Any = {
            "type": "message",
            "content": [block],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
        return Reply(body=body)
    raw = (
        '{"type": "message", "stop_reason": "tool_use", "content": [{"type": '
        '"tool_use", "id": "t1", "name": "read_file", "input": ' + arguments + "}]}"
    )
    return Reply(body=raw.encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("name", sorted(HOSTILE_ARGUMENTS))
async def test_hostile_anthropic_inputs_are_a_denial_or_an_invalid_response(
    tmp_path: Path, chat_server: ChatServer, name: str
) -> None:
    """In the Messages API the input is part of the answer's JSON, not a string:
    what Python's decoder can read ends as a denial, the rest (nesting past its
    limit, an integer of 5,000 digits, a list) as an invalid response."""
    reply = anthropic_body(HOSTILE_ARGUMENTS[name])
    chat_server.enqueue(reply)
    async with AnthropicClient(base_url=chat_server.url) as client:
        result = await ArtemisKit().run_workflow(
            workflow=write(tmp_path), client=client
        )
    record = result.record
    if isinstance(reply.body, bytes):
        assert result.exit_code == 2
        assert record.execution.reason == "invalid_target_response"
    else:
        assert result.exit_code == 4
        assert record.policy.denial_reasons == {"invalid_arguments": 1}
    assert len(chat_server.requests) == 1
    record_to_dict(record)
