"""The example suite's Markdown report and its comparison (Markdown, JSON), exactly.

`EXAMPLE_SUITE` is scripted, so everything in its report but the runs' durations
is fixed: the totals, each workflow's rate, interval and pass^k, the targets, the
causes, the requirements and every run's verdict and exit code. The page CI jobs
paste into a summary must not change by accident; after a deliberate change,
regenerate ``golden/example_suite.md`` with ``ARTEMISKIT_UPDATE_GOLDEN=1`` and
review the diff.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from tests.reports._evidence import akit

GOLDEN = Path(__file__).parent / "golden" / "example_suite.md"
#: A run row: repetition, verdict, why, exit code, then the duration (volatile).
_RUN_ROW = re.compile(r"^(\| \d+ \| [a-z]+ \| [^|]* \| \d+ \| )\d+( \|)$", re.M)


def test_the_example_suites_markdown_report_is_the_golden_one(
    example_suite: Path,
) -> None:
    done = akit("report", str(example_suite))
    assert done.returncode == 0, done.stderr
    text = _RUN_ROW.sub(r"\1D\2", done.stdout)
    if os.environ.get("ARTEMISKIT_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(text, "utf-8")
    assert text == GOLDEN.read_text("utf-8")


COMPARISON = Path(__file__).parent / "golden" / "example_comparison.md"


def test_the_comparison_with_a_worsened_suite_is_the_golden_one(
    example_suite: Path, worse_suite: Path
) -> None:
    done = akit("report", "compare", str(example_suite), str(worse_suite))
    assert done.returncode == 8, done.stderr
    if os.environ.get("ARTEMISKIT_UPDATE_GOLDEN") == "1":
        COMPARISON.write_text(done.stdout, "utf-8")
    assert done.stdout == COMPARISON.read_text("utf-8")


COMPARISON_JSON = Path(__file__).parent / "golden" / "example_comparison.json"


def test_the_comparisons_json_is_the_golden_one(
    example_suite: Path, worse_suite: Path, tmp_path: Path
) -> None:
    out = tmp_path / "c.json"
    done = akit(
        "report", "compare", str(example_suite), str(worse_suite), "--json", str(out)
    )
    assert done.returncode == 8, done.stderr
    data = json.loads(out.read_text("utf-8"))
    for side in ("baseline", "candidate"):
        assert data[side]["suite_id"]
        data[side]["suite_id"] = "SUITE_ID"
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    if os.environ.get("ARTEMISKIT_UPDATE_GOLDEN") == "1":
        COMPARISON_JSON.write_text(text, "utf-8")
    assert text == COMPARISON_JSON.read_text("utf-8")
