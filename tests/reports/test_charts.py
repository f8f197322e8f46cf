"""Charts: record strings are never interpreted; a failed chart costs nothing else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.axes
import pytest
from click.testing import CliRunner

from artemiskit import FileAccessError
from artemiskit.reports import _charts
from artemiskit_cli._main import cli

#: Names matplotlib would read as math text, escapes, sub/superscripts or (a
#: leading underscore) a label to hide from the legend.
LITERAL_NAMES = ["$x$", "$\\frac{1}{0}$", "a\\b", "x_1^2", "_hidden", "$", "^_^"]


def _workflow(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "pass_rate": 0.5,
        "pass_rate_interval": {"low": 0.2, "high": 0.8},
        "pass_hat_k": {"1": 0.5, "2": 0.2},
    }


@pytest.mark.parametrize("name", LITERAL_NAMES)
def test_record_strings_are_drawn_as_plain_text(name: str) -> None:
    # Math text draws an oblique glyph for `x`; plain text never uses one.
    charts = [
        _charts.pass_rate_chart([_workflow(name)], "rate"),
        _charts.pass_hat_k_chart([_workflow(name)], "hat"),
        _charts.failure_reasons_chart({name: 2}, "reasons"),
    ]
    for svg in charts:
        assert "Oblique" not in svg
    # A label beginning with `_` keeps its legend entry (filterwarnings=error
    # turns matplotlib's "no artists with labels" warning into a failure too).
    assert 'id="legend_1"' in charts[1]


def test_an_interval_missing_its_estimate_draws_no_negative_bar() -> None:
    workflow = {**_workflow("w"), "pass_rate": 1.0}
    workflow["pass_rate_interval"] = {"low": 0.7, "high": 0.9999999999999998}
    assert "<svg" in _charts.pass_rate_chart([workflow], "rate")


def test_a_chart_that_fails_is_a_typed_error_naming_the_chart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise ValueError("matplotlib refused")

    monkeypatch.setattr(matplotlib.axes.Axes, "errorbar", refuse)
    with pytest.raises(
        FileAccessError, match=r"the pass rate chart could not be drawn \(ValueError\)"
    ):
        _charts.pass_rate_chart([_workflow("w")], "rate")


def test_a_failed_chart_still_writes_the_markdown(
    example_suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise ValueError("'xerr' must not contain negative values")

    monkeypatch.setattr(matplotlib.axes.Axes, "errorbar", refuse)
    html, markdown = tmp_path / "r.html", tmp_path / "r.md"
    done = CliRunner().invoke(
        cli,
        [
            "report",
            str(example_suite),
            "--html",
            str(html),
            "--markdown",
            str(markdown),
        ],
    )
    assert done.exit_code == 1, done.output
    assert isinstance(done.exception, SystemExit)
    assert "error: the pass rate chart could not be drawn (ValueError)" in done.stderr
    assert "Traceback" not in done.output
    assert not html.exists()
    assert markdown.read_text("utf-8").startswith("## ArtemisKit report")
    assert f"markdown report: {markdown}" in done.stderr
