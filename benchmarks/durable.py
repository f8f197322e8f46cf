"""Per step with a durable checkpoint (SPEC 10), every figure from interleaved pairs.

``python -m benchmarks.durable [--quick]`` prints one JSON object with:

- ``fsyncs_per_step`` and ``bytes_per_step``: counted in-process (``os.fsync``,
  ``os.fdatasync`` and ``os.write`` are wrapped while a run goes), per step, early
  and late in a run; the median step, and the mean with compaction snapshots;
- ``vs_atomic_write``: our durable step against the floor, one atomic write of the
  same bytes (exclusive temp file, write, fsync, rename, directory fsync), as pairs
  (our run, the floor), ratio of medians per pair;
- ``growth``: step 500 / step 10 of the same durable runs;
- ``vs_langgraph_sqlite``: LangGraph with its SQLite checkpointer and
  ``durability="sync"`` at step 200 against our durable journal at step 200, as
  pairs (LangGraph run in its own venv, our run); skipped when LangGraph cannot be
  installed.

`rows` turns the result into rows of the targets table.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio

from benchmarks._engine import step_window
from benchmarks._pairs import interleave, pair_summary, target_row
from benchmarks._workload import InstantTarget, step_workflow

__all__ = ["measure_durable", "rows"]

_HERE = Path(__file__).resolve().parent


class _Counts:
    """fsyncs and bytes written by this process, while `counting` is active."""

    def __init__(self) -> None:
        self.fsyncs = 0
        self.written = 0


@contextmanager
def counting() -> Iterator[_Counts]:
    """Count ``os.fsync``/``os.fdatasync`` calls and ``os.write`` bytes."""
    counts = _Counts()
    real_fsync, real_fdatasync, real_write = os.fsync, os.fdatasync, os.write

    def fsync(fd: Any) -> None:
        counts.fsyncs += 1
        real_fsync(fd)

    def fdatasync(fd: Any) -> None:
        counts.fsyncs += 1
        real_fdatasync(fd)

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


async def durable_run(steps: int, folder: str) -> dict[str, list[float]]:
    """One durable run of ``steps`` steps; per step: seconds, fsyncs, bytes."""
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
        result = await session.run()
    if result.exit_code != 0:
        raise RuntimeError(f"the durable run did not pass: exit {result.exit_code}")
    return {
        "seconds": target.step_seconds(),
        "fsyncs": _differences(target.fsyncs),
        "bytes": _differences(target.written),
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


def _langgraph_step(python: Path, steps: int, mark: int) -> float:
    completed = subprocess.run(
        [
            str(python),
            str(_HERE / "_langgraph_steps.py"),
            "--steps",
            str(steps),
            "--checkpointer",
            "sqlite",
            "--durability",
            "sync",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"the LangGraph run failed: {completed.stderr[-800:]}")
    per_step: list[float] = json.loads(completed.stdout)["per_step"]
    return _window_median(per_step, mark)


async def measure_durable(
    *, steps: int = 500, pairs: int = 3, peer_steps: int = 200, peer: bool = True
) -> dict[str, Any]:
    """Every durable figure; see the module docstring."""
    scratch = tempfile.TemporaryDirectory(prefix="akit-bench-durable-")
    runs: list[dict[str, list[float]]] = []
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
        return statistics.median(run["seconds"])

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
    result: dict[str, Any] = {
        "steps": steps,
        "step_us": statistics.median(ours_s) * 1e6,
        "fsyncs_per_step": {
            "median": statistics.median(
                statistics.median(run["fsyncs"][5:]) for run in runs
            ),
            "mean": statistics.median(fsyncs),
            "max": max(max(run["fsyncs"][5:]) for run in runs),
        },
        "bytes_per_step": {
            "step_10": statistics.median(early),
            f"step_{steps}": statistics.median(late),
            "mean": statistics.median(statistics.mean(run["bytes"]) for run in runs),
        },
        "vs_atomic_write": vs_floor,
        "growth": growth,
    }
    result["vs_langgraph_sqlite"] = {"skipped": True, "reason": "not asked"}
    if peer:
        result["vs_langgraph_sqlite"] = await _versus_langgraph(
            peer_steps, pairs, folder
        )
    scratch.cleanup()
    return result


async def _versus_langgraph(steps: int, pairs: int, folder: Any) -> dict[str, Any]:
    from benchmarks._peers import _prepare

    python, note = _prepare()
    if python is None:
        return {"skipped": True, "reason": note}

    async def theirs() -> float:
        return _langgraph_step(python, steps, steps)

    async def ours() -> float:
        run = await durable_run(steps, folder())
        return _window_median(run["seconds"], steps)

    theirs_s, ours_s = await interleave(theirs, ours, pairs=pairs)
    summary = pair_summary(ours_s, theirs_s)
    return {"skipped": False, "steps": steps, "environment": note, **summary}


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of the targets table for the durable measure."""
    measure = "per step with a durable checkpoint"
    syncs = result["fsyncs_per_step"]
    floor = result["vs_atomic_write"]
    growth = result["growth"]
    per_step = result["bytes_per_step"]
    last = f"step_{result['steps']}"
    flat = per_step[last] <= 1.2 * per_step["step_10"]
    table = [
        target_row(
            measure,
            "<= 2 fsyncs per step",
            f"{syncs['median']:g} per step ({syncs['mean']:.3f} on average with "
            "compaction)",
            met=syncs["median"] <= 2,
        ),
        target_row(
            measure,
            "<= 3x one atomic write+fsync+rename of the same bytes",
            f"{floor['ratio_median']:.2f}x "
            f"({floor['ratio_min']:.2f}-{floor['ratio_max']:.2f})",
            met=floor["ratio_median"] <= 3,
        ),
        target_row(
            measure,
            f"step {result['steps']} / step 10 <= 1.2",
            f"{growth['ratio_median']:.2f} "
            f"({growth['ratio_min']:.2f}-{growth['ratio_max']:.2f})",
            met=growth["ratio_median"] <= 1.2,
        ),
        target_row(
            measure,
            "bytes written per step stay flat",
            f"{per_step['step_10']:.0f} B at step 10, {per_step[last]:.0f} B at "
            f"step {result['steps']}, {per_step['mean']:.0f} B mean",
            met=flat,
        ),
    ]
    peer = result["vs_langgraph_sqlite"]
    if peer.get("skipped"):
        table.append(
            target_row(
                measure,
                ">= 10x cheaper than LangGraph SQLite (durability=sync) at step 200",
                f"skipped: {peer['reason']}",
                met=None,
            )
        )
    else:
        table.append(
            target_row(
                measure,
                ">= 10x cheaper than LangGraph SQLite (durability=sync) at step 200",
                f"{peer['ratio_median']:.1f}x "
                f"({peer['ratio_min']:.1f}-{peer['ratio_max']:.1f})",
                met=peer["ratio_median"] >= 10,
            )
        )
    return table


def main(argv: list[str] | None = None) -> int:
    """Run the durable measure and print its JSON and rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps, no peer")
    parser.add_argument("--pairs", type=int, default=3)
    arguments = parser.parse_args(argv)
    quick = arguments.quick
    result = anyio.run(
        lambda: measure_durable(
            steps=100 if quick else 500, pairs=arguments.pairs, peer=not quick
        )
    )
    result["rows"] = rows(result)
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
