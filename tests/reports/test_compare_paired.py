"""Compare pairs units by (workflow, case[, target]) and says which test and why.

The suites are synthesised in SPEC 26's shapes (tests/reports/_synthetic.py), the
way datasets and target matrices will write them, and read back from files.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from artemiskit._common._statistics import fisher_exact_p, newcombe_paired_interval
from artemiskit._errors import WorkflowError
from artemiskit.reports import (
    Comparison,
    compare_reports,
    compare_targets,
    comparison_dict,
    comparison_html,
    comparison_markdown,
    load_report_input,
)
from artemiskit.reports._inputs import ReportInput
from tests.reports._evidence import akit
from tests.reports._synthetic import OTHER_DIGEST, Unit, synthetic_suite, write_suite


def _read(folder: Path) -> ReportInput:
    return anyio.run(load_report_input, [str(folder)])


def _compare(
    tmp_path: Path,
    baseline: Sequence[Unit],
    candidate: Sequence[Unit],
    **more: Any,
) -> Comparison:
    digests = more.pop("digests", None)
    base = write_suite(tmp_path / "base", synthetic_suite(baseline))
    cand = write_suite(tmp_path / "cand", synthetic_suite(candidate, digests=digests))
    return compare_reports(_read(base), _read(cand), **more)


def _one_run_cases(name: str, verdicts: str, target: str = "t") -> list[Unit]:
    return [(name, f"c{i:03d}", target, v) for i, v in enumerate(verdicts)]


def test_one_run_a_side_per_unit_is_mcnemar_exact(tmp_path: Path) -> None:
    base = "P" * 27 + "F" * 3
    cand = "F" * 8 + "P" * 19 + "P" + "F" * 2  # 8 pass->fail, 1 fail->pass
    comparison = _compare(
        tmp_path, _one_run_cases("w", base), _one_run_cases("w", cand)
    )
    (row,) = comparison.workflows
    assert row.test == "mcnemar-exact"
    assert row.pairs == 30
    assert "McNemar's exact test on the 9 whose verdicts differ" in row.why
    expected = mcnemar([[19, 8], [1, 2]], exact=True).pvalue
    assert row.p_value == pytest.approx(float(expected), rel=1e-9)
    assert (row.baseline_rate, row.candidate_rate) == (27 / 30, 20 / 30)
    assert row.interval_method == "newcombe-paired"
    assert row.interval == newcombe_paired_interval(19, 8, 1, 2)
    # one run against one run can never be significant: shown, not tested
    assert len(comparison.units) == 30
    assert not any(u.tested for u in comparison.units)
    lower = [u for u in comparison.units if u.candidate_rate == 0.0]
    assert all("shown, not tested" in u.why for u in lower if u.baseline_rate)
    # so the workflow row is the family alone: Holm changes nothing
    assert row.tested
    assert row.p_adjusted == row.p_value
    assert row.regressed
    assert comparison.regressed == ("w",)
    assert comparison.exit_code == 8


def test_several_runs_a_side_is_the_paired_t_test_on_unit_rates(
    tmp_path: Path,
) -> None:
    rng = random.Random(5)
    base: list[Unit] = []
    cand: list[Unit] = []
    for i in range(12):
        b = "".join(rng.choice("PPPF") for _ in range(4))
        c = "".join(rng.choice("PPFF") for _ in range(4))
        base.append(("w", f"c{i}", "t", b))
        cand.append(("w", f"c{i}", "t", c))
    comparison = _compare(tmp_path, base, cand)
    (row,) = comparison.workflows
    assert row.test == "paired-t"
    assert "paired t-test on unit pass rates" in row.why
    rates_b = [u[3].count("P") / 4 for u in base]
    rates_c = [u[3].count("P") / 4 for u in cand]
    expected = stats.ttest_rel(rates_c, rates_b)
    assert row.p_value == pytest.approx(float(expected.pvalue), rel=1e-9)
    low, high = expected.confidence_interval(0.95)
    assert row.interval is not None
    assert row.interval_method == "paired-t"
    assert (row.interval.low, row.interval.high) == pytest.approx(
        (max(-1.0, float(low)), min(1.0, float(high))), abs=1e-9
    )
    assert row.difference == pytest.approx(
        sum(rates_c) / 12 - sum(rates_b) / 12, abs=1e-12
    )


def test_every_row_whose_candidate_is_lower_is_in_holms_family(
    tmp_path: Path,
) -> None:
    # one workflow with cases (8 runs a unit: units can be significant alone),
    # and a plain workflow
    base: list[Unit] = [("w", f"c{i}", "t", "PPPPPPPP") for i in range(6)]
    cand: list[Unit] = [("w", "c0", "t", "FFFFFFFF")]
    cand += [("w", f"c{i}", "t", "PPPPPPPF") for i in range(1, 6)]
    base.append(("plain", None, "t", "P" * 20))
    cand.append(("plain", None, "t", "P" * 14 + "F" * 6))
    comparison = _compare(tmp_path, base, cand)
    tested = [row for row in comparison.rows if row.tested]
    assert {row.label for row in tested} == {
        "w",
        "plain",
        "w / c0 @ t",
    }
    raw = [row.p_value for row in tested]
    expected = multipletests(raw, method="holm")[1]
    for row, adjusted in zip(tested, expected, strict=True):
        assert row.p_adjusted == pytest.approx(float(adjusted), rel=1e-9)
    unit = next(row for row in comparison.units if row.case == "c0")
    assert unit.p_value == fisher_exact_p(8, 8, 0, 8)
    assert unit.regressed
    # 8/8 -> 7/8 units cannot reach p < 0.05 with Fisher: shown, not tested
    assert all(
        not row.tested and row.p_adjusted is None
        for row in comparison.units
        if row.case != "c0"
    )


def test_improvements_are_shown_not_tested(tmp_path: Path) -> None:
    comparison = _compare(
        tmp_path,
        _one_run_cases("w", "F" * 20 + "P" * 10),
        _one_run_cases("w", "P" * 30),
    )
    (row,) = comparison.workflows
    assert row.difference is not None
    assert row.difference > 0
    assert row.p_value is not None
    assert row.p_value < 0.05
    assert (row.tested, row.p_adjusted, row.regressed) == (False, None, False)


def test_identical_sides_give_p_one_and_test_nothing(tmp_path: Path) -> None:
    units = _one_run_cases("w", "PPFPFPPPFF")
    comparison = _compare(tmp_path, units, units)
    (row,) = comparison.workflows
    assert (row.test, row.p_value, row.difference) == ("mcnemar-exact", 1.0, 0.0)
    assert row.interval is not None
    assert row.interval.low < 0.0 < row.interval.high  # honest, not a point
    assert not any(r.tested for r in comparison.rows)
    assert comparison.same_contract_and_target
    assert comparison.beyond_chance == ()


def test_units_all_moving_alike_use_mcnemar_on_the_cases_directions(
    tmp_path: Path,
) -> None:
    base = [("w", f"c{i}", "t", "PP") for i in range(6)]
    cand = [("w", f"c{i}", "t", "PF") for i in range(6)]
    comparison = _compare(tmp_path, base, cand)
    (row,) = comparison.workflows
    assert row.test == "mcnemar-exact"
    assert "no spread for a t-test" in row.why
    assert row.p_value == pytest.approx(2 / 2**6, rel=1e-12)


def test_units_without_judged_runs_do_not_pair(tmp_path: Path) -> None:
    base = _one_run_cases("w", "PPPPP")
    cand = [("w", "c000", "t", "E"), *_one_run_cases("w", "PPPPP")[1:]]
    comparison = _compare(tmp_path, base, cand)
    (row,) = comparison.workflows
    assert row.pairs == 4


def test_one_target_a_side_pairs_by_case_and_is_no_a_a(tmp_path: Path) -> None:
    comparison = _compare(
        tmp_path,
        _one_run_cases("w", "PPPPPPPPPP", target="openai:old"),
        _one_run_cases("w", "PPPPPPPPPF", target="openai:new"),
    )
    assert comparison.pairing == "workflow-case"
    (row,) = comparison.workflows
    assert row.pairs == 10
    assert (row.baseline_target, row.candidate_target) == ("openai:old", "openai:new")
    # a model change is another target, never a changed contract
    assert row.target_changed
    assert not row.contract_changed
    assert not comparison.same_contract_and_target
    assert "chance" not in comparison_markdown(comparison)


def test_several_targets_pair_by_case_and_target(tmp_path: Path) -> None:
    units = [
        ("w", f"c{i}", target, "PPF"[i % 3] + "P")
        for i in range(6)
        for target in ("a", "b")
    ]
    comparison = _compare(tmp_path, units, units)
    assert comparison.pairing == "workflow-case-target"
    (row,) = comparison.workflows
    assert row.pairs == 12
    # two units per case: cases are the clusters, not units
    assert "over 6 cases" in row.why
    assert {u.label for u in comparison.units} >= {"w / c0 @ a", "w / c0 @ b"}


def test_a_workflow_without_cases_stays_fisher_and_newcombe(tmp_path: Path) -> None:
    comparison = _compare(
        tmp_path, [("w", None, "t", "PPPPF")], [("w", None, "t", "PPFFF")]
    )
    (row,) = comparison.workflows
    assert (row.test, row.interval_method) == ("fisher", "newcombe")
    assert row.why.startswith("one unit a side (no cases)")
    assert comparison.units == ()


def test_a_contract_change_is_said_only_when_the_digest_changed(
    tmp_path: Path,
) -> None:
    units = _one_run_cases("w", "PPPP")
    comparison = _compare(tmp_path, units, units, digests={"w": OTHER_DIGEST})
    (row,) = comparison.workflows
    assert row.contract_changed
    assert not row.target_changed
    assert "(contract changed)" in comparison_markdown(comparison)


def test_an_a_a_compare_names_only_the_rows_beyond_chance(tmp_path: Path) -> None:
    # 3 cases passed only in the baseline, 4 only in the candidate: chance
    base = _one_run_cases("noisy", "PPP" + "FFFF" + "P" * 30 + "FFF")
    cand = _one_run_cases("noisy", "FFF" + "PPPP" + "P" * 30 + "FFF")
    base.append(("broken", None, "t", "P" * 20))
    cand.append(("broken", None, "t", "F" * 20))
    comparison = _compare(tmp_path, base, cand)
    assert comparison.same_contract_and_target
    assert comparison.beyond_chance == ("broken",)
    assert "yet these differ more than chance gives (Holm, two-sided): broken." in (
        comparison_markdown(comparison)
    )


def _target_suite(tmp_path: Path) -> Path:
    units: list[Unit] = [("w", f"c{i:02d}", "a", "P") for i in range(30)]
    units += [("w", f"c{i:02d}", "b", "F" if i < 9 else "P") for i in range(30)]
    units += [("plain", None, "a", "PPPP"), ("plain", None, "b", "PPPF")]
    return write_suite(tmp_path / "matrix", synthetic_suite(units))


def test_two_targets_of_one_suite_compare_unit_by_unit(tmp_path: Path) -> None:
    comparison = compare_targets(_read(_target_suite(tmp_path)), "a", "b")
    assert comparison.pairing == "targets"
    rows = {row.name: row for row in comparison.workflows}
    assert rows["w"].test == "mcnemar-exact"
    assert rows["w"].p_value == pytest.approx(2 / 2**9, rel=1e-12)
    assert rows["w"].regressed
    # the plain workflow is one unit per target: Fisher on that target's runs
    assert (rows["plain"].baseline_judged, rows["plain"].candidate_judged) == (4, 4)
    assert rows["plain"].test == "fisher"
    assert not comparison.same_contract_and_target
    with pytest.raises(WorkflowError, match="no unit ran on target 'c'"):
        compare_targets(_read(_target_suite(tmp_path / "x")), "a", "c")
    with pytest.raises(WorkflowError, match="two different targets"):
        compare_targets(_read(_target_suite(tmp_path / "y")), "a", "a")


def test_the_cli_compares_targets_and_writes_json(tmp_path: Path) -> None:
    suite = _target_suite(tmp_path)
    out = tmp_path / "c.json"
    done = akit(
        "report", "compare", str(suite), "--targets", "a", "b", "--json", str(out)
    )
    assert done.returncode == 8, done.stderr
    assert "regressed: w 30/30 -> 21/30 (mcnemar-exact, p (Holm) 0.0039)" in (
        done.stderr
    )
    data = json.loads(out.read_text("utf-8"))
    assert data["schema"] == "artemiskit.comparison"
    assert data["pairing"] == "targets"
    (row,) = [r for r in data["workflows"] if r["name"] == "w"]
    assert row["test"] == "mcnemar-exact"
    assert row["p"] == pytest.approx(2 / 2**9, rel=1e-12)
    assert row["p_adjusted"] is not None
    assert "McNemar" in row["why"]
    assert row["regressed"] is True
    assert len(data["units"]) == 30
    assert data == json.loads(
        json.dumps(comparison_dict(compare_targets(_read(suite), "a", "b")))
    )


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--targets", "a", "nope"], "no unit ran on target 'nope'"),
        (["OTHER", "--targets", "a", "b"], "give one suite"),
        ([], "give BASELINE and CANDIDATE"),
    ],
)
def test_the_cli_refuses_a_wrong_targets_compare(
    tmp_path: Path, arguments: list[str], said: str
) -> None:
    suite = _target_suite(tmp_path)
    given = [str(suite) if a == "OTHER" else a for a in arguments]
    done = akit("report", "compare", str(suite), *given)
    assert done.returncode == 2
    assert said in done.stderr
    assert "Traceback" not in done.stderr


def test_the_page_and_markdown_say_which_test_and_why(tmp_path: Path) -> None:
    comparison = compare_targets(_read(_target_suite(tmp_path)), "a", "b")
    page = comparison_html(comparison)
    markdown = comparison_markdown(comparison)
    for view in (page, markdown):
        assert "mcnemar-exact" in view
        assert "McNemar&#39;s exact test" in view or "McNemar's exact test" in view
        assert "one unit a side (no cases)" in view
    assert "why this test" in page
    assert "| unit | a | b |" in markdown


def test_a_regressed_label_cannot_drive_the_terminal(tmp_path: Path) -> None:
    hostile = "w\x1b]0;title\x07\u202e"
    units: list[Unit] = [(hostile, None, "t", "P" * 10)]
    base = write_suite(tmp_path / "b", synthetic_suite(units))
    cand = write_suite(
        tmp_path / "c", synthetic_suite([(hostile, None, "t", "F" * 10)])
    )
    done = akit("report", "compare", str(base), str(cand))
    assert done.returncode == 8, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("regressed")]
    assert "\x1b" not in line
    assert "\u202e" not in line
    assert "\\x1b]0;title\\x07\\u202e" in line
