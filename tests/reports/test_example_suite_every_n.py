"""The first demo, at every size: ``akit workflow run examples/suite --repeat N
--output-dir out && akit report out --html r.html --markdown r.md`` exits 0.

`CHAIN` is run as written (each ``&&`` part in turn, stopping at the first that
fails, from a folder where ``examples`` is the repository's) for every N from 1 to
40: ``examples/suite``'s two workflows pass every run, so the suite exits 0 and the
report draws 1/1 to 40/40, whose Wilson interval (10/10, 13/13) once missed its own
estimate and broke the chart. Each N is its own run of the chain; one run with
``--repeat 40`` would not show the other 39 reports.

The workflow that fails by design lives apart, in ``examples/flaky``: its suite
exits 8 from N = 2 (a pass rate below the default ``--min-pass-rate`` 1, the right
verdict), and its report at every pass form (all, one in two, two in three, ...)
still exits 0.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

import pytest

from tests._cli import akit
from tests.reports._evidence import ROOT, suite_json

if TYPE_CHECKING:
    from pathlib import Path

#: The first demo (issue 28; docs/reports.md shows it with N = 10).
CHAIN = (
    "akit workflow run examples/suite --repeat {n} --output-dir out"
    " && akit report out --html r.html --markdown r.md"
)


def _run_chain(chain: str, cwd: Path) -> list[int]:
    """Run ``A && B && ...`` of ``akit`` commands in ``cwd``; the exit codes seen."""
    codes: list[int] = []
    for part in chain.split("&&"):
        program, *arguments = shlex.split(part)
        assert program == "akit"
        done = akit(*arguments, cwd=cwd)
        assert "Traceback" not in done.stderr, done.stderr
        codes.append(done.returncode)
        if done.returncode != 0:
            break
    return codes


@pytest.fixture
def checkout_view(tmp_path: Path) -> Path:
    """A scratch folder whose ``examples`` is the repository's (outputs land here)."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    return tmp_path


@pytest.mark.parametrize("repeat", range(1, 41))
def test_the_first_demo_chain_exits_0(checkout_view: Path, repeat: int) -> None:
    assert _run_chain(CHAIN.format(n=repeat), checkout_view) == [0, 0]
    passes = {
        w["name"]: w["passed"] for w in suite_json(checkout_view / "out")["workflows"]
    }
    assert passes == {"summarize": repeat, "triage": repeat}
    assert (checkout_view / "r.html").read_text("utf-8").count("<svg") >= 5
    markdown = (checkout_view / "r.md").read_text("utf-8")
    assert markdown.startswith("## ArtemisKit report")


#: N where the flaky workflow's pass count takes each form: 1/1, 1/2, 2/3, 3/5 and
#: the sizes whose all-pass interval once broke the chart.
FLAKY_SIZES = (1, 2, 3, 5, 10, 13)


@pytest.mark.parametrize("repeat", FLAKY_SIZES)
def test_the_flaky_example_fails_from_2_and_still_reports(
    checkout_view: Path, repeat: int
) -> None:
    suite = akit(
        *("workflow", "run", "examples/flaky", "--repeat", str(repeat)),
        *("--output-dir", "out", "--quiet"),
        cwd=checkout_view,
    )
    assert suite.returncode == (0 if repeat == 1 else 8), suite.stderr
    (answer,) = suite_json(checkout_view / "out")["workflows"]
    # Repetition r replays variant (r - 1) mod 3; the second variant fails.
    assert answer["passed"] == repeat - (repeat + 1) // 3
    report = akit(
        *("report", "out", "--html", "r.html", "--markdown", "r.md"),
        cwd=checkout_view,
    )
    assert report.returncode == 0, report.stderr
    assert "Traceback" not in report.stderr
    assert (checkout_view / "r.md").read_text("utf-8").startswith("## ArtemisKit")
