"""Suite runner throughput: instant runs through the local executor, and latency.

Usage: ``python -m benchmarks.suite_runner [--quick] [--runs N] [--share]``. Prints
JSON on stdout; it writes nothing outside a temporary folder (never the tracked
results).

- ``instant``: N offline runs (scripted, simulated, one instant model answer) of one
  workflow through `ArtemisKit.run_suite` on the local executor, with and without an
  output folder; runs per second, and the share of the wall time spent outside the
  engine: the same N runs made one after the other as bare engine sessions
  (`create_agent_workflow_session`, the workflow parsed once, an instant agent)
  are the engine's part; the rest is the suite's (planning, statistics, record
  and ``suite.json`` writes).
- ``latency``: 200 runs at concurrency 50 whose model answers after 20 ms; the wall
  time against (200 / 50) x the wall time of one run (SPEC 10: at most 1.5x).
- `measure_share` (``--share``; SPEC 10's suite target, which ``python -m
  benchmarks`` measures in an interpreter of its own): the share of the suite's
  CPU time spent in runs rather than bookkeeping. Interleaved pairs (A, B, A, B,
  ...): A makes the N runs one after the other as single runs through the kit
  (the workflow parsed once, transports shared as a suite shares them, each
  record encoded and written atomically as the suite writes it); B is the suite
  of the same N runs with an output folder. CPU time counts every thread of the
  process; the share is A / B, its median over the pairs. A warm-up of each side
  comes first, and each side starts from a collected heap, so neither pays the
  process's one-time costs or collects the other's garbage.
"""

from __future__ import annotations

import argparse
import gc
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
    Workflow,
    create_agent_workflow_session,
    load_agent_workflow,
)
from artemiskit._common._atomic import write_atomically
from artemiskit.providers import SharedTransports
from artemiskit.records import record_to_dict

__all__ = ["measure", "measure_share", "render_share"]

_USAGE = {"input_tokens": 1, "output_tokens": 1}
_WARM_UP = 50


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
    # Exit 0 with the default gate (every run passed): the check reads no
    # record back (a written suite's record is read from suite.json on demand).
    assert result.exit_code == 0, result.exit_code
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


async def _singles(
    kit: ArtemisKit, workflow: Workflow, root: Path, out: Path, runs: int
) -> None:
    """The runs alone: one after the other, each record written as a suite does."""
    await anyio.Path(out).mkdir()
    transports = SharedTransports()
    try:
        for repetition in range(1, runs + 1):
            session = await kit.create_workflow_session(
                workflow=workflow,
                fixture_root=root,
                shared_transports=transports,
                repetition=repetition,
            )
            result = await session.run()
            data = json.dumps(record_to_dict(result.record), separators=(",", ":"))
            write_atomically(
                out / f"{repetition:03d}.record.json",
                data.encode("utf-8") + b"\n",
                replace=False,
                durable=False,
            )
    finally:
        await transports.aclose()


async def _share_pairs(runs: int, pairs: int) -> list[dict[str, float]]:
    kit = ArtemisKit()
    samples = []
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        path = _workflow(root / "instant", delay_ms=0)
        workflow = await load_agent_workflow(path)
        # One-time costs (imports, schema compilation, first files) fall on
        # whichever side runs first: a short warm-up of each side pays them.
        await _singles(kit, workflow, path.parent, root / "warm-runs", _WARM_UP)
        await _suite_wall(kit, path, _WARM_UP, 1, root / "warm-suite")
        for pair in range(pairs):
            # Each side starts from a collected heap, not the other's garbage.
            gc.collect()
            cpu = time.process_time()
            wall = time.perf_counter()
            await _singles(kit, workflow, path.parent, root / f"runs-{pair}", runs)
            runs_cpu = time.process_time() - cpu
            runs_wall = time.perf_counter() - wall
            gc.collect()
            cpu = time.process_time()
            wall = time.perf_counter()
            await _suite_wall(kit, path, runs, 1, root / f"suite-{pair}")
            suite_cpu = time.process_time() - cpu
            suite_wall = time.perf_counter() - wall
            samples.append(
                {
                    "runs_cpu_s": runs_cpu,
                    "suite_cpu_s": suite_cpu,
                    "runs_wall_s": runs_wall,
                    "suite_wall_s": suite_wall,
                }
            )
    return samples


def measure_share(runs: int = 1000, pairs: int = 5) -> dict[str, Any]:
    """SPEC 10's suite target: the share of the suite's CPU time spent in runs.

    Args:
        runs: Instant runs per suite.
        pairs: Interleaved (runs alone, suite) pairs; at least 3 for a figure.
    """
    samples = anyio.run(_share_pairs, runs, pairs)
    shares = [s["runs_cpu_s"] / s["suite_cpu_s"] for s in samples]
    walls = [s["runs_wall_s"] / s["suite_wall_s"] for s in samples]
    suite_cpu = statistics.median(s["suite_cpu_s"] for s in samples)
    return {
        "runs": runs,
        "pairs": pairs,
        "share_in_runs": round(statistics.median(shares), 3),
        "share_in_runs_spread": [round(min(shares), 3), round(max(shares), 3)],
        "wall_share_in_runs": round(statistics.median(walls), 3),
        "suite_runs_per_cpu_s": round(runs / suite_cpu, 1),
        "suite_runs_per_s": round(
            runs / statistics.median(s["suite_wall_s"] for s in samples), 1
        ),
        "samples": samples,
    }


def render_share(share: dict[str, Any]) -> list[str]:
    """The section of ``docs/performance.md`` on the suite target."""
    low, high = share["share_in_runs_spread"]
    return [
        f"{share['runs']} instant offline runs (scripted, simulated) through the "
        "local executor with an output folder, against the same runs made one "
        "after the other as single runs through the kit, each writing its "
        f"record the same way; {share['pairs']} interleaved pairs, medians.",
        "",
        "| measure | value |",
        "|---|---:|",
        f"| CPU share spent in runs (A / B) | {share['share_in_runs']:.0%} "
        f"({low:.0%}-{high:.0%}) |",
        f"| wall share (A / B) | {share['wall_share_in_runs']:.0%} |",
        f"| suite runs per second (wall) | {share['suite_runs_per_s']:,.0f} |",
        f"| suite runs per CPU second | {share['suite_runs_per_cpu_s']:,.0f} |",
        "",
        "The rest is the suite's bookkeeping: the executor, events, statistics "
        "and the batched `suite.json` rewrites. `python -m benchmarks.suite_runner` "
        "breaks it down further (engine alone, no output folder, latency).",
    ]


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print JSON."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_runner")
    parser.add_argument("--quick", action="store_true", help="200 instant runs")
    parser.add_argument("--runs", type=int, help="instant runs (default 1000)")
    parser.add_argument(
        "--share",
        action="store_true",
        help="only SPEC 10's share of CPU in runs (5 interleaved pairs)",
    )
    arguments = parser.parse_args(argv)
    runs = arguments.runs or (200 if arguments.quick else 1000)
    figures = measure_share(runs) if arguments.share else anyio.run(measure, runs)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
