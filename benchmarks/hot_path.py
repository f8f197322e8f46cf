"""Per step without durability (SPEC 10), every figure from interleaved pairs.

``python -m benchmarks.hot_path [--quick]`` prints one JSON object with:

- ``vs_plain_loop``: our engine against a plain-Python agent loop on the same
  target, doing the same parsing (the call's JSON arguments), policy check (path
  rules and the ``allow`` glob), file read and encoding (the result's JSON), and
  keeping the same conversation and a ledger of dicts; pairs (loop, ours), ratio
  of the median step;
- ``growth``: step 500 / step 10 of our runs in those pairs;
- ``vs_langgraph``: LangGraph without a checkpointer against ours without one,
  pairs (LangGraph run in its venv, our run), ratio of the step-10 window.

`rows` turns the result into rows of the targets table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio

from artemiskit import Message, TargetRequest, ToolDefinition
from artemiskit._common._glob import glob_matches
from benchmarks._engine import run_instant, step_window
from benchmarks._pairs import interleave, pair_summary, target_row
from benchmarks._workload import InstantTarget, filler_text, step_workflow

__all__ = ["measure_hot_path", "plain_loop", "rows"]

_HERE = Path(__file__).resolve().parent
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
            return target
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


def _langgraph_step(python: Path, steps: int, mark: int) -> float:
    completed = subprocess.run(
        [str(python), str(_HERE / "_langgraph_steps.py"), "--steps", str(steps)],
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"the LangGraph run failed: {completed.stderr[-800:]}")
    per_step: list[float] = json.loads(completed.stdout)["per_step"]
    return _window_median(per_step, mark)


async def measure_hot_path(
    *, steps: int = 500, pairs: int = 5, peer: bool = True
) -> dict[str, Any]:
    """Every no-durability figure; see the module docstring."""
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
    result: dict[str, Any] = {
        "steps": steps,
        "step_us": statistics.median(ours_s) * 1e6,
        "plain_loop_step_us": statistics.median(loop_s) * 1e6,
        "vs_plain_loop": pair_summary(loop_s, ours_s),
        "growth": pair_summary(firsts, lasts),
        "vs_langgraph": {"skipped": True, "reason": "not asked"},
    }
    if peer:
        result["vs_langgraph"] = await _versus_langgraph(workflow, steps, pairs)
    return result


async def _versus_langgraph(workflow: Any, steps: int, pairs: int) -> dict[str, Any]:
    from benchmarks._peers import _prepare

    python, note = _prepare()
    if python is None:
        return {"skipped": True, "reason": note}

    async def theirs() -> float:
        return _langgraph_step(python, steps, 10)

    async def ours() -> float:
        return _window_median((await run_instant(workflow, steps)).step_seconds(), 10)

    theirs_s, ours_s = await interleave(theirs, ours, pairs=pairs)
    return {
        "skipped": False,
        "environment": note,
        **pair_summary(ours_s, theirs_s),
    }


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of the targets table for the no-durability measure."""
    measure = "per step, instant target, no durability"
    loop, growth = result["vs_plain_loop"], result["growth"]
    table = [
        target_row(
            measure,
            "CPU per step within 2x of a plain-Python loop",
            f"{loop['ratio_median']:.2f}x ({loop['ratio_min']:.2f}-"
            f"{loop['ratio_max']:.2f}); {result['step_us']:.0f} us vs "
            f"{result['plain_loop_step_us']:.0f} us",
            met=loop["ratio_median"] <= 2,
        ),
        target_row(
            measure,
            f"step {result['steps']} / step 10 <= 1.1",
            f"{growth['ratio_median']:.2f} ({growth['ratio_min']:.2f}-"
            f"{growth['ratio_max']:.2f})",
            met=growth["ratio_median"] <= 1.1,
        ),
    ]
    peer = result["vs_langgraph"]
    target = ">= 10x cheaper than LangGraph without a checkpointer"
    if peer.get("skipped"):
        table.append(
            target_row(measure, target, f"skipped: {peer['reason']}", met=None)
        )
    else:
        table.append(
            target_row(
                measure,
                target,
                f"{peer['ratio_median']:.1f}x ({peer['ratio_min']:.1f}-"
                f"{peer['ratio_max']:.1f})",
                met=peer["ratio_median"] >= 10,
            )
        )
    return table


def main(argv: list[str] | None = None) -> int:
    """Run the no-durability measure and print its JSON and rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="no peer")
    parser.add_argument("--pairs", type=int, default=5)
    arguments = parser.parse_args(argv)
    result = anyio.run(
        lambda: measure_hot_path(pairs=arguments.pairs, peer=not arguments.quick)
    )
    result["rows"] = rows(result)
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
