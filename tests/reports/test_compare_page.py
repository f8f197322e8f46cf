"""The comparison page states its verdict, as the Markdown summary does."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tests.reports._evidence import akit

if TYPE_CHECKING:
    from pathlib import Path


def _verdict(page: str) -> str:
    [found] = re.findall(r'<p class="[^"]+" data-check="verdict">(.*?)</p>', page)
    return re.sub(r"<[^>]+>", "", found)


def test_the_comparison_page_says_which_workflow_regressed(
    example_suite: Path, worse_suite: Path, tmp_path: Path
) -> None:
    html = tmp_path / "c.html"
    done = akit(
        "report", "compare", str(example_suite), str(worse_suite), "--html", str(html)
    )
    assert done.returncode == 8, done.stderr
    assert _verdict(html.read_text("utf-8")) == "✘ 1 workflow(s) regressed: triage"
    same = tmp_path / "same.html"
    done = akit(
        "report", "compare", str(example_suite), str(example_suite), "--html", str(same)
    )
    assert done.returncode == 0, done.stderr
    assert _verdict(same.read_text("utf-8")) == "✔ No workflow regressed."
