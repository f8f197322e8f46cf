"""The LangGraph side of the comparison; runs in a throwaway venv, never imported.

``python _langgraph_workload.py --steps 500 --runs 3 --checkpointer none|sqlite``
prints one JSON object: the package versions and, per run, the per-step seconds.

The workload mirrors ``benchmarks/_workload.py``: a ReAct loop (``StateGraph`` over
``MessagesState``, an agent node, a ``ToolNode``, ``tools_condition``) whose chat
model answers instantly with 2 KB of text and one ``read_file`` call, and whose tool
returns 2 KB. A step is the time between two model invocations. LangGraph is
imported by name (it is not a dependency of this project).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

TEXT_BYTES = 2048


def _filler_text(size: int = TEXT_BYTES) -> str:
    unit = "The quick brown fox jumps over the lazy dog. "
    return (unit * (size // len(unit) + 1))[:size]


class _Script:
    """The instant model's script: how many tool-calling answers, when each came."""

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.requests = 0
        self.stamps: list[float] = []


def _chat_model_class() -> Any:
    """A minimal ``BaseChatModel`` subclass that replays `_Script` instantly."""
    language_models = importlib.import_module("langchain_core.language_models")
    messages = importlib.import_module("langchain_core.messages")
    outputs = importlib.import_module("langchain_core.outputs")
    text = _filler_text()

    def _generate(
        self: Any,
        prompt: list[Any],
        stop: Any = None,
        run_manager: Any = None,
        **_: Any,
    ) -> Any:
        script: _Script = self.script
        script.stamps.append(time.perf_counter())
        script.requests += 1
        if script.requests > script.steps:
            message = messages.AIMessage(content="Done.")
        else:
            message = messages.AIMessage(
                content=text,
                tool_calls=[
                    {
                        "name": "read_file",
                        "args": {"path": "docs/notes.md"},
                        "id": f"call-{script.requests}",
                    }
                ],
            )
        return outputs.ChatResult(generations=[outputs.ChatGeneration(message=message)])

    return type(
        "InstantChatModel",
        (language_models.BaseChatModel,),
        {
            "__module__": __name__,
            "__annotations__": {"script": Any},
            "_generate": _generate,
            "_llm_type": property(lambda self: "instant-fake"),
        },
    )


def _read_tool() -> Any:
    tools = importlib.import_module("langchain_core.tools")
    content = _filler_text()

    def read_file(path: str) -> str:
        """Return the notes file's text."""
        return content

    return tools.StructuredTool.from_function(
        func=read_file, name="read_file", description="Read a file."
    )


def _graph(model: Any, checkpointer: Any) -> Any:
    graph = importlib.import_module("langgraph.graph")
    prebuilt = importlib.import_module("langgraph.prebuilt")

    def agent(state: dict[str, Any]) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = graph.StateGraph(graph.MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", prebuilt.ToolNode([_read_tool()]))
    builder.add_edge(graph.START, "agent")
    builder.add_conditional_edges("agent", prebuilt.tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=checkpointer)


def _one_run(steps: int, checkpointer_kind: str, folder: Path) -> list[float]:
    script = _Script(steps)
    model = _chat_model_class()(script=script)
    connection: sqlite3.Connection | None = None
    checkpointer: Any = None
    if checkpointer_kind == "sqlite":
        sqlite_module = importlib.import_module("langgraph.checkpoint.sqlite")
        connection = sqlite3.connect(
            folder / f"{uuid.uuid4().hex}.sqlite", check_same_thread=False
        )
        checkpointer = sqlite_module.SqliteSaver(connection)
    try:
        compiled = _graph(model, checkpointer)
        # With a checkpointer, every step is made durable before the next one
        # starts, like the engine's durable journal.
        durability = {"durability": "sync"} if checkpointer is not None else {}
        compiled.invoke(
            {"messages": [("user", "Read the notes, again and again.")]},
            config={
                "recursion_limit": 2 * steps + 10,
                "configurable": {"thread_id": uuid.uuid4().hex},
            },
            **durability,
        )
    finally:
        if connection is not None:
            connection.close()
    if script.requests != steps + 1:
        raise RuntimeError(f"expected {steps + 1} model calls, got {script.requests}")
    return [b - a for a, b in zip(script.stamps, script.stamps[1:], strict=False)]


def _versions() -> dict[str, str]:
    found = {}
    for name in ("langgraph", "langchain-core", "langgraph-checkpoint-sqlite"):
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return found


def main() -> int:
    """Warm up once, then run the workload ``--runs`` times; print JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--checkpointer", choices=["none", "sqlite"], default="none")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="artemiskit-bench-lg-") as folder:
        _one_run(min(arguments.steps, 20), arguments.checkpointer, Path(folder))
        runs = []
        run_seconds = []
        for _ in range(arguments.runs):
            started = time.perf_counter()
            runs.append(_one_run(arguments.steps, arguments.checkpointer, Path(folder)))
            run_seconds.append(time.perf_counter() - started)
    sys.stdout.write(
        json.dumps(
            {
                "versions": _versions(),
                "python": sys.version.split()[0],
                "checkpointer": arguments.checkpointer,
                "steps": arguments.steps,
                "run_seconds": run_seconds,
                "runs": runs,
            }
        )
        + "\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
