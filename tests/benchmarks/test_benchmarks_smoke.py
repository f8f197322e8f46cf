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
    "suite_runner",
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
            "--skip-suite",
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
    assert set(results["per_step"]["marks"]) == {"10", "100", "200", "500"}
    assert results["sandbox"]["skipped"] is True
    assert results["peers"]["skipped"] is True
    page = (tmp_path / "performance.md").read_text(encoding="utf-8")
    for heading in ("## 1.", "## 2.", "## 3.", "## 4.", "## 5.", "## 6.", "LangGraph"):
        assert heading in page
    assert len(results["targets"]) == 19
    table = page.split("## Targets", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == len(results["targets"])
    assert all(
        row.rstrip(" |").endswith(("met", "**missed**", "not measured")) for row in rows
    )
    assert results["machine"]["git_commit"] in table
    assert results["suite"]["skipped"] is True
    assert "## Suites: runs versus bookkeeping" not in page
    (suite,) = [t for t in results["targets"] if "spent in runs" in t["target"]]
    assert suite["met"] is None
