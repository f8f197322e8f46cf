"""Transcripts: the conversation of a run, for people (sensitive working data)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from artemiskit.engine._session import WorkflowResult

__all__ = ["TRANSCRIPT_SCHEMA", "transcript_to_dict"]

TRANSCRIPT_SCHEMA = "artemiskit.transcript"


def transcript_to_dict(result: WorkflowResult) -> dict[str, Any]:
    """The run's conversation: every message, tool call and tool result.

    The transcript holds model text, tool arguments and tool results: keep it
    private (the CLI writes it 0600 in 0700 folders), never in a record.
    """
    return {
        "schema": TRANSCRIPT_SCHEMA,
        "schema_version": 1,
        "run_id": result.record.run_id,
        "workflow": result.record.workflow.name,
        "messages": [
            {
                "role": message.role,
                "content": message.content,
                "tool_calls": [
                    {"id": call.id, "name": call.name, "arguments": call.arguments}
                    for call in message.tool_calls
                ],
                "tool_call_id": message.tool_call_id,
                "is_error": message.is_error,
            }
            for message in result.transcript
        ],
    }
