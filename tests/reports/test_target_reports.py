"""Reports of a target matrix (SPEC 19): per-unit rows and a cases x targets table.

The suite is real: the 20-ticket dataset of ``examples/datasets`` on two offline
models; the page and the Markdown are made from the folder on disk.
"""

from __future__ import annotations

from pathlib import Path

from artemiskit import ArtemisKit
from artemiskit.reports import load_report_input, report_html, report_markdown
from tests.examples._blocks import ROOT

TRIAGE = ROOT / "examples" / "datasets" / "triage.workflow.yaml"
TARGETS = ["scripted:agent", "scripted:careful"]


async def _matrix(out: Path) -> None:
    await ArtemisKit().run_suite(
        paths=[TRIAGE], output_dir=out, min_pass_rate=0, targets=TARGETS
    )


async def test_markdown_shows_units_and_a_cases_by_targets_table(
    tmp_path: Path,
) -> None:
    await _matrix(tmp_path / "out")
    text = report_markdown(await load_report_input([str(tmp_path / "out")]))
    assert "### Pass rate per target" in text
    assert "| scripted\\:agent | 20 | 95.0% |" in text
    assert "| case | scripted\\:agent | scripted\\:careful |" in text
    assert "| T\\-1007 | 0.0% (0/1) | 100.0% (1/1) |" in text
    assert "| T\\-1007 | scripted\\:agent | 0.0% |" in text
    rows = [line for line in text.splitlines() if line.startswith("| T\\-")]
    assert len(rows) == 20 * 2 + 20  # a row per unit, then a row per case


async def test_the_page_links_each_run_to_its_own_record(tmp_path: Path) -> None:
    await _matrix(tmp_path / "out")
    evidence = await load_report_input([str(tmp_path / "out")])
    # Every run's record is found under its own (workflow, case, target, rep).
    assert len(evidence.records) == 40
    for (_, case, target, _), record in evidence.records.items():
        assert record.case is not None
        assert record.case.id == case
        assert record.target.id == target
    page = report_html(evidence)
    # Each run is a row of the interactive Runs view, found by its own run id.
    ids = {record.run_id for record in evidence.records.values()}
    assert len(ids) == 40
    assert 'data-check="grid"' in page
    assert 'data-check="targets"' in page
