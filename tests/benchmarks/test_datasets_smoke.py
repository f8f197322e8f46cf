"""The datasets benchmark measures both sides and shares checks (no timing checks)."""

from __future__ import annotations

from benchmarks._targets import evaluate_targets
from benchmarks.datasets import measure_datasets


def test_the_datasets_benchmark_gives_its_figures_and_target_row() -> None:
    figures = measure_datasets(cases=300, pairs=3)
    assert figures["cases"] == 300
    assert figures["validate_vs_parse"]["pairs"] == 3
    # one check of the workflow itself, then one per expected status: rows that
    # differ only in their text share a check
    assert figures["checks"] == 4
    rows = evaluate_targets({"datasets": {"skipped": False, **figures}})
    (row,) = [r for r in rows if "parsing the dataset" in r["target"]]
    assert row["met"] in (True, False)
    assert "300 cases" in row["measured"]


def test_the_suite_memory_figure_compares_two_suite_sizes() -> None:
    from benchmarks.datasets import measure_suite_memory

    memory = measure_suite_memory(20, 60)
    small, large = memory["sizes"]
    assert (small["units"], large["units"]) == (20, 60)
    assert large["peak_rss"] >= large["rss_before"] > 0
    # what the LARGE suite held, traced from half its runs, at 55% and 60%
    retained = memory["retained"]
    assert retained["traced_from"] == 30
    assert retained["measured_at"] == [33, 36]
    assert len(retained["traced_bytes"]) == 2
    assert min(retained["traced_bytes"]) > 0
    assert memory["growth_bytes_per_run"] == retained["growth_bytes_per_run"]
    # each size with its resident set, blocks and objects at 10% and 90%
    assert all(len(size["blocks_at"]) == 2 for size in memory["sizes"])
    # SPEC 19's bookkeeping share: the suite against its runs alone, in pairs
    bookkeeping = memory["bookkeeping"]
    assert (bookkeeping["units"], bookkeeping["pairs"]) == (60, 3)
    assert memory["bookkeeping_share"] == bookkeeping["bookkeeping_share"]
    rows = evaluate_targets({"datasets": {"skipped": False, "suite_memory": memory}})
    (row,) = [r for r in rows if "driver memory" in r["target"]]
    assert row["met"] in (True, False)
    assert "per extra finished run" in row["measured"]
    (row,) = [r for r in rows if "bookkeeping" in r["target"]]
    assert row["met"] in (True, False)
    assert "60 units" in row["measured"]
