"""1000 concurrent sessions in one process (SPEC 10), as interleaved pairs.

``python -m benchmarks.sessions [--quick]`` prints one JSON object with:

- ``vs_one_session``: the wall time of N sessions started at once in one task
  group (each ``steps`` model requests of ``latency_ms``), against one session's
  wall; pairs (one session, N sessions), ratio per pair. Each session is created
  from a workflow file path through ``ArtemisKit.run_workflow`` (the workflow is
  re-read every time; an unchanged file is not validated again) and from a
  workflow object already loaded;
- ``floor``: the same pairs and figures for a plain hand-written agent loop
  (`benchmarks.hot_path.plain_agent_loop`: the same parsing, policy check, file
  read and encoding per step, no engine) on the same latency target, N loops at
  once against one, interleaved in the same sitting: the ratio even a plain loop
  reaches on this machine, and its CPU per session, which the engine's exceeds
  by ``engine_cpu_ms_per_session_beyond_floor``;
- ``cpu_vs_floor``: the SPEC 10 session target's figure: interleaved pairs of
  N plain loops and N loaded sessions, each side's process CPU time, and the
  ratio engine / plain loop per pair (``floor_cpu_ms_per_session`` and
  ``engine_cpu_ms_per_session`` are the medians divided by N);
- ``waits``: the same pairs for tasks that only wait (each ``steps`` sleeps of
  ``latency_ms``, no work at all): what the event loop alone spends per session
  of the CPU the target allows;
- ``gc_share`` of each: the share of the process's CPU spent inside the garbage
  collector during those pairs (many live sessions make every collection longer);
- ``memory_per_session_kib``: Python allocations (``tracemalloc``) at the moment
  every session is waiting on its first model answer, divided by N.

`profile_sessions` profiles many sessions at once (calls per session, top
functions by own time). The targets these figures meet or miss are judged in
``benchmarks._targets``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio

from artemiskit import ArtemisKit, TargetRequest, TargetResponse, Workflow
from benchmarks._engine import profile_run
from benchmarks._pairs import interleave, pair_summary
from benchmarks._workload import LatencyTarget, filler_text, step_workflow
from benchmarks.hot_path import plain_agent_loop

__all__ = ["measure_sessions", "profile_sessions"]


def _workflow_file(folder: Path, steps: int) -> Path:
    """`step_workflow`'s workflow as a file (YAML is a superset of JSON)."""
    data = {
        "version": 1,
        "name": "benchmark-sessions",
        "target": {"provider": "scripted", "model": "benchmark"},
        "environment": {"kind": "simulated", "files": {"docs/notes.md": filler_text()}},
        "tools": [{"name": "read_file", "allow": {"paths": ["docs/**"]}}],
        "conversation": {"turns": [{"user": "Read the notes, again and again."}]},
        "budgets": {"max_actions": 2 * steps + 10, "timeout_ms": 3_600_000},
        "outcomes": [{"id": "read", "tool_called": "read_file", "min": 1}],
    }
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


async def _sessions(
    source: Path | Workflow, count: int, steps: int, latency_s: float
) -> float:
    kit = ArtemisKit()
    codes: list[int] = []

    async def one() -> None:
        result = await kit.run_workflow(
            workflow=source, target=LatencyTarget(steps, latency_s)
        )
        codes.append(result.exit_code)

    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for _ in range(count):
            group.start_soon(one)
    wall = time.perf_counter() - started
    if codes != [0] * count:
        raise RuntimeError(f"sessions failed: exit codes {sorted(set(codes))}")
    return wall


async def _plain_loops(count: int, steps: int, latency_s: float) -> float:
    """The wall of ``count`` plain agent loops started at once (the floor)."""
    targets = [LatencyTarget(steps, latency_s) for _ in range(count)]
    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for target in targets:
            group.start_soon(plain_agent_loop, target)
    wall = time.perf_counter() - started
    if any(target.requests != steps for target in targets):
        raise RuntimeError("a plain loop did not make every model request")
    return wall


async def _waits(count: int, steps: int, latency_s: float) -> float:
    """The wall of ``count`` tasks that only sleep ``steps`` times (no work)."""

    async def wait() -> None:
        for _ in range(steps):
            await anyio.sleep(latency_s)

    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for _ in range(count):
            group.start_soon(wait)
    return time.perf_counter() - started


@contextmanager
def _collector_time() -> Iterator[list[float]]:
    """Seconds spent inside the garbage collector while the block runs."""
    spent = [0.0]
    started = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            spent[0] += time.process_time() - started[0]

    gc.callbacks.append(callback)
    try:
        yield spent
    finally:
        gc.callbacks.remove(callback)


async def _paired(
    one: Callable[[], Awaitable[float]],
    many: Callable[[], Awaitable[float]],
    *,
    count: int,
    pairs: int,
) -> dict[str, Any]:
    """Interleaved pairs (one, ``count`` at once): walls, CPU and their ratio.

    ``gc_share`` is the share of that CPU spent inside the garbage collector.
    """
    cpu_before = time.process_time()
    with _collector_time() as collected:
        single, multiple = await interleave(one, many, pairs=pairs)
    spent = time.process_time() - cpu_before
    cpu = spent / len(multiple)
    return {
        "one_session_ms": min(single) * 1e3,
        "sessions_ms": min(multiple) * 1e3,
        # the CPU time this process got per pair: on a loaded machine the
        # wall of N sessions is this CPU time stretched by the load
        "cpu_ms_per_pair": cpu * 1e3,
        "cpu_ms_per_session": cpu * 1e3 / (count + 1),
        "gc_share": collected[0] / spent if spent > 0 else 0.0,
        "load_average_1min": os.getloadavg()[0],
        **pair_summary(single, multiple),
    }


async def _cpu_pairs(
    floor: Callable[[], Awaitable[float]],
    engine: Callable[[], Awaitable[float]],
    count: int,
    pairs: int,
) -> dict[str, Any]:
    """Interleaved pairs (floor, engine) of process CPU seconds; ratio per pair."""

    def timed(run: Callable[[], Awaitable[float]]) -> Callable[[], Awaitable[float]]:
        async def cpu() -> float:
            started = time.process_time()
            await run()
            return time.process_time() - started

        return cpu

    floor_cpu, engine_cpu = await interleave(timed(floor), timed(engine), pairs=pairs)
    summary = pair_summary(floor_cpu, engine_cpu)
    return {
        **summary,
        "floor_cpu_ms_per_session": summary["a_median"] * 1e3 / count,
        "engine_cpu_ms_per_session": summary["b_median"] * 1e3 / count,
        "load_average_1min": os.getloadavg()[0],
    }


class _GatedTarget:
    """Holds every session at its first model request until all are there."""

    def __init__(self, gate: anyio.Event, arrived: list[int], count: int) -> None:
        self._gate = gate
        self._arrived = arrived
        self._count = count

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self._arrived.append(1)
        if len(self._arrived) == self._count:
            self.snapshot = tracemalloc.take_snapshot()
            self._gate.set()
        await self._gate.wait()
        return TargetResponse(text="Done.")


async def _memory_per_session(workflow: Workflow, count: int) -> float:
    kit = ArtemisKit()
    gate = anyio.Event()
    arrived: list[int] = []
    targets = [_GatedTarget(gate, arrived, count) for _ in range(count)]
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    peak_at_gate: list[int] = []

    async def one(target: _GatedTarget) -> None:
        await kit.run_workflow(workflow=workflow, target=target)

    async def watch() -> None:
        await gate.wait()
        peak_at_gate.append(tracemalloc.get_traced_memory()[0])

    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        for target in targets:
            group.start_soon(one, target)
    tracemalloc.stop()
    return (peak_at_gate[0] - before) / count / 1024


async def measure_sessions(
    *, count: int = 1000, steps: int = 10, latency_ms: int = 20, pairs: int = 3
) -> dict[str, Any]:
    """Every concurrent-session figure; see the module docstring."""
    latency = latency_ms / 1000
    with tempfile.TemporaryDirectory(prefix="akit-bench-sessions-") as name:
        path = _workflow_file(Path(name), steps)
        workflow = step_workflow(steps=steps, name="benchmark-sessions")
        await _sessions(path, 10, steps, latency)  # warm-up
        await _plain_loops(10, steps, latency)
        figures: dict[str, Any] = {}
        for label, source in (("from_path", path), ("loaded", workflow)):

            async def one(source: Path | Workflow = source) -> float:
                return await _sessions(source, 1, steps, latency)

            async def many(source: Path | Workflow = source) -> float:
                return await _sessions(source, count, steps, latency)

            figures[label] = await _paired(one, many, count=count, pairs=pairs)

        async def one_loop() -> float:
            return await _plain_loops(1, steps, latency)

        async def many_loops() -> float:
            return await _plain_loops(count, steps, latency)

        floor = await _paired(one_loop, many_loops, count=count, pairs=pairs)

        async def one_wait() -> float:
            return await _waits(1, steps, latency)

        async def many_waits() -> float:
            return await _waits(count, steps, latency)

        waits = await _paired(one_wait, many_waits, count=count, pairs=pairs)

        async def many_loaded() -> float:
            return await _sessions(workflow, count, steps, latency)

        cpu_vs_floor = await _cpu_pairs(many_loops, many_loaded, count, pairs)
        memory = await _memory_per_session(workflow, count)
    return {
        "sessions": count,
        "steps_per_session": steps,
        "model_latency_ms": latency_ms,
        "vs_one_session": figures,
        "floor": floor,
        "waits": waits,
        "cpu_vs_floor": cpu_vs_floor,
        "engine_cpu_ms_per_session_beyond_floor": (
            figures["loaded"]["cpu_ms_per_session"] - floor["cpu_ms_per_session"]
        ),
        "memory_per_session_kib": memory,
    }


def profile_sessions(*, count: int, steps: int) -> dict[str, Any]:
    """cProfile ``count`` loaded sessions at once: calls per session, top functions.

    The target answers at once (no latency), so the event loop never waits and
    the profile holds the sessions' CPU work alone.
    """
    workflow = step_workflow(steps=steps, name="benchmark-sessions")
    profile = profile_run(lambda: _sessions(workflow, count, steps, 0.0), count)
    return {
        "sessions": profile.pop("steps"),
        "calls_per_session": profile.pop("calls_per_step"),
        **profile,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the concurrent-session measure and print its JSON and rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 sessions")
    parser.add_argument("--pairs", type=int, default=3)
    arguments = parser.parse_args(argv)
    count = 100 if arguments.quick else 1000
    result = anyio.run(lambda: measure_sessions(count=count, pairs=arguments.pairs))
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
