"""The first demo, at every size: ``akit workflow run examples/suite --repeat N
--output-dir out && akit report out --html r.html --markdown r.md`` exits 0.

Repetition r of the example's flaky workflow replays variant (r - 1) mod 3, so
over N = 1..40 its pass count takes every form (all passed at N = 1, one in two
at N = 2, ...) while the other two pass every run: 10/10, 13/13 and the like,
whose Wilson interval once missed its own estimate and broke the chart. The
flaky workflow's pass rate is at least 1/2 at every N, so ``--min-pass-rate
0.5`` makes the suite itself exit 0 too (with the default 1.0 it exits 8 by
design from N = 2). Run in-process through the CLI's click entry point.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from artemiskit_cli._main import cli
from tests.reports._evidence import ROOT, suite_json


@pytest.mark.parametrize("repeat", range(1, 41))
def test_run_then_report_exits_0(tmp_path: Path, repeat: int) -> None:
    out = tmp_path / "out"
    runner = CliRunner()
    suite = runner.invoke(
        cli,
        [
            *("workflow", "run", str(ROOT / "examples" / "suite")),
            *("--repeat", str(repeat), "--output-dir", str(out)),
            *("--min-pass-rate", "0.5", "--quiet"),
        ],
    )
    assert suite.exit_code == 0, suite.output
    html, markdown = tmp_path / "r.html", tmp_path / "r.md"
    report = runner.invoke(
        cli, ["report", str(out), "--html", str(html), "--markdown", str(markdown)]
    )
    assert report.exit_code == 0, report.output
    assert "Traceback" not in report.output
    passes = {w["name"]: w["passed"] for w in suite_json(out)["workflows"]}
    assert passes == {
        "answer": repeat - (repeat + 1) // 3,
        "summarize": repeat,
        "triage": repeat,
    }
    assert html.read_text("utf-8").count("<svg") >= 5
    assert markdown.read_text("utf-8").startswith("## ArtemisKit report")
