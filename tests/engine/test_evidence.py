"""Evidence stays clean and serializable: leak test and cattrs round-trips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings, strategies as st

from artemiskit import ArtemisKit, SessionEvent
from artemiskit._common._converter import CONVERTER
from artemiskit.engine._state import (
    Counters,
    Cursor,
    Denial,
    LocalState,
    Operation,
    SessionState,
    Stop,
    TraceEntry,
)
from artemiskit.records import (
    StateChange,
    record_to_dict,
)
from artemiskit.targets import Message, ToolCall
from tests._builders import workflow_dict, write_workflow

SENTINELS = {
    "system": "SENTINEL-SYSTEM-7f3a",
    "user": "SENTINEL-USER-19bc",
    "file": "SENTINEL-FILE-CONTENT-55de",
    "path": "sentinel-path-a8e1",
    "doc": "SENTINEL-DOC-FIELD-0c42",
    "argument": "SENTINEL-ARGUMENT-d9e0",
    "recipient": "sentinel-recipient-3b71@example.com",
    "model": "SENTINEL-MODEL-TEXT-6f02",
    "tool": "sentinel_undeclared_tool_4411",
}


async def test_no_sentinel_reaches_the_record_or_any_event(tmp_path: Path) -> None:
    s = SENTINELS
    script: list[dict[str, Any]] = [
        {
            "text": s["model"],
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": f"docs/{s['path']}.md"}},
                {"name": "read_document", "arguments": {"id": "doc-1"}},
            ],
        },
        {
            "tool_calls": [
                {
                    "name": "write_file",
                    "arguments": {
                        "path": f"out/{s['path']}.md",
                        "content": s["argument"],
                    },
                },
                {
                    "name": "draft_message",
                    "arguments": {
                        "to": s["recipient"],
                        "subject": s["argument"],
                        "body": s["model"],
                    },
                },
                {"name": s["tool"], "arguments": {"x": s["argument"]}},
            ]
        },
        {"text": f"Done {s['model']}"},
    ]
    workflow = workflow_dict(
        environment={
            "files": {f"docs/{s['path']}.md": s["file"]},
            "state": {"documents": {"doc-1": {"title": s["doc"], "content": s["doc"]}}},
        },
        tools=[
            {"name": "read_file", "allow": {"paths": ["docs/**"]}},
            {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
            {"name": "read_document", "allow": {"ids": ["doc-*"]}},
            {"name": "draft_message", "allow": {"recipients": ["*@example.com"]}},
        ],
        policy={"on_denial": "report"},
        conversation={"system": s["system"], "turns": [{"user": s["user"]}]},
        outcomes=[
            {
                "id": "written",
                "file": f"out/{s['path']}.md",
                "contains": [s["argument"]],
            },
            {"id": "answer", "final_response": {"contains": [s["model"]]}},
        ],
    )
    path = write_workflow(tmp_path, workflow, script)
    session = await ArtemisKit().create_workflow_session(workflow=path)
    events: list[SessionEvent] = []
    reader = session.events()

    async def collect() -> None:
        async for event in reader:
            events.append(event)

    import anyio

    async with anyio.create_task_group() as group:
        group.start_soon(collect)
        result = await session.run()
    assert result.exit_code == 0, result.record
    assert result.record.policy.denials == 1
    evidence = json.dumps(record_to_dict(result.record)) + json.dumps(
        [CONVERTER.unstructure(e) for e in events]
    )
    for name, sentinel in s.items():
        assert sentinel.lower() not in evidence.lower(), name
    transcript = json.dumps(CONVERTER.unstructure(result.transcript))
    assert s["model"] in transcript  # the SDK-only transcript does hold the text
    assert str(tmp_path) not in evidence


texts = st.text(max_size=20)
small = st.integers(min_value=0, max_value=10_000)
calls = st.builds(ToolCall, id=texts, name=texts, arguments=texts)
messages = st.builds(
    Message,
    role=st.sampled_from(["system", "user", "assistant", "tool"]),
    content=st.none() | texts,
    tool_calls=st.lists(calls, max_size=2).map(tuple),
    tool_call_id=st.none() | texts,
    is_error=st.booleans(),
)
json_scalars = st.none() | st.booleans() | st.integers() | texts
states = st.builds(
    SessionState,
    cursor=st.builds(Cursor, turn=small, step=small),
    turn_open=st.booleans(),
    conversation=st.lists(messages, max_size=4).map(tuple),
    pending_calls=st.lists(calls, max_size=2).map(tuple),
    counters=st.builds(
        Counters,
        actions=small,
        model_requests=small,
        tool_calls=small,
        measured_input_tokens=small,
        measured_output_tokens=small,
        measured_responses=small,
        unmeasured_responses=small,
    ),
    next_operation=small,
    ledger=st.lists(
        st.builds(
            Operation,
            id=texts,
            kind=st.sampled_from(["model_request", "tool_call"]),
            status=st.sampled_from(["admitted", "succeeded", "failed", "unknown"]),
            tool=st.none() | texts,
            attempt=small,
            reason=st.none() | texts,
        ),
        max_size=3,
    ).map(tuple),
    trace=st.lists(
        st.builds(
            TraceEntry,
            tool=texts,
            status=st.sampled_from(["succeeded", "failed", "denied"]),
            attempts=small,
            reason=st.none() | texts,
        ),
        max_size=3,
    ).map(tuple),
    changes=st.lists(
        st.builds(
            StateChange,
            tool=texts,
            resource=st.sampled_from(["file", "record", "draft", "tool_state"]),
            before=st.none() | texts,
            after=st.none() | texts,
        ),
        max_size=2,
    ).map(tuple),
    denials=st.lists(
        st.builds(Denial, tool=st.none() | texts, reason=texts), max_size=2
    ).map(tuple),
    local=st.builds(
        LocalState,
        records=st.dictionaries(
            texts, st.dictionaries(texts, st.dictionaries(texts, json_scalars))
        ),
        sections=st.dictionaries(texts, st.dictionaries(texts, json_scalars)),
    ),
    final_response=st.none() | texts,
    overshoot_tokens=small,
    stop=st.none()
    | st.builds(
        Stop,
        status=st.sampled_from(["completed", "cancelled", "paused"]),
        reason=texts,
        exit_code=small,
    ),
    completed=st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(states)
def test_session_state_round_trips_exactly(state: SessionState) -> None:
    data = CONVERTER.unstructure(state)
    assert CONVERTER.structure(json.loads(json.dumps(data)), SessionState) == state
