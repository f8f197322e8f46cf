"""The suite runner benchmark runs end to end and reports every figure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks._targets import evaluate_targets
from benchmarks.suite_runner import measure_share, render_share

ROOT = Path(__file__).resolve().parents[2]


def test_suite_runner_benchmark_reports_its_figures() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.suite_runner", "--runs", "20"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=110,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    instant = figures["instant"]
    assert instant["runs"] == 20
    assert set(instant) >= {
        "engine_only_wall_s",
        "suite_no_output",
        "suite_with_output",
        "suite_with_output_concurrency_4",
    }
    assert 0 <= instant["suite_with_output"]["share_outside_engine"] <= 1
    for mode in ("no_output", "with_output"):
        assert figures["latency"][mode]["ratio_to_ideal"] > 0


def test_share_in_runs_is_measured_in_interleaved_pairs() -> None:
    share = measure_share(runs=10, pairs=3)
    assert (share["runs"], share["pairs"], len(share["samples"])) == (10, 3, 3)
    assert share["share_in_runs"] > 0
    low, high = share["share_in_runs_spread"]
    assert low <= share["share_in_runs"] <= high
    (row,) = [
        t for t in evaluate_targets({"suite": share}) if "spent in runs" in t["target"]
    ]
    assert row["met"] is (share["share_in_runs"] >= 0.8)
    assert "in runs" in row["measured"]
    assert any("CPU share" in line for line in render_share(share))


def test_share_alone_in_its_own_interpreter() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.suite_runner", "--share", "--runs", "10"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=110,
    )
    assert done.returncode == 0, done.stderr
    share = json.loads(done.stdout)
    assert (share["runs"], share["pairs"], len(share["samples"])) == (10, 5, 5)
    assert share["share_in_runs"] > 0
