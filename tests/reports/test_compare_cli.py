"""``akit report compare``: pass rates side by side, regressions flagged, exit 8."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.reports._evidence import akit, set_counts, suite_json


def test_a_worsened_workflow_and_only_it_is_flagged(
    example_suite: Path, worse_suite: Path, tmp_path: Path
) -> None:
    html, markdown = tmp_path / "c.html", tmp_path / "c.md"
    done = akit(
        "report",
        "compare",
        str(example_suite),
        str(worse_suite),
        "--html",
        str(html),
        "--markdown",
        str(markdown),
    )
    assert done.returncode == 8, done.stderr
    flagged = [
        line for line in done.stderr.splitlines() if line.startswith("regressed")
    ]
    assert flagged == ["regressed: triage 5/5 -> 0/5 (fisher, p (Holm) 0.0079)"]
    summary = markdown.read_text("utf-8")
    assert "**1 workflow(s) regressed:** triage" in summary
    # The script changed, not the workflow contract: the digests are equal.
    assert "(contract changed)" not in summary
    rows = {
        line.split(" | ")[0].lstrip("| "): line
        for line in summary.splitlines()
        if line.startswith("| ") and "/5)" in line
    }
    # one workflow is lower: Holm's factor is 1; the others are not tested
    why = "one unit a side (no cases): its runs are independent: Fisher's exact test"
    assert rows["triage"].endswith(f"| fisher | {why} | 0.0079 | 0.0079 | **yes** |")
    assert rows["answer"].endswith(f"| fisher | {why} | 1.0000 | – | no |")
    assert rows["summarize"].endswith(f"| fisher | {why} | 1.0000 | – | no |")
    assert "<script" not in html.read_text("utf-8")


def test_the_same_suite_or_a_better_one_is_no_regression(
    example_suite: Path, worse_suite: Path
) -> None:
    same = akit("report", "compare", str(example_suite), str(example_suite))
    assert same.returncode == 0, same.stderr
    assert "No workflow regressed." in same.stdout
    better = akit("report", "compare", str(worse_suite), str(example_suite))
    assert better.returncode == 0, better.stderr


def test_max_drop_flags_a_drop_that_is_not_significant(
    example_suite: Path, suite_copy: Path
) -> None:
    suite = suite_json(suite_copy)
    answer = next(w for w in suite["workflows"] if w["name"] == "answer")
    set_counts(suite, answer, 2, 3)  # 3/5 -> 2/5: p = 1
    (suite_copy / "suite.json").write_text(json.dumps(suite), "utf-8")
    quiet = akit("report", "compare", str(example_suite), str(suite_copy))
    assert quiet.returncode == 0, quiet.stderr
    strict = akit(
        "report", "compare", str(example_suite), str(suite_copy), "--max-drop", "0.1"
    )
    assert strict.returncode == 8
    assert "regressed: answer 3/5 -> 2/5" in strict.stderr


def test_max_drop_is_compared_exactly(suite_copy: Path, tmp_path: Path) -> None:
    # 4/5 -> 3/5 drops by exactly 0.2; float subtraction says 0.20000000000000007.
    suite = suite_json(suite_copy)
    answer = next(w for w in suite["workflows"] if w["name"] == "answer")
    baseline = tmp_path / "baseline"
    shutil.copytree(suite_copy, baseline)
    set_counts(suite, answer, 4, 1)
    (baseline / "suite.json").write_text(json.dumps(suite), "utf-8")
    set_counts(suite, answer, 3, 2)
    (suite_copy / "suite.json").write_text(json.dumps(suite), "utf-8")
    at_the_limit = akit(
        "report", "compare", str(baseline), str(suite_copy), "--max-drop", "0.2"
    )
    assert at_the_limit.returncode == 0, at_the_limit.stderr
    assert "regressed" not in at_the_limit.stderr
    beyond = akit(
        "report", "compare", str(baseline), str(suite_copy), "--max-drop", "0.19"
    )
    assert beyond.returncode == 8, beyond.stderr
    assert "regressed: answer 4/5 -> 3/5" in beyond.stderr


def test_workflows_on_one_side_only_are_listed(
    example_suite: Path, suite_copy: Path
) -> None:
    suite = suite_json(suite_copy)
    suite["workflows"] = [w for w in suite["workflows"] if w["name"] != "summarize"]
    (suite_copy / "suite.json").write_text(json.dumps(suite), "utf-8")
    done = akit("report", "compare", str(example_suite), str(suite_copy))
    assert done.returncode == 0, done.stderr
    assert "Only in the baseline: summarize." in done.stdout


def test_compare_refuses_what_is_not_a_suite(
    example_suite: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"schema": "acme"}', "utf-8")
    done = akit("report", "compare", str(example_suite), str(other))
    assert done.returncode == 2
    assert f"{other}: $: a JSON file of schema 'acme'" in done.stderr
