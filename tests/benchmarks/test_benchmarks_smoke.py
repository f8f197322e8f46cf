"""The benchmark suite runs end to end and writes every measure (no timing checks)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEASURES = {
    "per_step",
    "concurrency",
    "cold_start",
    "sandbox",
    "memory",
    "profile",
    "peers",
    "suite",
}


def test_quick_run_writes_every_measure(tmp_path: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks",
            "--quick",
            "--skip-sandbox",
            "--skip-peers",
            "--output",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=110,
    )
    assert completed.returncode == 0, completed.stderr
    results = json.loads((tmp_path / "latest.json").read_text(encoding="utf-8"))
    assert set(results) >= MEASURES | {"machine", "command", "targets"}
    assert set(results["per_step"]["marks"]) == {"10", "100", "500"}
    assert results["sandbox"]["skipped"] is True
    assert results["peers"]["skipped"] is True
    page = (tmp_path / "performance.md").read_text(encoding="utf-8")
    for heading in ("## 1.", "## 2.", "## 3.", "## 4.", "## 5.", "LangGraph"):
        assert heading in page
    assert "## Suites: runs versus bookkeeping" in page
    (suite,) = [t for t in results["targets"] if t["name"].startswith("a suite")]
    assert suite["met"] is (results["suite"]["share_in_runs"] >= 0.8)
