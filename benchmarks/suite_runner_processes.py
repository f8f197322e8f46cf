"""The processes executor against one process: does a CPU-bound suite use every core?

Usage: ``python -m benchmarks.suite_runner_processes [--quick] [--runs N]
[--replayed]``. Prints JSON on stdout; it writes nothing outside a temporary
folder. With ``--replayed``, both sides replay cassettes recorded once (SPEC 22):
a replayed suite on the processes executor.

The suite is CPU-bound and offline: one scripted workflow whose every run makes
`_CALLS` file writes in the simulated environment, then answers, and is judged by
a CPU-heavy scorer (`CHECKSUM`: pure-Python arithmetic, as a metric computed in
Python would be), the kind of suite the processes executor is for. Interleaved
pairs (A, B, A, B, ...) of the same N runs, each side a whole suite with an output
folder (records written as a user's suite writes them): A on the local executor
(one process; ``concurrency`` 2, which one event loop turns into no more CPU), B
on the processes executor with one worker per core (``concurrency`` = workers).
The figure is B's runs per second over A's, the median of the per-pair ratios
with their spread. B's wall time includes starting its worker processes (forks
of the fork server, which the warm-up started: ``fork_server_start_s`` is what
the first suite of a process pays), so ``speedup`` is what a user sees;
``steady_speedup`` is the same ratio from each suite's first finished run to its
last (the pool's throughput once its workers are up).

Wall-clock ratios need idle cores: on a shared machine (a container whose CPU
share is fixed, whatever its process count) they say little. So the CPU each
side spends per run is measured too (the suite's own process, and its worker
processes read from ``/proc``), and ``projected_speedup`` gives the ratio those
costs allow on ``machine_cpus`` idle cores: local does ``1 / local`` runs per
CPU-second; the pool at most ``cores / (worker + driver)`` and ``workers /
worker`` runs per second.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
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
    """One timed suite: its wall times and the CPU it cost."""

    runs: int
    wall_s: float
    steady_s: float
    #: CPU seconds of the suite's own process and of its worker processes.
    driver_cpu_s: float
    workers_cpu_s: float

    @property
    def runs_per_s(self) -> float:
        return self.runs / self.wall_s

    @property
    def steady_runs_per_s(self) -> float:
        return (self.runs - 1) / self.steady_s


_TICKS = os.sysconf("SC_CLK_TCK")


def _descendants_cpu(root: int) -> dict[int, float]:
    """CPU seconds of every live process below ``root`` (from ``/proc``)."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        cpu[pid] = (int(fields[11]) + int(fields[12])) / _TICKS
    below = {}
    for pid in cpu:
        ancestor = parents.get(pid)
        while ancestor is not None and ancestor not in (root, 0, 1):
            ancestor = parents.get(ancestor)
        if ancestor == root:
            below[pid] = cpu[pid]
    return below


@contextmanager
def _workers_cpu(seen: dict[int, float], own: list[float]) -> Iterator[None]:
    """Sample the CPU of this process's descendants into ``seen`` meanwhile.

    Workers end with their suite: each one's last sample (50 ms apart) is
    what it cost, missing at most its last 50 ms. ``own`` gets the sampling
    thread's own CPU seconds (the suite's process must not be charged them).
    """
    stop = threading.Event()
    before = _descendants_cpu(os.getpid())

    def sample() -> None:
        started = time.thread_time()
        while True:
            for pid, value in _descendants_cpu(os.getpid()).items():
                seen[pid] = value - before.get(pid, 0.0)
            if stop.wait(0.05):
                own.append(time.thread_time() - started)
                return

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


async def _timed(
    path: Path,
    runs: int,
    concurrency: int,
    executor: SuiteExecutor,
    out: Path,
    replay: Path | None = None,
) -> _Suite:
    started = time.perf_counter()
    cpu = time.process_time()
    workers: dict[int, float] = {}
    sampling: list[float] = []
    finished: list[float] = []
    with _workers_cpu(workers, sampling):
        session = await ArtemisKit(scorers=[CHECKSUM]).create_suite_session(
            paths=[path],
            repeat=runs,
            concurrency=concurrency,
            executor=executor,
            output_dir=out,
            replay=replay,
        )

        async def watch() -> None:
            async for event in session.events(buffer=runs + 8):
                if event.type == "run_finished":
                    finished.append(time.perf_counter())

        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            result = await session.run()
        wall = time.perf_counter() - started
    # the sampling thread's own CPU is the benchmark's, not the suite's
    driver = time.process_time() - cpu - sum(sampling)
    assert result.record.totals.passed == runs, result.record.totals
    return _Suite(
        runs=runs,
        wall_s=wall,
        steady_s=finished[-1] - finished[0],
        driver_cpu_s=driver,
        workers_cpu_s=sum(workers.values()),
    )


def _ms_per_run(suites: list[_Suite], cpu: str) -> float:
    return float(statistics.median(getattr(s, cpu) / s.runs * 1000 for s in suites))


async def _record(path: Path, runs: int, folder: Path) -> Path:
    """Record every repetition's cassette once (the replayed sides read them)."""
    await ArtemisKit(scorers=[CHECKSUM]).run_suite(
        paths=[path], repeat=runs, record_cassettes=folder / "cassettes"
    )
    return folder / "cassettes"


async def _measure(runs: int, pairs: int, replayed: bool) -> dict[str, Any]:
    workers = os.cpu_count() or 1
    suites: dict[str, list[_Suite]] = {"local": [], "processes": []}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        path = cpu_bound_workflow(root / "suite")
        counter = iter(range(10**6))

        def out() -> Path:
            return root / f"out-{next(counter)}"

        # Replayed: both sides answer every model request from cassettes.
        cassettes = await _record(path, runs, root) if replayed else None
        # A warm-up of each side: imports and caches are not what is measured;
        # the processes side starts its fork server here, once per process.
        await _timed(path, 10, 2, LocalExecutor(), out(), cassettes)
        first = await _timed(
            path, 10, workers, ProcessExecutor(workers), out(), cassettes
        )

        async def one() -> float:
            suite = await _timed(path, runs, 2, LocalExecutor(), out(), cassettes)
            suites["local"].append(suite)
            return suite.runs_per_s

        async def pool() -> float:
            executor = ProcessExecutor(workers)
            suite = await _timed(path, runs, workers, executor, out(), cassettes)
            suites["processes"].append(suite)
            return suite.runs_per_s

        local, processes = await interleave(one, pool, pairs=pairs)
    steady = pair_summary(
        [suite.steady_runs_per_s for suite in suites["local"]],
        [suite.steady_runs_per_s for suite in suites["processes"]],
    )
    summary = pair_summary(local, processes)
    alone = _ms_per_run(suites["local"], "driver_cpu_s")
    driver = _ms_per_run(suites["processes"], "driver_cpu_s")
    worker = _ms_per_run(suites["processes"], "workers_cpu_s")
    # every run costs ``worker + driver`` of the machine's cores
    projected = alone * workers / (worker + driver)
    return {
        "machine_cpus": workers,
        "replayed": replayed,
        "runs": runs,
        "tool_calls_per_run": _CALLS,
        "scorer_rounds": _ROUNDS,
        "local_runs_per_s": [round(value, 1) for value in local],
        "processes_runs_per_s": [round(value, 1) for value in processes],
        "fork_server_start_s": round(first.wall_s - first.steady_s, 2),
        "processes_start_s": [
            round(suite.wall_s - suite.steady_s, 2) for suite in suites["processes"]
        ],
        "speedup": {key: round(value, 3) for key, value in summary.items()},
        "steady_speedup": {key: round(value, 3) for key, value in steady.items()},
        "cpu_ms_per_run": {
            "local": round(alone, 2),
            "processes_driver": round(driver, 2),
            "processes_workers": round(worker, 2),
        },
        "projected_speedup": round(projected, 3),
    }


def measure(runs: int = 400, pairs: int = 3, replayed: bool = False) -> dict[str, Any]:
    """Interleaved pairs of the CPU-bound suite; the figures.

    With ``replayed``, both sides replay cassettes recorded once (SPEC 22: a
    replayed suite uses every core on the processes executor).
    """
    return anyio.run(_measure, runs, pairs, replayed)


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print JSON."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_runner_processes")
    parser.add_argument("--runs", type=int, default=400, help="runs per suite")
    parser.add_argument("--pairs", type=int, default=3, help="interleaved pairs")
    parser.add_argument(
        "--quick", action="store_true", help="100 runs per suite, 3 pairs"
    )
    parser.add_argument(
        "--replayed",
        action="store_true",
        help="both sides replay cassettes recorded once, instead of the script",
    )
    arguments = parser.parse_args(argv)
    runs = 100 if arguments.quick else arguments.runs
    figures = measure(runs, arguments.pairs, arguments.replayed)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
