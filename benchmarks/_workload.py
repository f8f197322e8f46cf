"""The shared workload: a one-turn workflow and targets that answer with tool calls.

Every step is one model request answered with ``TEXT_BYTES`` of assistant text and
one ``read_file`` call on a ``TEXT_BYTES`` file, so each step adds about 4 KB to the
conversation. The LangGraph peer (``_langgraph_workload.py``) runs the same shape.
"""

from __future__ import annotations

import json
import time

import anyio
from anyio.lowlevel import checkpoint

from artemiskit import (
    TargetRequest,
    TargetResponse,
    ToolCall,
    Usage,
    Workflow,
    parse_agent_workflow,
)

__all__ = [
    "TEXT_BYTES",
    "InstantTarget",
    "LatencyTarget",
    "filler_text",
    "step_workflow",
]

TEXT_BYTES = 2048
_NOTES_PATH = "docs/notes.md"
_USAGE = Usage(input_tokens=1, output_tokens=1)


def filler_text(size: int = TEXT_BYTES) -> str:
    """``size`` bytes of plain ASCII prose-like text."""
    unit = "The quick brown fox jumps over the lazy dog. "
    return (unit * (size // len(unit) + 1))[:size]


def step_workflow(*, steps: int, name: str = "benchmark-steps") -> Workflow:
    """A simulated-environment workflow with room for ``steps`` tool-calling steps."""
    data = {
        "version": 1,
        "name": name,
        "target": {"provider": "scripted", "model": "benchmark"},
        "environment": {"kind": "simulated", "files": {_NOTES_PATH: filler_text()}},
        "tools": [{"name": "read_file", "allow": {"paths": ["docs/**"]}}],
        "conversation": {"turns": [{"user": "Read the notes, again and again."}]},
        "budgets": {
            "max_actions": min(10_000, 2 * steps + 10),
            "timeout_ms": 3_600_000,
        },
        "outcomes": [{"id": "read", "tool_called": "read_file", "min": 1}],
    }
    return parse_agent_workflow(json.dumps(data), source=f"<{name}>")


def _read_call(number: int) -> ToolCall:
    return ToolCall(
        id=f"call-{number}",
        name="read_file",
        arguments=json.dumps({"path": _NOTES_PATH}),
    )


class InstantTarget:
    """Answers instantly: ``steps`` tool-calling answers, then a final text.

    ``stamps[k]`` is the `time.perf_counter` at the start of model request ``k + 1``,
    so ``stamps[k + 1] - stamps[k]`` is everything the engine did for step ``k + 1``
    (record the answer, admit and run the tool call, build the next request).
    """

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.requests = 0
        self.stamps: list[float] = []
        self._text = filler_text()

    async def respond(self, request: TargetRequest) -> TargetResponse:
        """Answer the next step without waiting (one scheduling point)."""
        self.stamps.append(time.perf_counter())
        self.requests += 1
        await checkpoint()
        if self.requests > self.steps:
            return TargetResponse(text="Done.", usage=_USAGE)
        return TargetResponse(
            text=self._text, tool_calls=(_read_call(self.requests),), usage=_USAGE
        )

    def step_seconds(self) -> list[float]:
        """Per-step durations, step 1 first."""
        return [b - a for a, b in zip(self.stamps, self.stamps[1:], strict=False)]


class LatencyTarget:
    """Like `InstantTarget` but each answer takes ``latency_s`` (a model's latency)."""

    def __init__(self, steps: int, latency_s: float) -> None:
        self.steps = steps
        self.latency_s = latency_s
        self.requests = 0
        self._text = filler_text()

    async def respond(self, request: TargetRequest) -> TargetResponse:
        """Sleep for the latency, then answer like `InstantTarget`."""
        self.requests += 1
        await anyio.sleep(self.latency_s)
        if self.requests >= self.steps:
            return TargetResponse(text="Done.", usage=_USAGE)
        return TargetResponse(
            text=self._text, tool_calls=(_read_call(self.requests),), usage=_USAGE
        )
