"""What a completed run shows its evaluators: the judge's context and scorer evidence.

`RunEvidence` gathers the final state, the final response, the logical tool calls
(with their original arguments, `traced_calls`) and the conversation once. From
it, `judge_context` builds exactly the context a judge's ``sees`` lists, nothing
else, and `scorer_evidence` gives each scorer its own read-only copy.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any, Literal

import attrs

from artemiskit._common._glob import glob_matches
from artemiskit.engine._predicates import parse_arguments, resolve_path
from artemiskit.engine._scorer import Evidence, ToolCallEvidence, freeze

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from artemiskit.engine._state import TraceEntry
    from artemiskit.targets._protocol import Message
    from artemiskit.workflow._model import JudgeSight

__all__ = [
    "MAX_JUDGE_CONTEXT_CHARS",
    "RunEvidence",
    "TracedCall",
    "judge_context",
    "scorer_evidence",
    "sight_kinds",
    "traced_calls",
]

#: A judge's context is cut at this many characters.
MAX_JUDGE_CONTEXT_CHARS = 32_000


@attrs.frozen(kw_only=True, repr=False)
class TracedCall:
    """One logical tool call: its tool, how it ended, the model's argument text."""

    tool: str
    status: Literal["succeeded", "failed", "denied"]
    arguments: str | None = None

    def __repr__(self) -> str:
        return f"TracedCall(tool={self.tool!r}, status={self.status!r})"


def traced_calls(
    trace: Sequence[TraceEntry], conversation: Sequence[Message]
) -> tuple[TracedCall, ...]:
    """The trace with each call's original arguments, read from the conversation.

    Each trace entry answers the first pending call of the latest assistant
    message, in order, so the n-th entry is the n-th tool call the conversation
    holds; the arguments are read there rather than kept twice in session state.
    """
    calls = [
        call for m in conversation if m.role == "assistant" for call in m.tool_calls
    ]
    return tuple(
        TracedCall(
            tool=entry.tool,
            status=entry.status,
            arguments=calls[index].arguments if index < len(calls) else None,
        )
        for index, entry in enumerate(trace)
    )


class RunEvidence:
    """The evidence of one completed run, as the engine holds it (not copied)."""

    __slots__ = ("calls", "conversation", "final_response", "final_state")

    def __init__(
        self,
        *,
        final_state: Mapping[str, Any],
        final_response: str | None,
        calls: Sequence[TracedCall],
        conversation: Sequence[Message],
    ) -> None:
        self.final_state = final_state
        self.final_response = final_response
        self.calls = calls
        self.conversation = conversation

    def __repr__(self) -> str:
        return f"RunEvidence(tool_calls={len(self.calls)})"

    def tool_calls(self) -> list[dict[str, Any]]:
        """Each logical call: ``name``, original ``arguments`` and ``status``."""
        return [
            {
                "name": call.tool,
                "arguments": parse_arguments(call.arguments),
                "status": call.status,
            }
            for call in self.calls
        ]

    def transcript(self) -> list[dict[str, Any]]:
        """The conversation, one plain mapping per message."""
        return [
            {
                "role": message.role,
                "content": message.content,
                "tool_calls": [
                    {"id": c.id, "name": c.name, "arguments": c.arguments}
                    for c in message.tool_calls
                ],
                "tool_call_id": message.tool_call_id,
            }
            for message in self.conversation
        ]


def scorer_evidence(evidence: RunEvidence) -> Evidence:
    """A scorer's own read-only copy of the run's evidence."""
    calls = tuple(
        ToolCallEvidence(
            name=call["name"],
            arguments=freeze(call["arguments"]),
            status=call["status"],
        )
        for call in evidence.tool_calls()
    )
    return Evidence(
        final_state=freeze(copy.deepcopy(dict(evidence.final_state))),
        final_response=evidence.final_response,
        tool_calls=calls,
        transcript=freeze(evidence.transcript()),
    )


def sight_kinds(sees: Sequence[JudgeSight]) -> tuple[str, ...]:
    """The kinds a judge sees, in the order given (what the record lists)."""
    return tuple(sight.kind for sight in sees)


def _dumped(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)


def _section(sight: JudgeSight, evidence: RunEvidence) -> str:
    state = evidence.final_state
    if sight.kind == "final_response":
        return f"FINAL ANSWER:\n{evidence.final_response or '(none)'}"
    if sight.kind == "files":
        files: Mapping[str, str] = state.get("files", {})
        shown = [
            f"FILE {path}:\n{content}"
            for path, content in sorted(files.items())
            if any(glob_matches(glob, path) for glob in sight.selectors)
        ]
        return "\n\n".join(shown) or "FILES: (none matched)"
    if sight.kind == "state":
        parts = []
        for path in sight.selectors:
            found, value = resolve_path(state, path)
            parts.append(f"STATE {path}:\n{_dumped(value) if found else '(absent)'}")
        return "\n\n".join(parts)
    if sight.kind == "drafts":
        return f"DRAFTS:\n{_dumped(state.get('drafts', []))}"
    if sight.kind == "tool_calls":
        return f"TOOL CALLS:\n{_dumped(evidence.tool_calls())}"
    return f"TRANSCRIPT:\n{_dumped(evidence.transcript())}"


def judge_context(sees: Sequence[JudgeSight], evidence: RunEvidence) -> str:
    """Exactly what ``sees`` lists of the run, as the judge's context text."""
    text = "\n\n".join(_section(sight, evidence) for sight in sees)
    return text[:MAX_JUDGE_CONTEXT_CHARS]
