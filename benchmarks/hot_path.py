"""Per step without durability (SPEC 10), every figure from interleaved pairs.

``python -m benchmarks.hot_path [--quick]`` prints one JSON object with:

- ``vs_plain_loop``: our engine against a plain-Python agent loop on the same
  target, doing the same parsing (the call's JSON arguments), policy check (path
  rules and the ``allow`` glob), file read and encoding (the result's JSON), and
  keeping the same conversation and a ledger of dicts; pairs (loop, ours), ratio
  of the median step;
- ``growth``: step 500 / step 10 of our runs in those pairs;
- ``marks``: our per-step time around steps 10, 100, 200 and 500, pooled over
  those runs.

`profile_calls` counts the Python calls per step of both under cProfile. The
comparison with LangGraph is ``benchmarks._peers``; the targets these figures meet
or miss are judged in ``benchmarks._targets``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any

import anyio

from artemiskit import AgentTarget, TargetRequest
from artemiskit._common._glob import glob_matches
from artemiskit.targets import Message, ToolDefinition
from benchmarks._engine import per_step_marks, profile_run, run_instant, step_window
from benchmarks._pairs import interleave, pair_summary
from benchmarks._workload import TEXT_BYTES, InstantTarget, filler_text, step_workflow

__all__ = ["measure_hot_path", "plain_agent_loop", "plain_loop", "profile_calls"]

_ALLOW = ("docs/**",)
_TOOLS = (
    ToolDefinition(
        name="read_file",
        description="Read a file.",
        input_schema={
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
        },
    ),
)


async def plain_loop(steps: int) -> InstantTarget:
    """The floor: a hand-written agent loop with no framework around it."""
    target = InstantTarget(steps)
    await plain_agent_loop(target)
    return target


async def plain_agent_loop(target: AgentTarget) -> None:
    """`plain_loop`'s agent loop on any target, until it answers without a call.

    The sessions measure runs it on the latency target for its floor.
    """
    files = {"docs/notes.md": filler_text()}
    conversation: list[Message] = [Message(role="user", content="Read the notes.")]
    ledger: list[dict[str, Any]] = []
    counters = {"actions": 0, "model_requests": 0, "tool_calls": 0}
    while True:
        ledger.append({"id": len(ledger) + 1, "kind": "model", "status": "admitted"})
        counters["actions"] += 1
        counters["model_requests"] += 1
        response = await target.respond(
            TargetRequest(messages=tuple(conversation), tools=_TOOLS)
        )
        ledger[-1]["status"] = "succeeded"
        conversation.append(
            Message(
                role="assistant", content=response.text, tool_calls=response.tool_calls
            )
        )
        if not response.tool_calls:
            return
        for call in response.tool_calls:
            arguments = json.loads(call.arguments)
            path = arguments["path"] if isinstance(arguments, dict) else None
            if (
                not isinstance(path, str)
                or path.startswith("/")
                or ".." in path.split("/")
                or not any(glob_matches(glob, path) for glob in _ALLOW)
            ):
                raise RuntimeError("the workload's call is always allowed")
            counters["actions"] += 1
            counters["tool_calls"] += 1
            ledger.append({"id": len(ledger) + 1, "kind": "tool", "status": "admitted"})
            content = json.dumps(
                {"path": path, "content": files[path]}, ensure_ascii=False
            )
            ledger[-1]["status"] = "succeeded"
            conversation.append(
                Message(role="tool", content=content, tool_call_id=call.id)
            )


def _window_median(values: list[float], mark: int) -> float:
    return statistics.median(
        values[step - 1] for step in step_window(mark, len(values))
    )


async def measure_hot_path(*, steps: int = 500, pairs: int = 5) -> dict[str, Any]:
    """Every no-durability figure of our own; see the module docstring."""
    workflow = step_workflow(steps=steps)
    await run_instant(workflow, steps)
    await plain_loop(steps)
    ours_runs: list[list[float]] = []

    async def loop() -> float:
        return statistics.median((await plain_loop(steps)).step_seconds())

    async def ours() -> float:
        per_step = (await run_instant(workflow, steps)).step_seconds()
        ours_runs.append(per_step)
        return statistics.median(per_step)

    loop_s, ours_s = await interleave(loop, ours, pairs=pairs)
    firsts = [_window_median(run, 10) for run in ours_runs]
    lasts = [_window_median(run, steps) for run in ours_runs]
    return {
        "scope": "in-process, interleaved pairs (plain loop, ours)",
        "steps": steps,
        "runs": len(ours_runs),
        "text_bytes_per_message": TEXT_BYTES,
        "step_us": statistics.median(ours_s) * 1e6,
        "plain_loop_step_us": statistics.median(loop_s) * 1e6,
        "vs_plain_loop": pair_summary(loop_s, ours_s),
        "growth": pair_summary(firsts, lasts),
        **per_step_marks(ours_runs),
    }


def profile_calls(steps: int) -> dict[str, Any]:
    """Python function calls per step: our engine's run against the plain loop's."""
    workflow = step_workflow(steps=steps)
    anyio.run(run_instant, workflow, 10)  # warm-up: imports and caches
    anyio.run(plain_loop, 10)
    engine = profile_run(lambda: run_instant(workflow, steps), steps)
    floor = profile_run(lambda: plain_loop(steps), steps)
    return {
        **engine,
        "plain_loop_calls_per_step": floor["calls_per_step"],
        "plain_loop_event_loop_turns_per_step": floor["event_loop_turns_per_step"],
        "plain_loop_top_by_own_time": floor["top_by_own_time"][:5],
    }


def main(argv: list[str] | None = None) -> int:
    """Run the no-durability measure and print its JSON and rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 steps")
    parser.add_argument("--pairs", type=int, default=5)
    arguments = parser.parse_args(argv)
    steps = 100 if arguments.quick else 500
    result = anyio.run(lambda: measure_hot_path(steps=steps, pairs=arguments.pairs))
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
