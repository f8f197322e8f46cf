"""`create_model_client_target`: one provider request per model request, as given."""

from __future__ import annotations

import attrs

from artemiskit import ArtemisKit, TargetRequest, TargetResponse
from artemiskit.targets import (
    Message,
    ModelRequest,
    ToolDefinition,
    create_model_client_target,
)
from tests._builders import workflow_dict
from tests._runs import USAGE, call, calling, workflow_of

SENTINEL = "SENTINEL-client-message-5e2f"


@attrs.define
class RecordingClient:
    """Answers with ``responses`` in order, then ``Done.``; keeps every request."""

    responses: list[TargetResponse] = attrs.Factory(list)
    requests: list[ModelRequest] = attrs.Factory(list)

    async def complete(self, request: ModelRequest) -> TargetResponse:
        self.requests.append(request)
        index = len(self.requests) - 1
        if index < len(self.responses):
            return self.responses[index]
        return TargetResponse(text="Done.", usage=USAGE)


async def test_respond_is_one_complete_with_the_model_settings() -> None:
    client = RecordingClient()
    target = create_model_client_target(
        client, model="m-1", temperature=0.5, top_p=0.9, seed=7
    )
    tool = ToolDefinition(
        name="read_file", description="d", input_schema={"type": "object"}
    )
    request = TargetRequest(
        messages=(Message(role="user", content=SENTINEL),),
        tools=(tool,),
        max_output_tokens=123,
    )
    response = await target.respond(request)
    assert response.text == "Done."
    (sent,) = client.requests
    assert sent == ModelRequest(
        model="m-1",
        messages=request.messages,
        tools=(tool,),
        max_output_tokens=123,
        temperature=0.5,
        top_p=0.9,
        seed=7,
    )
    assert SENTINEL not in repr(sent)


async def test_a_run_with_a_client_uses_the_workflows_target() -> None:
    data = workflow_dict(
        target={
            "provider": "scripted",
            "model": "agent-model",
            "parameters": {"temperature": 0, "seed": 3, "max_output_tokens": 800},
        },
        conversation={"turns": [{"user": SENTINEL}]},
        outcomes=[],
    )
    client = RecordingClient([calling(call("read_file", {"path": "docs/policy.md"}))])
    result = await ArtemisKit().run_workflow(workflow=workflow_of(data), client=client)
    assert result.record.execution.status == "completed"
    assert len(client.requests) == result.record.budget.used.model_requests == 2
    for request in client.requests:
        assert (request.model, request.temperature, request.seed) == (
            "agent-model",
            0,
            3,
        )
        assert request.top_p is None
        assert request.max_output_tokens is not None
        assert request.max_output_tokens <= 800
        assert [t.name for t in request.tools] == ["read_file", "write_file"]
        assert request.messages[0].content == SENTINEL
    assert [m.role for m in client.requests[1].messages][-2:] == ["assistant", "tool"]
    assert SENTINEL not in repr(result.record)
