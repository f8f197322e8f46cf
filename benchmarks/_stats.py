"""Summaries of timing samples and a description of the machine they came from."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from artemiskit.suites import percentile

__all__ = ["machine_info", "summarize"]


def _p95(samples: Sequence[float]) -> float:
    """The 95th percentile by linear interpolation (the suites' `percentile`)."""
    found = percentile(samples, 95)
    if found is None:
        raise ValueError("no samples")
    return found


def summarize(samples: Sequence[float], *, scale: float = 1.0) -> dict[str, Any]:
    """Median, p95, min, max and count of ``samples``, each multiplied by ``scale``.

    Args:
        samples: Measurements (seconds, bytes, ...).
        scale: A unit conversion, e.g. ``1000`` for seconds to milliseconds.
    """
    return {
        "median": statistics.median(samples) * scale,
        "p95": _p95(samples) * scale,
        "min": min(samples) * scale,
        "max": max(samples) * scale,
        "n": len(samples),
    }


def _cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return platform.processor() or "unknown"
    for line in text.splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def _memory_bytes() -> int | None:
    try:
        text = Path("/proc/meminfo").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) * 1024
    return None


def _git_commit(root: Path) -> str | None:
    try:
        completed = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return completed.stdout.strip() or None


def _git_dirty(root: Path) -> bool | None:
    try:
        completed = subprocess.run(
            ["git", "status", "--porcelain", "--", "artemiskit", "artemiskit_cli"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return bool(completed.stdout.strip())


def machine_info(root: Path) -> dict[str, Any]:
    """Cores, memory, CPU model, OS, Python, date and the engine's commit."""
    from artemiskit import __version__

    return {
        "cpu_model": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_bytes": _memory_bytes(),
        "os": platform.platform(),
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "artemiskit_version": __version__,
        "git_commit": _git_commit(root),
        "engine_tree_modified": _git_dirty(root),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
