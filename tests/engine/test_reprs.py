"""Reprs of results, sessions and what they hold show identities and statuses only.

``assert result.exit_code == 0, result`` puts the repr into CI logs, so no repr may
carry the system prompt, a user turn, model text, tool arguments, file contents,
local state or a path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from artemiskit import (
    ArtemisKit,
    CheckpointOptions,
    TargetRequest,
    TargetResponse,
    ToolCall,
    Usage,
    load_agent_workflow,
)
from artemiskit.targets import ModelRequest
from artemiskit.workflow._fixture import FixtureContents
from tests._builders import workflow_dict, write_workflow

SENTINELS = (
    "SENTINEL-SYSTEM-41aa",
    "SENTINEL-USER-5b2c",
    "SENTINEL-FILE-6c3d",
    "SENTINEL-DOC-TITLE-7d4e",
    "SENTINEL-DOC-BODY-8e5f",
    "SENTINEL-FIELD-9f60",
    "SENTINEL-ARGUMENT-0a71",
    "SENTINEL-MODEL-1b82",
    "SENTINEL-DRAFT-2c93",
    "sentinel-path-3da4",
    "SENTINEL-DESCRIPTION-4eb5",
    "SENTINEL-EXPECTED-5fc6",
)
(
    SYSTEM,
    USER,
    FILE,
    DOC_TITLE,
    DOC_BODY,
    FIELD,
    ARGUMENT,
    MODEL,
    DRAFT,
    PATH,
    DESCRIPTION,
    EXPECTED,
) = SENTINELS


def assert_clean(*values: object) -> None:
    for value in values:
        for text in (repr(value), str(value)):
            leaked = [s for s in SENTINELS if s in text]
            assert not leaked, f"{type(value).__name__} shows {leaked}"


@attrs.define
class RecordingTarget:
    """Writes a file, drafts a message, answers; keeps what it was sent."""

    requests: list[TargetRequest] = attrs.Factory(list)
    responses: list[TargetResponse] = attrs.Factory(list)

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.requests.append(request)
        usage = Usage(input_tokens=1, output_tokens=1)
        step = len(self.requests)
        if step == 1:
            arguments = {"path": f"out/{PATH}.md", "content": ARGUMENT}
            call = ToolCall(id="c1", name="write_file", arguments=json.dumps(arguments))
            response = TargetResponse(text=MODEL, tool_calls=(call,), usage=usage)
        elif step == 2:
            arguments = {"to": "ops@example.com", "subject": DRAFT, "body": DRAFT}
            call = ToolCall(
                id="c2", name="draft_message", arguments=json.dumps(arguments)
            )
            response = TargetResponse(tool_calls=(call,), usage=usage)
        else:
            response = TargetResponse(text=MODEL, usage=usage)
        self.responses.append(response)
        return response


def sentinel_workflow() -> dict[str, Any]:
    return workflow_dict(
        description=DESCRIPTION,
        environment={
            "files": {f"docs/{PATH}.md": FILE},
            "state": {
                "documents": {"d-1": {"title": DOC_TITLE, "content": DOC_BODY}},
                "records": {"tickets": {"T-1": {"note": FIELD}}},
            },
        },
        tools=[
            {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
            {"name": "draft_message", "allow": {"recipients": ["*@example.com"]}},
        ],
        conversation={"system": SYSTEM, "turns": [{"user": USER}]},
        outcomes=[{"id": "said", "final_response": {"contains": [EXPECTED]}}],
    )


async def test_no_repr_shows_state_transcript_or_workflow_content(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path, sentinel_workflow())
    workflow = await load_agent_workflow(path)
    target = RecordingTarget()
    session = await ArtemisKit().create_workflow_session(workflow=path, target=target)
    assert_clean(session, session.state)
    result = await session.run()
    assert result.exit_code == 8
    # The sentinels really are in the objects whose reprs are checked.
    assert result.state is not None
    assert ARGUMENT in json.dumps(result.state)
    assert any(m.content and SYSTEM in m.content for m in result.transcript)

    assert_clean(result, session, session.state, session.state.local)
    assert_clean(result.transcript, *result.transcript)
    assert_clean(*target.requests, *target.responses)
    assert_clean(workflow, workflow.conversation, workflow.environment)
    assert_clean(*workflow.conversation.turns, workflow.environment.state)
    assert_clean(*workflow.environment.state.documents.values())
    model_request = ModelRequest(
        model="m",
        messages=target.requests[-1].messages,
        tools=target.requests[-1].tools,
    )
    assert_clean(model_request)
    assert_clean(CheckpointOptions(directory=tmp_path / PATH))
    assert_clean(
        FixtureContents(
            documents=workflow.environment.state.documents,
            records=workflow.environment.state.records,
            files=workflow.environment.files,
        )
    )
    assert f"run_id={result.record.run_id!r}" in repr(result)
    assert "status='completed'" in repr(result)
    assert "exit_code=8" in repr(result)
    assert result.record.run_id in repr(session)
