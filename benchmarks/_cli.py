"""``python -m benchmarks``: run every measure, write the JSON and the docs page."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio

from benchmarks._coldstart import measure_cold_start
from benchmarks._memory import measure_memory
from benchmarks._peers import measure_langgraph
from benchmarks._report import render_markdown
from benchmarks._sandbox import measure_sandbox
from benchmarks._stats import machine_info
from benchmarks._targets import evaluate_targets
from benchmarks.durable import measure_durable
from benchmarks.hot_path import measure_hot_path, profile_calls
from benchmarks.replay import measure_replay
from benchmarks.sessions import measure_sessions, profile_sessions
from benchmarks.telemetry import measure_telemetry

__all__ = ["ROOT", "SCRATCH", "TRACKED", "main", "output_paths"]

ROOT = Path(__file__).resolve().parent.parent
#: The published results: only a full run writes them.
TRACKED = (
    ROOT / "benchmarks" / "results" / "latest.json",
    ROOT / "docs" / "performance.md",
)
#: Where ``--quick`` writes when no ``--output`` is given (git ignores ``build/``).
SCRATCH = ROOT / "build" / "benchmarks-quick"
#: Every measure's key in the JSON, present even when a measure is skipped.
MEASURES = (
    "per_step",
    "telemetry",
    "per_step_checkpointed",
    "concurrency",
    "cold_start",
    "sandbox",
    "memory",
    "profile",
    "peers",
    "suite_runner",
    "suite",
    "datasets",
    "viewer",
    "replay",
    "suite_processes",
)
_STEPS = 500
_SESSION_STEPS = 10
_LATENCY_MS = 20


def _settings(quick: bool) -> dict[str, Any]:
    if quick:
        return {
            "per_step_pairs": 3,
            "durable_pairs": 3,
            "sessions": 100,
            "session_pairs": 3,
            "cold_runs": 2,
            "containers": 1,
            "sandbox_pairs": 5,
            "memory_runs": 1,
            "peer_pairs": 1,
            "peer_sync_pairs": 0,
            "suite_runs": 200,
            "memory_units": (200, 1000),
            "replay_runs": 100,
            "replay_pairs": 3,
            "processes_runs": 100,
        }
    # The in-process pairs are cheap (a pair of 500-step runs takes well under a
    # second), so the full run takes enough of them that a slow spell of a
    # shared machine moves the median little.
    return {
        "per_step_pairs": 21,
        "durable_pairs": 9,
        "sessions": 1000,
        "session_pairs": 5,
        "cold_runs": 15,
        "containers": 5,
        "sandbox_pairs": 12,
        "memory_runs": 3,
        "peer_pairs": 5,
        "peer_sync_pairs": 3,
        "suite_runs": 1000,
        "memory_units": (1000, 10000),
        "replay_runs": 500,
        "replay_pairs": 7,
        "processes_runs": 400,
    }


def _say(message: str) -> None:
    sys.stderr.write(f"benchmarks: {message}\n")
    sys.stderr.flush()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Measure engine overhead and write docs/performance.md.",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="fewer repetitions, for a fast look; writes to build/benchmarks-quick/ "
        "(or --output), never to the tracked results",
    )
    parser.add_argument(
        "--skip-sandbox", action="store_true", help="skip the Docker measure"
    )
    parser.add_argument(
        "--skip-peers",
        action="store_true",
        help="skip the LangGraph comparison (no pip install)",
    )
    parser.add_argument(
        "--skip-suite",
        action="store_true",
        help="skip the suite-runner measure (1000 instant runs)",
    )
    parser.add_argument(
        "--skip-viewer",
        action="store_true",
        help="skip the report viewer measure (suites of 1,000 to 100,000 runs "
        "in headless Chromium)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help="write latest.json and performance.md into this folder instead of "
        "benchmarks/results/ and docs/",
    )
    return parser


def _run_all(arguments: argparse.Namespace) -> dict[str, Any]:
    settings = _settings(arguments.quick)
    results: dict[str, Any] = {}
    _say(
        f"1/5 per step, no durability: {settings['per_step_pairs']} pairs "
        f"(plain-Python loop, ours) × {_STEPS} steps"
    )
    results["per_step"] = anyio.run(
        lambda: measure_hot_path(steps=_STEPS, pairs=settings["per_step_pairs"])
    )
    _say(
        f"1a/5 per step, OpenTelemetry export on: {settings['per_step_pairs']} pairs "
        "× 2 (plain loop, export on; export off, export on)"
    )
    results["telemetry"] = anyio.run(
        lambda: measure_telemetry(steps=_STEPS, pairs=settings["per_step_pairs"])
    )
    _say(
        f"1b/5 per step, durable: {settings['durable_pairs']} pairs "
        "(ours, one atomic write of the same bytes)"
    )
    results["per_step_checkpointed"] = anyio.run(
        lambda: measure_durable(steps=_STEPS, pairs=settings["durable_pairs"])
    )
    _say(
        f"2/5 {settings['sessions']} concurrent sessions: "
        f"{settings['session_pairs']} pairs (one session, all of them)"
    )
    results["concurrency"] = anyio.run(
        lambda: measure_sessions(
            count=settings["sessions"],
            steps=_SESSION_STEPS,
            latency_ms=_LATENCY_MS,
            pairs=settings["session_pairs"],
        )
    )
    results["concurrency"]["profile"] = profile_sessions(
        count=settings["sessions"] // 10, steps=_SESSION_STEPS
    )
    _say(f"3/5 cold start ({settings['cold_runs']} runs per command)")
    results["cold_start"] = measure_cold_start(
        ROOT,
        ROOT / "examples" / "quickstart" / "workflow.yaml",
        runs=settings["cold_runs"],
    )
    if arguments.skip_sandbox:
        results["sandbox"] = {"skipped": True, "reason": "--skip-sandbox was given"}
    else:
        _say(f"4/5 sandbox ({settings['containers']} containers)")
        results["sandbox"] = anyio.run(
            lambda: measure_sandbox(
                containers=settings["containers"], pairs=settings["sandbox_pairs"]
            )
        )
        if results["sandbox"]["skipped"]:
            _say(f"    skipped: {results['sandbox']['reason']}")
    _say(f"5/5 peak memory ({settings['memory_runs']} processes × 2)")
    results["memory"] = measure_memory(ROOT, steps=_STEPS, runs=settings["memory_runs"])
    _say("profile of one long run and of the plain-Python loop")
    results["profile"] = profile_calls(_STEPS)
    if arguments.skip_peers:
        results["peers"] = {"skipped": True, "reason": "--skip-peers was given"}
    else:
        _say("peers: LangGraph (a throwaway venv; the first run installs it)")
        results["peers"] = measure_langgraph(
            steps=_STEPS,
            pairs=settings["peer_pairs"],
            sync_pairs=settings["peer_sync_pairs"],
        )
        if results["peers"]["skipped"]:
            _say(f"    skipped: {results['peers']['reason']}")
    if arguments.skip_suite:
        results["suite_runner"] = {"skipped": True, "reason": "--skip-suite was given"}
        results["suite"] = {"skipped": True, "reason": "--skip-suite was given"}
        results["replay"] = {"skipped": True, "reason": "--skip-suite was given"}
    else:
        _say(f"suite runner ({settings['suite_runs']} instant runs)")
        results["suite_runner"] = _suite_runner(settings["suite_runs"])
        _say(f"suite: {settings['suite_runs']} instant runs, runs alone vs suite × 5")
        results["suite"] = _suite_runner(settings["suite_runs"], "--share")
        _say(
            f"replay: {settings['replay_runs']} runs replayed from cassettes vs "
            f"scripted × {settings['replay_pairs']} pairs"
        )
        results["replay"] = anyio.run(
            lambda: measure_replay(
                runs=settings["replay_runs"], pairs=settings["replay_pairs"]
            )
        )
    small, large = settings["memory_units"]
    # the suite memory runs suites of instant runs: skipped with the suite
    memory = [] if arguments.skip_suite else ["--memory", str(small), str(large)]
    _say(
        "datasets: 10,000 cases validated vs the dataset parsed alone"
        + ("" if arguments.skip_suite else f"; suite memory at {small}, {large} units")
    )
    results["datasets"] = _module_figures("benchmarks.datasets", *memory)
    if arguments.skip_viewer:
        results["viewer"] = {"skipped": True, "reason": "--skip-viewer was given"}
    else:
        _say("viewer: report pages of synthesised suites in headless Chromium")
        results["viewer"] = _module_figures(
            "benchmarks.viewer", *(("--quick",) if arguments.quick else ())
        )
    if arguments.skip_suite:
        results["suite_processes"] = {
            "skipped": True,
            "reason": "--skip-suite was given",
        }
    else:
        runs = settings["processes_runs"]
        _say(f"suite: {runs} CPU-bound runs, one process vs the processes executor")
        results["suite_processes"] = _module_figures(
            "benchmarks.suite_runner_processes", "--runs", str(runs)
        )
    return results


def _module_figures(module: str, *options: str) -> dict[str, Any]:
    """A benchmark module run in its own interpreter; its JSON figures."""
    completed = subprocess.run(
        [sys.executable, "-m", module, *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=3600,
    )
    if completed.returncode != 0:
        tail = " / ".join(completed.stderr.strip().splitlines()[-3:])
        return {"skipped": True, "reason": f"{module} failed: {tail}"}
    figures: dict[str, Any] = json.loads(completed.stdout)
    return {"skipped": False, **figures}


def _suite_runner(runs: int, *options: str) -> dict[str, Any]:
    """``benchmarks.suite_runner`` in its own interpreter; its JSON figures.

    The share in runs is a ratio of CPU times within one process: measured in
    a fresh one, nothing the earlier benchmarks left behind weighs on it.
    """
    return _module_figures("benchmarks.suite_runner", "--runs", str(runs), *options)


def output_paths(*, quick: bool, output: Path | None) -> tuple[Path, Path]:
    """Where a run writes ``latest.json`` and ``performance.md``, in that order.

    A full run writes the tracked files unless ``output`` names a folder; a quick
    run writes to ``output`` or, by default, the scratch folder `SCRATCH`.

    Raises:
        ValueError: A quick run would write over a tracked file.
    """
    if output is None:
        if not quick:
            return TRACKED
        output = SCRATCH
    paths = (output / "latest.json", output / "performance.md")
    tracked = {path.resolve() for path in TRACKED}
    if quick and any(path.resolve() in tracked for path in paths):
        raise ValueError(
            f"--quick never writes the tracked results; {output} holds them "
            "(give another --output, or leave it out for build/benchmarks-quick/)"
        )
    return paths


def main(argv: list[str] | None = None) -> int:
    """Run the suite; write ``latest.json`` and ``performance.md``.

    The destination is checked before anything is measured (exit 2 for a quick
    run aimed at the tracked files).
    """
    raw = sys.argv[1:] if argv is None else argv
    parser = _parser()
    arguments = parser.parse_args(raw)
    try:
        json_path, markdown_path = output_paths(
            quick=arguments.quick, output=arguments.output
        )
    except ValueError as exc:
        parser.error(str(exc))
    started = time.perf_counter()
    load_before = os.getloadavg()
    measures = _run_all(arguments)
    results: dict[str, Any] = {
        "schema": 1,
        "command": shlex.join(["python", "-m", "benchmarks", *raw]),
        "quick": arguments.quick,
        "machine": {
            **machine_info(ROOT),
            "load_average_1min": {"start": load_before[0], "end": os.getloadavg()[0]},
        },
        **{key: measures[key] for key in MEASURES},
    }
    results["elapsed_s"] = time.perf_counter() - started
    results["targets"] = evaluate_targets(results)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    markdown_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    markdown_path.write_text(render_markdown(results), encoding="utf-8")
    _say(f"wrote {json_path} and {markdown_path} in {results['elapsed_s']:.0f} s")
    for target in results["targets"]:
        _say(f"  {target['target']}: {target['measured']} ({target['met']})")
    return 0
