"""A 100,000-run suite gives one page within SPEC 21's size that opens and filters.

Not timed (benchmarks/viewer.py measures the times): the page is made from a
synthesised suite whose records validate against the record schema, must stay
under 300 bytes per run, and must become interactive, filter over every run and
open a run by its deep link in Chromium without an error or a request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from artemiskit.reports import report_html
from benchmarks.viewer import synthesized_evidence
from tests.reports._browser import Visit, artifacts_folder, chromium_browser
from tests.reports._evidence import PageParts

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RUNS = 100_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless system Chromium; Playwright downloads no browser of its own."""
    yield from chromium_browser()


@pytest.mark.timeout(1800)
def test_a_100000_run_suite_gives_a_small_page_that_opens_and_filters(
    browser: Any, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    evidence = synthesized_evidence(RUNS)
    page = tmp_path / "report.html"
    page.write_text(report_html(evidence), "utf-8")
    assert page.stat().st_size < 300 * RUNS
    parts = PageParts(page.read_text("utf-8"))
    assert len(parts.data["r"]["id"]) == RUNS
    runs = [run for w in evidence.suite["workflows"] for run in w["runs"]]
    verdicts = Counter(run["verdict"] for run in runs)
    failed = next(run for run in runs if run["verdict"] == "failed")
    visit = Visit(browser, page, fragment="#runs", ready=True)
    try:
        assert visit.texts("#runs-count") == [f"{RUNS} of {RUNS} runs"]
        # The list is virtual: only the rows in view (and a few more) exist.
        assert 10 < len(visit.texts(".runrow")) < 100
        visit.page.select_option("#filter-verdict", "failed")
        assert visit.texts("#runs-count") == [f"{verdicts['failed']} of {RUNS} runs"]
        visit.page.select_option("#sort", "tokens")
        visit.page.fill("#search", failed["run_id"][:10])
        assert failed["run_id"][:8] in visit.texts(".runrow a")
        visit.page.evaluate(f"location.hash = '#run/{failed['run_id']}'")
        visit.page.wait_for_selector("#view-run:not([hidden])")
        assert visit.texts("#run-title") == [f"Run {failed['run_id']}"]
        assert "Timeline" in visit.texts("#run-body h3")
        visit.shoot(
            artifacts_folder(tmp_path_factory), "scale-100000-run", full_page=False
        )
        visit.assert_clean()
    finally:
        visit.close()
