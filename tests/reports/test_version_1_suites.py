"""A ``suite.json`` of version 1 (from before verdicts) is still read and compared.

Version 1 counted a run stopped by a budget as unavailable; read today, every run
is counted again by its verdict (SPEC 20), so a v1 baseline and a v2 candidate
compare by the same rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from artemiskit.suites import load_suite_record
from tests.reports._evidence import akit


def _as_version_1(suite: dict[str, Any]) -> dict[str, Any]:
    """``suite`` as a version-1 suite.json would have it."""
    old = {k: v for k, v in suite.items() if k not in ("units", "targets")}
    old["schema_version"] = 1
    old["settings"] = {
        k: v
        for k, v in suite["settings"].items()
        if k not in ("max_errored", "gate", "cases", "targets")
    }
    old["totals"] = {k: v for k, v in suite["totals"].items() if k != "errored"}
    dropped = {"target", "errored", "pass_rate_range", "causes"}
    old["workflows"] = [
        {
            **{k: v for k, v in w.items() if k not in dropped},
            "runs": [
                {k: v for k, v in run.items() if k not in ("verdict", "why")}
                for run in w["runs"]
            ],
        }
        for w in suite["workflows"]
    ]
    return old


def test_a_version_1_suite_is_recounted_by_verdicts(suite_copy: Path) -> None:
    path = suite_copy / "suite.json"
    current = json.loads(path.read_text("utf-8"))
    old = _as_version_1(current)
    answer = next(w for w in old["workflows"] if w["name"] == "answer")
    passed = next(run for run in answer["runs"] if run["exit_code"] == 0)
    # Version 1 counted a budget-exhausted run as unavailable.
    passed.update(
        execution_status="budget_exhausted",
        execution_reason="max_actions",
        verification="unavailable",
        exit_code=5,
    )
    answer["passed"], answer["unavailable"] = answer["passed"] - 1, 1
    path.write_text(json.dumps(old), "utf-8")

    read = load_suite_record(path)
    assert read["schema_version"] == 2
    (recounted,) = [w for w in read["workflows"] if w["name"] == "answer"]
    assert (recounted["passed"], recounted["failed"]) == (2, 3)
    assert (recounted["errored"], recounted["unavailable"]) == (0, 0)
    assert recounted["pass_rate"] == 0.4
    assert recounted["target"] == "default"
    assert [run["verdict"] for run in recounted["runs"]].count("failed") == 3
    assert all(run["why"] is None for run in recounted["runs"])
    assert read["totals"]["failed"] == 3
    assert {u["workflow"] for u in read["units"]} == {
        w["name"] for w in read["workflows"]
    }

    shown = akit("report", str(suite_copy))
    assert shown.returncode == 0, shown.stderr
    assert "| answer | 40.0% |" in shown.stdout
    assert "| not recorded | n/a | failed | 3 |" in shown.stdout


def test_a_version_1_baseline_compares_with_a_version_2_candidate(
    example_suite: Path, suite_copy: Path, tmp_path: Path
) -> None:
    path = suite_copy / "suite.json"
    path.write_text(json.dumps(_as_version_1(json.loads(path.read_text("utf-8")))))
    done = akit(
        "report",
        "compare",
        str(suite_copy),
        str(example_suite),
        "--markdown",
        str(tmp_path / "c.md"),
    )
    assert done.returncode == 0, done.stderr
    assert "No workflow regressed." in (tmp_path / "c.md").read_text("utf-8")
