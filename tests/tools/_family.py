"""Run one tool family through the SDK and read what the model and the record got."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from artemiskit import ArtemisKit
from artemiskit.tools import CATALOGUE
from tests._runs import ReplayTarget, workflow_of

if TYPE_CHECKING:
    from artemiskit import SessionEvent, TargetResponse, WorkflowResult


async def run_with_events(
    data: dict[str, Any], responses: list[TargetResponse]
) -> tuple[WorkflowResult, list[SessionEvent]]:
    """Run ``data`` against a `ReplayTarget` and collect every event."""
    session = await ArtemisKit().create_workflow_session(
        workflow=workflow_of(data), target=ReplayTarget(responses)
    )
    reader = session.events(buffer=10_000)
    result = await session.run()
    return result, [event async for event in reader]


def tool_answers(result: WorkflowResult) -> list[tuple[bool, Any]]:
    """What the model received for each tool call: (is_error, decoded JSON)."""
    return [
        (message.is_error, json.loads(message.content or "null"))
        for message in result.transcript
        if message.role == "tool"
    ]


def output_of(result: WorkflowResult, tool: str, index: int = 0) -> dict[str, Any]:
    """The ``index``-th successful output, checked against ``tool``'s output schema."""
    outputs = [answer for error, answer in tool_answers(result) if not error]
    output: dict[str, Any] = outputs[index]
    assert CATALOGUE[tool].schema_problem("output", output) is None
    return output


def failures(events: list[SessionEvent]) -> list[str | None]:
    """The reason codes of the operations that settled as failed."""
    return [
        event.reason
        for event in events
        if event.type == "operation_settled" and event.status == "failed"
    ]
