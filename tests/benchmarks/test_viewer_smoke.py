"""``python -m benchmarks.viewer`` measures a small suite end to end (no timing)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.viewer import render_viewer
from tests.reports._browser import chromium_path

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.timeout(600)
def test_the_viewer_benchmark_reports_every_figure() -> None:
    chromium_path()  # skips without Chromium (fails in CI), as every browser test

    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.viewer", "--sizes", "300"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=540,
    )
    assert completed.returncode == 0, completed.stderr
    figures = json.loads(completed.stdout)
    (size,) = figures["sizes"]
    assert size["runs"] == 300
    assert size["page_bytes"] == pytest.approx(size["bytes_per_run"] * 300)
    assert size["interactive_ms"] > 0
    assert size["read_s"] > 0
    assert size["build_s"] > 0
    filters = size["filter_ms"]
    assert filters["verdict failed"]["shown"].endswith(" of 300 runs")
    assert filters["all verdicts"]["shown"] == "300 of 300 runs"
    assert size["run_title"].startswith("Run ")
    section = "\n".join(render_viewer(figures))
    assert "| 300 |" in section
    assert figures["machine"]["cpu_model"] in section
