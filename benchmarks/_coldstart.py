"""Measure 3: cold `akit scenario validate` and `akit --help` vs `python -c pass`.

Whole-process figures: each sample is one fresh interpreter, started, run and
reaped by `subprocess.run`. The commands are interleaved (``python -c pass``, then
each command, again and again), and each command's sample is divided by the
``python -c pass`` sample of the same round: the ratios are those pairs' median
and spread. One extra run with ``-X importtime`` lists what validation imported, to
check that it stays clear of the engine, network, Docker and report libraries,
and one under cProfile splits its time into imports and the schema compile.

The first sitting runs as this checkout runs: where ``PYTHONDONTWRITEBYTECODE`` is
set, Python compiles ArtemisKit's own modules from source in every process. A
second sitting (``bytecode``) runs the same commands with every module's bytecode
cached in a scratch ``PYTHONPYCACHEPREFIX`` (warmed once), as an installed package
has it and as ``python -c pass`` has the standard library's; the targets are judged
on it (``benchmarks._targets``), with the first sitting shown beside it.
"""

from __future__ import annotations

import os
import pstats
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._stats import summarize

__all__ = ["measure_cold_start"]

#: What validation must not import (SPEC 10): the engine, network, Docker and
#: report libraries (top-level packages, or ArtemisKit packages).
HEAVY_MODULES = (
    "httpx",
    "httpcore",
    "aiohttp",
    "aiodocker",
    "rich",
    "jinja2",
    "matplotlib",
    "ray",
    "litellm",
    "playwright",
    "artemiskit.engine",
    "artemiskit.reports",
)


def _timed(command: list[str], root: Path, env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    completed = subprocess.run(
        command, cwd=root, env=env, capture_output=True, check=False, timeout=120
    )
    elapsed = time.perf_counter() - started
    if completed.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} exited {completed.returncode}: "
            f"{completed.stderr.decode(errors='replace')[-500:]}"
        )
    return elapsed


def _interleaved(
    commands: dict[str, list[str]],
    root: Path,
    runs: int,
    env: dict[str, str] | None,
) -> dict[str, list[float]]:
    """``runs`` rounds of every command in turn, after one warm-up run of each."""
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for command in commands.values():
        _timed(command, root, env)
    for _ in range(runs):
        for name, command in commands.items():
            samples[name].append(_timed(command, root, env))
    return samples


def _ratios(samples: dict[str, list[float]]) -> dict[str, Any]:
    """Each command's samples divided by the ``python -c pass`` of their round."""
    pythons = samples["python -c pass"]
    return {
        name: summarize([a / b for a, b in zip(values, pythons, strict=True)])
        for name, values in samples.items()
        if name != "python -c pass"
    }


def _import_times(command: list[str], root: Path) -> list[tuple[str, int, int]]:
    """``(module, own µs, cumulative µs)`` for every import the command made."""
    completed = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    modules = []
    for line in completed.stderr.splitlines():
        if not line.startswith("import time:") or line.count("|") != 2:
            continue
        own, cumulative, name = line.removeprefix("import time:").split("|")
        if own.strip().isdigit() and cumulative.strip().isdigit():
            modules.append((name.strip(), int(own), int(cumulative)))
    return modules


def _validation_profile(command: list[str], root: Path) -> dict[str, Any]:
    """cProfile one validation: where its time goes, in ms of cumulative time.

    ``imports_ms`` is the outermost imports' time, ``schema_compile_ms`` the time
    in ``fastjsonschema.compile``; both inflated by the profiler alike.
    """
    with tempfile.TemporaryDirectory(prefix="akit-bench-cold-") as folder:
        output = Path(folder) / "validate.prof"
        subprocess.run(
            [command[0], "-m", "cProfile", "-o", str(output), *command[1:]],
            cwd=root,
            capture_output=True,
            check=False,
            timeout=120,
        )
        raw: dict[Any, Any] = pstats.Stats(str(output)).stats  # type: ignore[attr-defined]
    total = imports = compile_ = 0.0
    for (filename, _, name), (_, _, _, cumulative, _) in raw.items():
        if name == "<module>" and filename.endswith("runpy.py"):
            continue
        if filename == "~" and name == "<built-in method builtins.exec>":
            total = max(total, cumulative)
        if name == "_find_and_load" and "importlib._bootstrap" in filename:
            imports = cumulative
        if name == "compile" and "fastjsonschema" in filename:
            compile_ += cumulative
    return {
        "total_ms": total * 1e3,
        "imports_ms": imports * 1e3,
        "schema_compile_ms": compile_ * 1e3,
    }


def measure_cold_start(root: Path, workflow: Path, *, runs: int) -> dict[str, Any]:
    """Time ``runs`` fresh processes of each command (after one warm-up each)."""
    python = sys.executable
    commands = {
        "python -c pass": [python, "-c", "pass"],
        "python -c 'import artemiskit'": [python, "-c", "import artemiskit"],
        "akit --help": [python, "-m", "artemiskit_cli", "--help"],
        "akit scenario validate": [
            python,
            "-m",
            "artemiskit_cli",
            "scenario",
            "validate",
            str(workflow),
        ],
    }
    samples = _interleaved(commands, root, runs, None)
    figures = {name: summarize(values, scale=1e3) for name, values in samples.items()}
    modules = _import_times(commands["akit scenario validate"], root)
    heavy = sorted(
        {
            prefix
            for name, _, _ in modules
            for prefix in HEAVY_MODULES
            if name == prefix or name.startswith(prefix + ".")
        }
    )
    ratios = _ratios(samples)
    with tempfile.TemporaryDirectory(prefix="akit-bench-pyc-") as cache:
        env = {
            key: value
            for key, value in os.environ.items()
            if key != "PYTHONDONTWRITEBYTECODE"
        }
        env["PYTHONPYCACHEPREFIX"] = cache
        bytecode = _ratios(_interleaved(commands, root, runs, env))
    slowest = sorted(modules, key=lambda module: module[1], reverse=True)[:8]
    baseline = figures["python -c pass"]["median"]
    return {
        "scope": "whole-process",
        "runs": runs,
        "workflow": str(workflow.relative_to(root)),
        "commands": {
            name: shlex.join(["python", *command[1:]]).replace(f"{root}/", "")
            for name, command in commands.items()
        },
        "ms": figures,
        "validate_minus_python_ms": figures["akit scenario validate"]["median"]
        - baseline,
        "validate_vs_python": figures["akit scenario validate"]["median"] / baseline,
        "vs_python": ratios,
        "vs_python_bytecode": bytecode,
        "modules_imported": len(modules),
        "import_ms": sum(own for _, own, _ in modules) / 1e3,
        "slowest_imports_own_ms": [
            {"module": name, "own_ms": own / 1e3} for name, own, _ in slowest
        ],
        "heavy_modules_imported": heavy,
        "validate_profile": _validation_profile(
            commands["akit scenario validate"], root
        ),
    }
