"""The optional peer comparison: LangGraph on the same workload, side by side.

LangGraph is never a dependency of this project. This module creates a throwaway
virtual environment under the system temp directory, ``pip install``s LangGraph and
its SQLite checkpointer there, and runs ``_langgraph_workload.py`` with that
environment's interpreter. Whole-process isolation, in-process timing: each figure
is measured inside the child process, exactly as the engine's own per-step figure.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio

from benchmarks._engine import STEP_MARKS, measure_per_step, step_window
from benchmarks._stats import summarize

__all__ = ["PEER_PACKAGES", "measure_langgraph"]

#: What the throwaway environment installs (nothing else is ever installed).
PEER_PACKAGES = ("langgraph", "langgraph-checkpoint-sqlite")
_VENV = Path(tempfile.gettempdir()) / "artemiskit-bench-langgraph-venv"
_WORKLOAD = Path(__file__).with_name("_langgraph_workload.py")


def _venv_python() -> Path:
    return _VENV / "bin" / "python"


def _importable(python: Path) -> bool:
    if not python.exists():
        return False
    probe = subprocess.run(
        [str(python), "-c", "import langgraph.graph, langgraph.checkpoint.sqlite"],
        capture_output=True,
        check=False,
        timeout=120,
    )
    return probe.returncode == 0


def _prepare() -> tuple[Path | None, str]:
    """A Python with LangGraph installed, or ``None`` and why not."""
    python = _venv_python()
    if _importable(python):
        return python, f"reused the virtual environment {_VENV}"
    steps = [
        [sys.executable, "-m", "venv", "--clear", str(_VENV)],
        [str(python), "-m", "pip", "install", "--quiet", *PEER_PACKAGES],
    ]
    for command in steps:
        try:
            completed = subprocess.run(
                command, capture_output=True, text=True, check=False, timeout=900
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"{' '.join(command[:4])} failed: {exc}"
        if completed.returncode != 0:
            tail = (completed.stderr or completed.stdout).strip().splitlines()[-3:]
            return None, f"{' '.join(command[:4])} failed: {' / '.join(tail)}"
    if not _importable(python):
        return None, "LangGraph installed but does not import"
    return python, f"installed {', '.join(PEER_PACKAGES)} into {_VENV}"


def _run(python: Path, *, steps: int, checkpointer: str) -> dict[str, Any]:
    """One LangGraph run in its own interpreter (after a short warm-up run)."""
    completed = subprocess.run(
        [
            str(python),
            str(_WORKLOAD),
            "--steps",
            str(steps),
            "--runs",
            "1",
            "--checkpointer",
            checkpointer,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    if completed.returncode != 0:
        raise RuntimeError(f"the LangGraph workload failed: {completed.stderr[-800:]}")
    data: dict[str, Any] = json.loads(completed.stdout)
    return data


def _marks(per_step: list[float], steps: int) -> dict[str, float]:
    """The median step time (seconds) of the window around each mark."""
    return {
        str(mark): statistics.median(
            per_step[step - 1] for step in step_window(mark, steps)
        )
        for mark in STEP_MARKS
    }


def _ours(steps: int, *, durable: bool) -> dict[str, float]:
    result = anyio.run(
        lambda: measure_per_step(steps=steps, runs=1, checkpointed=durable)
    )
    return {
        mark: figure["per_step_us"]["median"] / 1e6
        for mark, figure in result["marks"].items()
    }


def measure_langgraph(*, steps: int, pairs: int, sync_pairs: int) -> dict[str, Any]:
    """LangGraph against this engine, like for like, as interleaved pairs.

    Two comparisons, each a series of (LangGraph run, our run) pairs, alternated:
    LangGraph without a checkpointer against ours without durability
    (``none``), and LangGraph's ``SqliteSaver`` with ``durability="sync"``
    against ours with a durable checkpoint on every transition (``sync``). Each
    pair gives a ratio LangGraph / ours at every step mark.

    Args:
        steps: Steps per run (the same for both).
        pairs: Pairs without durability.
        sync_pairs: Pairs with synchronous durable checkpoints (0 skips them).
    """
    python, note = _prepare()
    if python is None:
        return {"skipped": True, "reason": note}
    variants = {"none": ("none", False, pairs), "sync": ("sqlite", True, sync_pairs)}
    versions: dict[str, str] = {}
    figures: dict[str, Any] = {}
    ratios: dict[str, Any] = {}
    for name, (checkpointer, durable, count) in variants.items():
        if not count:
            continue
        theirs: dict[str, list[float]] = {str(mark): [] for mark in STEP_MARKS}
        ours: dict[str, list[float]] = {str(mark): [] for mark in STEP_MARKS}
        for _ in range(count):
            data = _run(python, steps=steps, checkpointer=checkpointer)
            versions = data["versions"]
            for mark, value in _marks(data["runs"][0], steps).items():
                theirs[mark].append(value)
            for mark, value in _ours(steps, durable=durable).items():
                ours[mark].append(value)
        figures[name] = {
            "langgraph_per_step_us": {
                mark: summarize(values, scale=1e6) for mark, values in theirs.items()
            },
            "ours_per_step_us": {
                mark: summarize(values, scale=1e6) for mark, values in ours.items()
            },
        }
        ratios[name] = {
            mark: summarize(
                [a / b for a, b in zip(theirs[mark], ours[mark], strict=True)]
            )
            for mark in theirs
        }
    return {
        "skipped": False,
        "scope": "in-process (LangGraph in a separate interpreter), interleaved pairs",
        "environment": note,
        "versions": versions,
        "steps": steps,
        "variants": figures,
        "pairs": ratios,
    }
