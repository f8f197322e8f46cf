"""Measure 5: peak memory of one long run, in a fresh process.

Run as ``python -m benchmarks._memory --steps 500 [--tracemalloc]``; it prints
one JSON object. ``VmHWM`` (``/proc/self/status``, Linux) is the whole process's
peak resident set (interpreter and imports included), so the resident set just
before the run (``VmRSS``) is reported too. ``ru_maxrss`` is not used: across fork
and exec it keeps the parent's peak, so a child of a big benchmark process would
report the parent's size. ``tracemalloc`` (optional, slower) reports the peak of
Python allocations made during the run itself.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import anyio

from benchmarks._engine import run_instant
from benchmarks._stats import summarize
from benchmarks._workload import step_workflow

__all__ = ["main", "measure_memory"]


def _status_bytes(field: str) -> int:
    """A ``kB`` field of ``/proc/self/status`` (Linux), in bytes."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"/proc/self/status has no {field}")


def main(argv: list[str] | None = None) -> int:
    """Run the long run once and print its memory figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--tracemalloc", action="store_true")
    arguments = parser.parse_args(argv)
    workflow = step_workflow(steps=arguments.steps)
    figures: dict[str, int] = {
        "steps": arguments.steps,
        "rss_before": _status_bytes("VmRSS"),
    }
    if arguments.tracemalloc:
        tracemalloc.start()
    anyio.run(run_instant, workflow, arguments.steps)
    if arguments.tracemalloc:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        figures["tracemalloc_peak"] = peak
    figures["peak_rss"] = _status_bytes("VmHWM")
    sys.stdout.write(json.dumps(figures) + "\n")
    return 0


def _child(root: Path, steps: int, *, trace: bool) -> dict[str, int]:
    command = [sys.executable, "-m", "benchmarks._memory", "--steps", str(steps)]
    if trace:
        command.append("--tracemalloc")
    completed = subprocess.run(
        command, cwd=root, capture_output=True, text=True, check=False, timeout=600
    )
    if completed.returncode != 0:
        raise RuntimeError(f"the memory run failed: {completed.stderr[-800:]}")
    figures: dict[str, int] = json.loads(completed.stdout)
    return figures


def measure_memory(root: Path, *, steps: int, runs: int) -> dict[str, Any]:
    """Measure 5: ``runs`` fresh processes for RSS, ``runs`` more for tracemalloc."""
    plain = [_child(root, steps, trace=False) for _ in range(runs)]
    traced = [_child(root, steps, trace=True) for _ in range(runs)]
    mib = 1 / (1024 * 1024)
    return {
        "scope": "whole-process (one fresh interpreter per sample)",
        "steps": steps,
        "runs": runs,
        "peak_rss_mib": summarize([f["peak_rss"] for f in plain], scale=mib),
        "rss_before_run_mib": summarize([f["rss_before"] for f in plain], scale=mib),
        "rss_growth_mib": summarize(
            [f["peak_rss"] - f["rss_before"] for f in plain], scale=mib
        ),
        "tracemalloc_peak_mib": summarize(
            [f["tracemalloc_peak"] for f in traced], scale=mib
        ),
    }


if __name__ == "__main__":
    raise SystemExit(main())
