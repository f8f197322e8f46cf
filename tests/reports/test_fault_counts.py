"""A workflow's page: its runs' faults added up, a failure chart only with failures."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tests.reports._evidence import ROOT, akit, run_suite

if TYPE_CHECKING:
    from pathlib import Path


def test_the_faults_table_sums_every_run(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    run_suite(ROOT / "examples" / "fault-recovery", suite, repeat=2)
    html = tmp_path / "r.html"
    done = akit("report", str(suite), "--html", str(html))
    assert done.returncode == 0, done.stderr
    page = html.read_text("utf-8")
    caption = "Declared faults and retries over all runs with a record"
    table = page.split(caption, 1)[1].split("</table>", 1)[0]
    cells = re.findall(r'<td class="num">(\d+)</td>', table)
    # Each run injects one fault and recovers it with one retry; no denial.
    assert cells == ["2", "2", "2", "0", "0"]


def test_only_a_workflow_with_failures_gets_a_failure_reasons_chart(
    example_suite: Path, tmp_path: Path
) -> None:
    html = tmp_path / "r.html"
    done = akit("report", str(example_suite), "--html", str(html))
    assert done.returncode == 0, done.stderr
    page = html.read_text("utf-8")
    # `answer` (workflow 1) fails two repetitions; the other two always pass.
    assert 'aria-labelledby="chart-reasons-1-title"' in page
    assert "chart-reasons-2-title" not in page
    assert "chart-reasons-3-title" not in page
    # Every workflow declares budgets: each gets its budget-use chart.
    for index in (1, 2, 3):
        assert f'aria-labelledby="chart-budget-{index}-title"' in page
