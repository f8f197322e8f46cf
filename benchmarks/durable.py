"""Per step with a durable checkpoint (SPEC 10), every figure from interleaved pairs.

``python -m benchmarks.durable [--quick]`` prints one JSON object with:

- ``fsyncs_per_step`` and ``bytes_per_step``: counted in-process (``os.fsync``,
  ``os.fdatasync`` and ``os.write`` are wrapped while a run goes), per step, early
  and late in a run; the median step, and the mean with compaction snapshots;
- ``vs_atomic_write``: our durable step against the floor, one atomic write of the
  same bytes (exclusive temp file, write, fsync, rename, directory fsync), as pairs
  (our run, the floor), ratio of medians per pair;
- ``growth``: step 500 / step 10 of the same durable runs;
- ``sync_share_of_run``: the share of a run's wall time spent inside those
  fsync calls;
- ``marks``: the per-step time around steps 10, 100, 200 and 500, pooled.

The comparison with LangGraph's SQLite checkpointer is ``benchmarks._peers``; the
targets these figures meet or miss are judged in ``benchmarks._targets``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio

from benchmarks._engine import per_step_marks, step_window
from benchmarks._pairs import interleave, pair_summary
from benchmarks._workload import TEXT_BYTES, InstantTarget, step_workflow

__all__ = ["atomic_write_seconds", "counting", "durable_run", "measure_durable"]


class _Counts:
    """fsyncs and bytes written by this process, while `counting` is active."""

    def __init__(self) -> None:
        self.fsyncs = 0
        self.written = 0
        self.sync_seconds = 0.0


@contextmanager
def counting() -> Iterator[_Counts]:
    """Count and time ``os.fsync``/``os.fdatasync`` calls; count ``os.write`` bytes."""
    counts = _Counts()
    real_fsync, real_fdatasync, real_write = os.fsync, os.fdatasync, os.write

    def fsync(fd: Any) -> None:
        counts.fsyncs += 1
        started = time.perf_counter()
        real_fsync(fd)
        counts.sync_seconds += time.perf_counter() - started

    def fdatasync(fd: Any) -> None:
        counts.fsyncs += 1
        started = time.perf_counter()
        real_fdatasync(fd)
        counts.sync_seconds += time.perf_counter() - started

    def write(fd: int, data: Any) -> int:
        written = real_write(fd, data)
        counts.written += written
        return written

    os.fsync, os.fdatasync = fsync, fdatasync
    os.write = write
    try:
        yield counts
    finally:
        os.fsync, os.fdatasync = real_fsync, real_fdatasync
        os.write = real_write


class _CountingTarget(InstantTarget):
    """`InstantTarget` that also notes the fsyncs and bytes so far at each request."""

    def __init__(self, steps: int, counts: _Counts) -> None:
        super().__init__(steps)
        self._counts = counts
        self.fsyncs: list[int] = []
        self.written: list[int] = []

    async def respond(self, request: Any) -> Any:
        self.fsyncs.append(self._counts.fsyncs)
        self.written.append(self._counts.written)
        return await super().respond(request)


async def durable_run(steps: int, folder: str) -> dict[str, Any]:
    """One durable run of ``steps`` steps.

    Returns:
        Per step: ``seconds``, ``fsyncs``, ``bytes``; for the whole session:
        ``run_seconds`` and ``sync_seconds`` (the time spent in fsync calls).
    """
    from artemiskit import create_agent_workflow_session
    from artemiskit.checkpoints import LocalCheckpointStore

    with counting() as counts:
        target = _CountingTarget(steps, counts)
        session = create_agent_workflow_session(
            workflow=step_workflow(steps=steps),
            target=target,
            checkpoint_store=LocalCheckpointStore(folder),
            configuration_id="benchmark",
        )
        started = time.perf_counter()
        result = await session.run()
        run_seconds = time.perf_counter() - started
    if result.exit_code != 0:
        raise RuntimeError(f"the durable run did not pass: exit {result.exit_code}")
    return {
        "seconds": target.step_seconds(),
        "fsyncs": _differences(target.fsyncs),
        "bytes": _differences(target.written),
        "run_seconds": run_seconds,
        "sync_seconds": counts.sync_seconds,
    }


def _differences(totals: list[int]) -> list[float]:
    return [float(b - a) for a, b in itertools.pairwise(totals)]


def _window_median(values: list[float], mark: int) -> float:
    return statistics.median(
        values[step - 1] for step in step_window(mark, len(values))
    )


def atomic_write_seconds(folder: str, size: int, count: int) -> float:
    """The median time of one atomic write of ``size`` bytes (the floor)."""
    data = b"x" * size
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    samples = []
    try:
        for number in range(count):
            started = time.perf_counter()
            fd = os.open(
                f"floor-{number}.tmp",
                os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                0o600,
                dir_fd=dir_fd,
            )
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.rename(
                f"floor-{number}.tmp", "floor", src_dir_fd=dir_fd, dst_dir_fd=dir_fd
            )
            os.fsync(dir_fd)
            samples.append(time.perf_counter() - started)
    finally:
        os.close(dir_fd)
    return statistics.median(samples)


async def measure_durable(*, steps: int = 500, pairs: int = 3) -> dict[str, Any]:
    """Every durable figure; see the module docstring."""
    scratch = tempfile.TemporaryDirectory(prefix="akit-bench-durable-")
    runs: list[dict[str, Any]] = []
    number = 0

    def folder() -> str:
        nonlocal number
        number += 1
        return f"{scratch.name}/run-{number}"

    await durable_run(20, folder())  # warm-up
    floor_dir = f"{scratch.name}/floor"
    os.mkdir(floor_dir)

    async def ours() -> float:
        run = await durable_run(steps, folder())
        runs.append(run)
        seconds: list[float] = run["seconds"]
        return statistics.median(seconds)

    async def floor() -> float:
        size = int(statistics.median(runs[-1]["bytes"]))
        return atomic_write_seconds(floor_dir, size, 20)

    ours_s, floor_s = await interleave(ours, floor, pairs=pairs)
    vs_floor = pair_summary(floor_s, ours_s)
    firsts = [_window_median(run["seconds"], 10) for run in runs]
    lasts = [_window_median(run["seconds"], steps) for run in runs]
    growth = pair_summary(firsts, lasts)
    fsyncs = [statistics.mean(run["fsyncs"][5:]) for run in runs]
    early = [_window_median(run["bytes"], 10) for run in runs]
    late = [_window_median(run["bytes"], steps) for run in runs]
    sync_share = [run["sync_seconds"] / run["run_seconds"] for run in runs]
    result: dict[str, Any] = {
        "scope": "in-process, interleaved pairs (our run, the atomic-write floor)",
        "steps": steps,
        "runs": len(runs),
        "text_bytes_per_message": TEXT_BYTES,
        "step_us": statistics.median(ours_s) * 1e6,
        "atomic_write_us": statistics.median(floor_s) * 1e6,
        "fsyncs_per_step": {
            "median": statistics.median(
                statistics.median(run["fsyncs"][5:]) for run in runs
            ),
            "mean": statistics.median(fsyncs),
            "max": max(max(run["fsyncs"][5:]) for run in runs),
        },
        "sync_share_of_run": statistics.median(sync_share),
        "bytes_per_step": {
            "step_10": statistics.median(early),
            f"step_{steps}": statistics.median(late),
            "mean": statistics.median(statistics.mean(run["bytes"]) for run in runs),
        },
        "bytes_ratio_last_to_first": statistics.median(late) / statistics.median(early),
        "vs_atomic_write": vs_floor,
        "growth": growth,
        **per_step_marks([run["seconds"] for run in runs]),
    }
    scratch.cleanup()
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the durable measure and print its JSON and rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 steps")
    parser.add_argument("--pairs", type=int, default=3)
    arguments = parser.parse_args(argv)
    quick = arguments.quick
    result = anyio.run(
        lambda: measure_durable(steps=100 if quick else 500, pairs=arguments.pairs)
    )
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
