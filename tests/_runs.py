"""Run small in-memory workflows through the SDK with a replaying agent target.

Behaviour tests build a workflow as a dict (see `tests._builders`), hand the model's
answers to `ReplayTarget`, and read what the SDK returns: the record, the final state
and the events. Nothing here reaches into the engine.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import attrs
from anyio.lowlevel import checkpoint

from artemiskit import (
    ArtemisKit,
    TargetRequest,
    TargetResponse,
    ToolCall,
    Usage,
    parse_agent_workflow,
)

if TYPE_CHECKING:
    from artemiskit import Workflow, WorkflowResult

USAGE = Usage(input_tokens=10, output_tokens=5)
DONE = TargetResponse(text="Done.", usage=USAGE)
_NONCE = re.compile(r"nonce '([0-9a-f]+)'")


def call(
    name: str, arguments: dict[str, Any] | str, *, call_id: str = "c1"
) -> ToolCall:
    """One tool call; a string is sent as the raw arguments text."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ToolCall(id=call_id, name=name, arguments=text)


def calling(*calls: ToolCall, usage: Usage | None = USAGE) -> TargetResponse:
    """A model answer that asks for ``calls``."""
    return TargetResponse(tool_calls=calls, usage=usage)


@attrs.define
class ReplayTarget:
    """An `AgentTarget` that answers with ``responses`` in order, then ``Done.``.

    It also passes a preflight probe, as a tool-capable model would.
    """

    responses: list[TargetResponse] = attrs.Factory(list)
    requests: list[TargetRequest] = attrs.Factory(list)

    async def respond(self, request: TargetRequest) -> TargetResponse:
        await checkpoint()
        if any(tool.name == "artemiskit_probe" for tool in request.tools):
            last = request.messages[-1]
            if last.role == "tool":
                return TargetResponse(text="Probe done.", usage=USAGE)
            match = _NONCE.search(last.content or "")
            nonce = match.group(1) if match else ""
            return calling(call("artemiskit_probe", {"nonce": nonce}, call_id="p1"))
        self.requests.append(request)
        index = len(self.requests) - 1
        return self.responses[index] if index < len(self.responses) else DONE


def workflow_of(data: dict[str, Any]) -> Workflow:
    """Validate a workflow given as a dict."""
    return parse_agent_workflow(json.dumps(data))


async def run(
    data: dict[str, Any] | Workflow,
    responses: list[TargetResponse] | None = None,
    **options: Any,
) -> WorkflowResult:
    """Run the workflow ``data`` once against a `ReplayTarget` of ``responses``."""
    target = ReplayTarget(list(responses or []))
    workflow = workflow_of(data) if isinstance(data, dict) else data
    return await ArtemisKit().run_workflow(workflow=workflow, target=target, **options)
