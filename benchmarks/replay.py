"""A replayed suite against the scripted provider's, from interleaved pairs (SPEC 22).

``python -m benchmarks.replay [--quick] [--runs N] [--pairs P]`` prints one JSON
object. The workload is a suite of N offline runs of one workflow (three model
requests and two tool calls each, simulated environment, local executor, no
output folder): side A answers every model request from the scripted provider's
script; side B answers them from cassettes recorded once beforehand (strict mode:
every request's digest is checked). Both sides load what they answer from (the
script, every cassette) inside the timed suite. The figure is the ratio of B's
runs per second to A's, per pair (A, B, A, B, ...), its median and spread: SPEC 22
wants at least 0.8. Runs per second are counted twice: per second of wall time,
and per second of the process's CPU time (every thread: the worker thread that
reads the cassettes included). The target is judged on CPU time, which other
processes on a shared machine cannot inflate; both ratios are reported.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

from artemiskit import ArtemisKit
from benchmarks._pairs import interleave, pair_summary

__all__ = ["measure_replay", "replay_workflow"]

_USAGE = {"input_tokens": 10, "output_tokens": 5}
_SCRIPT = [
    {
        "tool_calls": [{"name": "read_file", "arguments": {"path": "docs/a.md"}}],
        "usage": _USAGE,
    },
    {
        "tool_calls": [
            {"name": "write_file", "arguments": {"path": "out/a.md", "content": "a"}}
        ],
        "usage": _USAGE,
    },
    {"text": "Done.", "usage": _USAGE},
]


def replay_workflow(folder: Path) -> Path:
    """The benchmark's workflow and its script, written into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "version": 1,
        "name": "replay-bench",
        "target": {"provider": "scripted", "model": "bench"},
        "environment": {"kind": "simulated", "files": {"docs/a.md": "a"}},
        "tools": [
            {"name": "read_file", "allow": {"paths": ["docs/**"]}},
            {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
        ],
        "conversation": {"turns": [{"user": "Copy the note."}]},
        "budgets": {"max_actions": 10, "timeout_ms": 60_000},
        "outcomes": [{"id": "copied", "file": "out/a.md", "contains": ["a"]}],
    }
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data), "utf-8")
    script = {"version": 1, "responses": _SCRIPT}
    (folder / "bench.script.yaml").write_text(json.dumps(script), "utf-8")
    return path


async def _rate(
    kit: ArtemisKit, path: Path, runs: int, **options: Any
) -> tuple[float, float]:
    """Runs per second of one suite of ``runs`` runs: by wall time, by CPU time."""
    gc.collect()
    started, cpu = time.perf_counter(), time.process_time()
    result = await kit.run_suite(paths=[path], repeat=runs, concurrency=4, **options)
    wall, used = time.perf_counter() - started, time.process_time() - cpu
    totals = result.record.totals
    if totals.passed != runs:
        raise RuntimeError(f"the benchmark suite did not pass: {totals}")
    return runs / wall, runs / max(used, 1e-9)


async def measure_replay(*, runs: int = 500, pairs: int = 5) -> dict[str, Any]:
    """The replayed suite's runs per second against the scripted one's."""
    kit = ArtemisKit()
    walls: dict[str, list[float]] = {"scripted": [], "replayed": []}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        path = replay_workflow(root / "suite")
        cassettes = root / "cassettes"
        # recorded once; both sides warm up (imports, schemas, caches)
        await _rate(kit, path, runs, record_cassettes=cassettes)
        await _rate(kit, path, min(runs, 50), replay=cassettes)

        async def scripted() -> float:
            wall, cpu = await _rate(kit, path, runs)
            walls["scripted"].append(wall)
            return cpu

        async def replayed() -> float:
            wall, cpu = await _rate(kit, path, runs, replay=cassettes)
            walls["replayed"].append(wall)
            return cpu

        scripted_cpu, replayed_cpu = await interleave(scripted, replayed, pairs=pairs)
    by_cpu = pair_summary(scripted_cpu, replayed_cpu)
    by_wall = pair_summary(walls["scripted"], walls["replayed"])
    return {
        "skipped": False,
        "scope": "in-process, interleaved pairs; one suite of N runs per side",
        "runs": runs,
        "model_requests_per_run": len(_SCRIPT),
        "scripted_runs_per_cpu_s": by_cpu["a_median"],
        "replayed_runs_per_cpu_s": by_cpu["b_median"],
        "scripted_runs_per_s": by_wall["a_median"],
        "replayed_runs_per_s": by_wall["b_median"],
        "vs_scripted": by_cpu,
        "vs_scripted_wall": by_wall,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the measure and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 runs, 3 pairs")
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--pairs", type=int, default=None)
    arguments = parser.parse_args(argv)
    runs = arguments.runs or (100 if arguments.quick else 500)
    pairs = arguments.pairs or (3 if arguments.quick else 5)
    result = anyio.run(lambda: measure_replay(runs=runs, pairs=pairs))
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
