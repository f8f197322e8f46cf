"""What a chart draws: its size, its labels and ticks, its title and its id."""

from __future__ import annotations

import re

from artemiskit.reports import _charts


def _texts(svg: str) -> list[str]:
    """The texts drawn (as paths), in order: matplotlib names each in a comment."""
    return re.findall(r"<!-- (.*?) -->", svg)


def test_labels_are_one_line_of_at_most_32_characters() -> None:
    assert _charts.label("x" * 32) == "x" * 32
    assert _charts.label("x" * 33) == "x" * 31 + "…"
    assert _charts.label(" a \n\t b ") == "a b"
    assert _charts.label(7) == "7"


def test_a_chart_is_an_inline_svg_with_its_title_first_and_a_stable_id() -> None:
    svg = _charts.failure_reasons_chart({"timeout": 1, "x": 1}, "Reasons One")
    assert svg.startswith(
        '<svg role="img" aria-labelledby="chart-reasons-one-title" class="chart" '
    )
    head, _, rest = svg.partition(">")
    assert rest.startswith(
        '<title id="chart-reasons-one-title">'
        "Failure reasons: runs per reason code</title>"
    )
    assert svg.count("<svg") == 1
    # No metadata block and no style element: the page's policy allows only its
    # own style sheet.
    assert "<metadata" not in svg
    assert "<style" not in svg
    assert 'width="460.8pt"' in head


def test_a_bar_chart_is_a_row_high_per_item_and_counts_in_whole_runs() -> None:
    two = _charts.failure_reasons_chart({"timeout": 1, "x": 1}, "r")
    # 0.9 inch of frame and 0.32 inch per row, at 72 points an inch.
    assert 'height="110.88pt"' in two.partition(">")[0]
    none = _charts.failure_reasons_chart({}, "r")
    assert 'height="87.84pt"' in none.partition(">")[0]
    assert _texts(two) == ["0", "1", "runs", "timeout", "x"]


def test_durations_are_stacked_by_verdict_with_a_legend() -> None:
    runs = [
        {"duration_ms": 5, "verdict": "passed"},
        {"duration_ms": 7, "verdict": "failed"},
        {"duration_ms": 9, "verdict": "errored"},
        {"duration_ms": 9, "verdict": "unavailable"},
    ]
    svg = _charts.durations_chart(runs, "d")
    legend = _texts(svg)[-3:]
    assert legend == ["passed", "failed", "errored or unavailable"]
    only_passed = _charts.durations_chart(runs[:1], "d")
    assert "failed" not in _texts(only_passed)
    assert "errored or unavailable" not in _texts(only_passed)
