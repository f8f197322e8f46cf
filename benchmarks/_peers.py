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
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks._engine import STEP_MARKS, step_window
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


def _run(python: Path, *, steps: int, runs: int, checkpointer: str) -> dict[str, Any]:
    completed = subprocess.run(
        [
            str(python),
            str(_WORKLOAD),
            "--steps",
            str(steps),
            "--runs",
            str(runs),
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
    pooled: dict[int, list[float]] = {mark: [] for mark in STEP_MARKS}
    everything: list[float] = []
    for per_step in data["runs"]:
        everything.extend(per_step)
        for mark in STEP_MARKS:
            pooled[mark].extend(per_step[step - 1] for step in step_window(mark, steps))
    return {
        "versions": data["versions"],
        "runs": runs,
        "marks": {
            str(mark): {"per_step_us": summarize(samples, scale=1e6)}
            for mark, samples in pooled.items()
        },
        "all_steps_us": summarize(everything, scale=1e6),
        "run_ms": summarize(data["run_seconds"], scale=1e3),
    }


def measure_langgraph(
    *, steps: int, runs: int, sqlite_runs: int, engine: dict[str, Any]
) -> dict[str, Any]:
    """LangGraph without a checkpointer and with ``SqliteSaver``; ratios to ours.

    Args:
        steps: Steps per run (the same as the engine's long run).
        runs: Runs without a checkpointer.
        sqlite_runs: Runs with the SQLite checkpointer (0 skips them).
        engine: The engine's per-step figures (`measure_per_step`).
    """
    python, note = _prepare()
    if python is None:
        return {"skipped": True, "reason": note}
    variants = {"none": runs, "sqlite": sqlite_runs}
    figures: dict[str, Any] = {}
    for checkpointer, count in variants.items():
        if count:
            figures[checkpointer] = _run(
                python, steps=steps, runs=count, checkpointer=checkpointer
            )
    ours = engine["marks"]
    ratios = {
        checkpointer: {
            mark: result["marks"][mark]["per_step_us"]["median"]
            / ours[mark]["per_step_us"]["median"]
            for mark in ours
        }
        for checkpointer, result in figures.items()
    }
    return {
        "skipped": False,
        "scope": "in-process (in a separate interpreter with LangGraph installed)",
        "environment": note,
        "steps": steps,
        "checkpointers": figures,
        "langgraph_vs_engine": ratios,
    }
