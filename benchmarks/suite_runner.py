"""Suite runner throughput: instant runs through the local executor, and latency.

Usage: ``python -m benchmarks.suite_runner [--quick] [--runs N]``. Prints JSON on
stdout; it writes nothing outside a temporary folder (never the tracked results).

- ``instant``: N offline runs (scripted, simulated, one instant model answer) of one
  workflow through `ArtemisKit.run_suite` on the local executor, with and without an
  output folder; runs per second, and the share of the wall time spent outside the
  engine: the same N runs made one after the other as bare engine sessions
  (`create_agent_workflow_session`, the workflow parsed once, an instant agent)
  are the engine's part; the rest is the suite's (planning, statistics, record
  and ``suite.json`` writes).
- ``latency``: 200 runs at concurrency 50 whose model answers after 20 ms; the wall
  time against (200 / 50) x the wall time of one run (SPEC 10: at most 1.5x).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

from artemiskit import (
    ArtemisKit,
    TargetRequest,
    TargetResponse,
    Usage,
    create_agent_workflow_session,
    load_agent_workflow,
)

_USAGE = {"input_tokens": 1, "output_tokens": 1}


def _workflow(folder: Path, *, delay_ms: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "version": 1,
        "name": "bench",
        "target": {"provider": "scripted", "model": "bench"},
        "environment": {"kind": "simulated", "files": {"docs/a.md": "a"}},
        "tools": [{"name": "read_file", "allow": {"paths": ["docs/**"]}}],
        "conversation": {"turns": [{"user": "Answer."}]},
        "budgets": {"max_actions": 5, "timeout_ms": 60_000},
        "outcomes": [{"id": "answered", "final_response": {"contains": ["Done"]}}],
    }
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data), "utf-8")
    script = {
        "version": 1,
        "responses": [{"text": "Done.", "usage": _USAGE, "delay_ms": delay_ms}],
    }
    (folder / "bench.script.yaml").write_text(json.dumps(script), "utf-8")
    return path


async def _suite_wall(
    kit: ArtemisKit, path: Path, runs: int, concurrency: int, out: Path | None
) -> float:
    started = time.perf_counter()
    result = await kit.run_suite(
        paths=[path], repeat=runs, concurrency=concurrency, output_dir=out
    )
    wall = time.perf_counter() - started
    assert result.summary["totals"]["passed"] == runs, result.summary["totals"]
    return wall


class _Done:
    """An agent that answers "Done." at once, like the instant script."""

    async def respond(self, request: TargetRequest) -> TargetResponse:
        usage = Usage(input_tokens=1, output_tokens=1)
        return TargetResponse(text="Done.", usage=usage)


async def _engine_wall(path: Path, runs: int) -> float:
    """The engine alone: a session per run, the workflow parsed once."""
    workflow = await load_agent_workflow(path)
    started = time.perf_counter()
    for _ in range(runs):
        session = create_agent_workflow_session(workflow=workflow, target=_Done())
        result = await session.run()
        assert result.exit_code == 0
    return time.perf_counter() - started


async def measure(runs: int) -> dict[str, Any]:
    """Run both measures and return their figures."""
    kit = ArtemisKit()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        instant = _workflow(root / "instant", delay_ms=0)
        engine = await _engine_wall(instant, runs)
        bare = await _suite_wall(kit, instant, runs, 1, None)
        kept = await _suite_wall(kit, instant, runs, 1, root / "out-1")
        parallel = await _suite_wall(kit, instant, runs, 4, root / "out-4")
        slow = _workflow(root / "latency", delay_ms=20)
        latency: dict[str, Any] = {}
        for kept_files in (False, True):
            singles = [
                await _suite_wall(
                    kit, slow, 1, 1, root / f"one-{i}" if kept_files else None
                )
                for i in range(5)
            ]
            one_run = statistics.median(singles)
            wall = await _suite_wall(
                kit, slow, 200, 50, root / "out-latency" if kept_files else None
            )
            latency["with_output" if kept_files else "no_output"] = {
                "one_run_wall_s": round(one_run, 4),
                "suite_wall_s": round(wall, 3),
                "ratio_to_ideal": round(wall / (200 / 50 * one_run), 2),
            }
    return {
        "instant": {
            "runs": runs,
            "engine_only_wall_s": round(engine, 3),
            "suite_no_output": {
                "wall_s": round(bare, 3),
                "runs_per_s": round(runs / bare, 1),
                "share_outside_engine": round(max(0.0, 1 - engine / bare), 3),
            },
            "suite_with_output": {
                "wall_s": round(kept, 3),
                "runs_per_s": round(runs / kept, 1),
                "share_outside_engine": round(max(0.0, 1 - engine / kept), 3),
            },
            "suite_with_output_concurrency_4": {
                "wall_s": round(parallel, 3),
                "runs_per_s": round(runs / parallel, 1),
            },
        },
        "latency": {
            "runs": 200,
            "concurrency": 50,
            "model_latency_ms": 20,
            **latency,
        },
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print JSON."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_runner")
    parser.add_argument("--quick", action="store_true", help="200 instant runs")
    parser.add_argument("--runs", type=int, help="instant runs (default 1000)")
    arguments = parser.parse_args(argv)
    runs = arguments.runs or (200 if arguments.quick else 1000)
    print(json.dumps(anyio.run(measure, runs), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
