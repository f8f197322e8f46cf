"""The comparison page states its verdict, as the Markdown summary does."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from tests.reports._evidence import akit, set_counts, suite_json

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


def test_rows_go_regressed_first_then_by_adjusted_p_and_one_side_is_listed(
    example_suite: Path, suite_copy: Path, tmp_path: Path
) -> None:
    suite = suite_json(suite_copy)
    answer = next(w for w in suite["workflows"] if w["name"] == "answer")
    set_counts(suite, answer, 2, 3)  # lower, tested, not significant (p 1)
    suite["workflows"] = [w for w in suite["workflows"] if w["name"] != "summarize"]
    (suite_copy / "suite.json").write_text(json.dumps(suite), "utf-8")
    html = tmp_path / "c.html"
    done = akit(
        "report", "compare", str(example_suite), str(suite_copy), "--html", str(html)
    )
    assert done.returncode == 0, done.stderr
    page = html.read_text("utf-8")
    # answer has an adjusted p; triage (equal) has none and comes after it.
    assert page.index('<th scope="row">answer<') < page.index('<th scope="row">triage<')
    assert '<dd data-check="only-baseline">summarize</dd>' in page
    assert '<dd data-check="only-candidate">none</dd>' in page


def test_a_changed_contract_is_marked_on_its_row(
    example_suite: Path, suite_copy: Path
) -> None:
    suite = suite_json(suite_copy)
    answer = next(w for w in suite["workflows"] if w["name"] == "answer")
    answer["digest"] = "sha256:" + "0" * 64
    (suite_copy / "suite.json").write_text(json.dumps(suite), "utf-8")
    done = akit("report", "compare", str(example_suite), str(suite_copy))
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if "(newcombe)" in line]
    assert [row.split(" | ")[0] for row in rows] == [
        "| answer (contract changed)",
        "| summarize",
        "| triage",
    ]
