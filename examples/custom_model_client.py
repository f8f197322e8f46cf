"""A custom `ModelClient` (a provider client) wrapped with `create_model_client_target`.

A `ModelClient` speaks to one provider: one ``complete()`` call is one provider
request. `create_model_client_target` turns it into an `AgentTarget` that sends the
model name, sampling parameters and the engine's output allowance with every request.
This one is an offline "echo model" that records what it was sent, and it is driven
through the low-level API: `load_agent_workflow` + `create_agent_workflow_session`.

    python examples/custom_model_client.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio

from artemiskit import (
    TargetResponse,
    ToolCall,
    Usage,
    create_agent_workflow_session,
    create_model_client_target,
    load_agent_workflow,
)
from artemiskit.targets import ModelRequest

WORKFLOW = Path(__file__).parent / "quickstart" / "workflow.yaml"


class OfflineClient:
    """Plays the quickstart task and remembers each request's settings."""

    def __init__(self) -> None:
        self.requests: list[ModelRequest] = []

    async def complete(self, request: ModelRequest) -> TargetResponse:
        self.requests.append(request)
        usage = Usage(input_tokens=90, output_tokens=15)
        tool_results = [m for m in request.messages if m.role == "tool"]
        if not tool_results:
            arguments = json.dumps({"path": "docs/refund-policy.md"})
            call = ToolCall(id="c1", name="read_file", arguments=arguments)
            return TargetResponse(tool_calls=(call,), usage=usage)
        if len(tool_results) == 1:
            text = "Refunds are accepted within 30 days of purchase with a receipt."
            arguments = json.dumps({"path": "out/summary.md", "content": text})
            call = ToolCall(id="c2", name="write_file", arguments=arguments)
            return TargetResponse(tool_calls=(call,), usage=usage)
        return TargetResponse(text="Written to out/summary.md.", usage=usage)


async def main() -> int:
    workflow = await load_agent_workflow(WORKFLOW)
    client = OfflineClient()
    target = create_model_client_target(client, model="offline-echo", temperature=0)
    session = create_agent_workflow_session(
        workflow=workflow, target=target, fixture_root=WORKFLOW.parent
    )
    result = await session.run()
    for number, request in enumerate(client.requests, start=1):
        tools = ", ".join(tool.name for tool in request.tools)
        print(
            f"request {number}: model={request.model} tools=[{tools}] "
            f"max_output_tokens={request.max_output_tokens}"
        )
    print(f"task verification: {result.record.task_verification.status}")
    print(f"exit code: {result.exit_code}")
    return result.exit_code


if __name__ == "__main__":
    sys.exit(anyio.run(main))
