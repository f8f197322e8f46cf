"""One LangGraph run of the step workload; runs in the peer's venv, never imported.

``python _langgraph_steps.py --steps 200 --checkpointer none|sqlite
[--durability sync|async|exit]`` warms up with a short run, then does one run and
prints one JSON object: the versions and the per-step seconds. The workload is
``_langgraph_workload.py``'s (same graph, model and tool); this script only adds
LangGraph's ``durability`` choice, so that its SQLite checkpointer can be timed
writing every checkpoint synchronously, like our durable journal.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sqlite3
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

from _langgraph_workload import _chat_model_class, _graph, _Script, _versions


def _one_run(
    steps: int, checkpointer_kind: str, durability: str | None, folder: Path
) -> list[float]:
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
    extra: dict[str, Any] = {} if durability is None else {"durability": durability}
    try:
        _graph(model, checkpointer).invoke(
            {"messages": [("user", "Read the notes, again and again.")]},
            config={
                "recursion_limit": 2 * steps + 10,
                "configurable": {"thread_id": uuid.uuid4().hex},
            },
            **extra,
        )
    finally:
        if connection is not None:
            connection.close()
    if script.requests != steps + 1:
        raise RuntimeError(f"expected {steps + 1} model calls, got {script.requests}")
    return [b - a for a, b in zip(script.stamps, script.stamps[1:], strict=False)]


def main() -> int:
    """Warm up, run once, print JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--checkpointer", choices=["none", "sqlite"], default="none")
    parser.add_argument("--durability", choices=["sync", "async", "exit"])
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="artemiskit-bench-lg-") as name:
        folder = Path(name)
        _one_run(10, arguments.checkpointer, arguments.durability, folder)
        per_step = _one_run(
            arguments.steps, arguments.checkpointer, arguments.durability, folder
        )
    sys.stdout.write(json.dumps({"versions": _versions(), "per_step": per_step}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
