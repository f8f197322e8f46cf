"""The decision simulation runs end to end through compare (no timing checks)."""

from __future__ import annotations

from benchmarks.decisions import simulate


def test_the_simulation_reports_every_figure_through_compare() -> None:
    result = simulate(trials=10, seed=1)
    paired = result["paired_vs_unpaired"]
    assert paired["tests"] == ["mcnemar-exact"]  # compare chose McNemar
    assert paired["units"] == 122  # what `akit plan --paired` asks for
    assert 0.79 < paired["plan"]["planned"] < 0.81
    assert result["paired_t_vs_unpaired"]["tests"] == ["paired-t"]
    assert result["plan_unpaired"]["runs_per_side"] == 292
    holm = result["holm"]
    assert holm["rows_per_compare"] == 20 + 10 * 10  # workflow and unit rows
    for figure in (
        paired["mcnemar_exact"],
        paired["fisher_unpaired_same_runs"],
        holm["holm_family_wise_error"],
    ):
        assert 0.0 <= figure["rate"] <= 1.0
