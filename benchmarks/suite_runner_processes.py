"""The processes executor against one process: does a CPU-bound suite use every core?

Usage: ``python -m benchmarks.suite_runner_processes [--quick] [--runs N]``. Prints
JSON on stdout; it writes nothing outside a temporary folder.

The suite is CPU-bound and offline: one scripted workflow whose every run makes
`_CALLS` file writes in the simulated environment, then answers, and is judged by
a CPU-heavy scorer (`CHECKSUM`: pure-Python arithmetic, as a metric computed in
Python would be), the kind of suite the processes executor is for. Interleaved
pairs (A, B, A, B, ...) of the same N runs, each side a whole suite with an output
folder (records written as a user's suite writes them): A on the local executor
(one process; ``concurrency`` 2, which one event loop turns into no more CPU), B
on the processes executor with one worker per core (``concurrency`` = workers).
The figure is B's runs per second over A's, the median of the per-pair ratios
with their spread. B's wall time includes starting its worker processes, so
``speedup`` is what a user sees; ``steady_speedup`` is the same ratio from each
suite's first finished run to its last (the pool's throughput once its workers
are up).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import attrs

from artemiskit import ArtemisKit, Evidence, Score, Scorer
from artemiskit.suites import LocalExecutor, ProcessExecutor, SuiteExecutor
from benchmarks._pairs import interleave, pair_summary

__all__ = ["measure"]

_USAGE = {"input_tokens": 1, "output_tokens": 1}
#: Tool calls per run (file writes in the simulated environment).
_CALLS = 10
#: The scorer's work per run: pure-Python arithmetic, tens of milliseconds.
_ROUNDS = 200_000


async def _checksum(evidence: Evidence, params: Mapping[str, Any]) -> Score:
    """A CPU-bound check: an arithmetic digest of every written file, in Python."""
    files = evidence.final_state["files"]
    total = 0
    for index in range(params["rounds"]):
        total = (total * 31 + index) % 1_000_003
    written = sum(1 for name in files if name.startswith("out/"))
    if written != _CALLS:
        return Score(status="failed", reason="files_missing", value=written)
    return Score(status="passed", reason="checksum", value=total)


CHECKSUM = Scorer(
    name="checksum",
    version="1",
    description="A CPU-bound check of the written files.",
    handler=_checksum,
    timeout_ms=600_000,
)


def cpu_bound_workflow(folder: Path) -> Path:
    """A scripted workflow whose runs spend their time on CPU (a heavy scorer)."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "version": 1,
        "name": "cpu",
        "target": {"provider": "scripted", "model": "cpu"},
        "environment": {"kind": "simulated", "files": {"docs/a.md": "a" * 512}},
        "tools": [
            {"name": "read_file", "allow": {"paths": ["docs/**"]}},
            {"name": "write_file", "allow": {"paths": ["out/**"]}},
        ],
        "conversation": {"turns": [{"user": "Work."}]},
        "budgets": {"max_actions": 4 * _CALLS, "timeout_ms": 600_000},
        "outcomes": [
            {"id": "answered", "final_response": {"contains": ["Done"]}},
            {"id": "checked", "scorer": "checksum", "with": {"rounds": _ROUNDS}},
        ],
    }
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data), "utf-8")
    responses: list[dict[str, Any]] = [
        {
            "tool_calls": [
                {
                    "name": "write_file",
                    "arguments": {"path": f"out/{index}.md", "content": "b" * 256},
                }
            ],
            "usage": _USAGE,
        }
        for index in range(_CALLS)
    ]
    responses.append({"text": "Done.", "usage": _USAGE})
    script = {"version": 1, "responses": responses}
    (folder / "cpu.script.yaml").write_text(json.dumps(script), "utf-8")
    return path


@attrs.frozen
class _Suite:
    """One timed suite: its whole wall time, and from its first finished run on."""

    runs: int
    wall_s: float
    steady_s: float

    @property
    def runs_per_s(self) -> float:
        return self.runs / self.wall_s

    @property
    def steady_runs_per_s(self) -> float:
        return (self.runs - 1) / self.steady_s


async def _timed(
    path: Path, runs: int, concurrency: int, executor: SuiteExecutor, out: Path
) -> _Suite:
    started = time.perf_counter()
    session = await ArtemisKit(scorers=[CHECKSUM]).create_suite_session(
        paths=[path],
        repeat=runs,
        concurrency=concurrency,
        executor=executor,
        output_dir=out,
    )
    finished: list[float] = []

    async def watch() -> None:
        async for event in session.events(buffer=runs + 8):
            if event.type == "run_finished":
                finished.append(time.perf_counter())

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        result = await session.run()
    wall = time.perf_counter() - started
    assert result.summary["totals"]["passed"] == runs, result.summary["totals"]
    return _Suite(runs=runs, wall_s=wall, steady_s=finished[-1] - finished[0])


async def _measure(runs: int, pairs: int) -> dict[str, Any]:
    workers = os.cpu_count() or 1
    suites: dict[str, list[_Suite]] = {"local": [], "processes": []}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        path = cpu_bound_workflow(root / "suite")
        counter = iter(range(10**6))

        def out() -> Path:
            return root / f"out-{next(counter)}"

        # A warm-up of each side: imports and caches are not what is measured.
        await _timed(path, 10, 2, LocalExecutor(), out())
        await _timed(path, 10, workers, ProcessExecutor(workers), out())

        async def one() -> float:
            suite = await _timed(path, runs, 2, LocalExecutor(), out())
            suites["local"].append(suite)
            return suite.runs_per_s

        async def pool() -> float:
            executor = ProcessExecutor(workers)
            suite = await _timed(path, runs, workers, executor, out())
            suites["processes"].append(suite)
            return suite.runs_per_s

        local, processes = await interleave(one, pool, pairs=pairs)
    steady = pair_summary(
        [suite.steady_runs_per_s for suite in suites["local"]],
        [suite.steady_runs_per_s for suite in suites["processes"]],
    )
    summary = pair_summary(local, processes)
    return {
        "machine_cpus": workers,
        "runs": runs,
        "tool_calls_per_run": _CALLS,
        "scorer_rounds": _ROUNDS,
        "local_runs_per_s": [round(value, 1) for value in local],
        "processes_runs_per_s": [round(value, 1) for value in processes],
        "processes_start_s": [
            round(suite.wall_s - suite.steady_s, 2) for suite in suites["processes"]
        ],
        "speedup": {key: round(value, 3) for key, value in summary.items()},
        "steady_speedup": {key: round(value, 3) for key, value in steady.items()},
    }


def measure(runs: int = 400, pairs: int = 3) -> dict[str, Any]:
    """Interleaved pairs of the CPU-bound suite; the figures."""
    return anyio.run(_measure, runs, pairs)


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print JSON."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_runner_processes")
    parser.add_argument("--runs", type=int, default=400, help="runs per suite")
    parser.add_argument("--pairs", type=int, default=3, help="interleaved pairs")
    parser.add_argument(
        "--quick", action="store_true", help="100 runs per suite, 3 pairs"
    )
    arguments = parser.parse_args(argv)
    runs = 100 if arguments.quick else arguments.runs
    print(json.dumps(measure(runs, arguments.pairs), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
