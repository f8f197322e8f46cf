r"""Charts drawn by matplotlib into inline SVG (the ``report`` extra).

Only the object API is used (no pyplot, no global backend): each chart is a
`Figure` saved by the SVG backend with text drawn as paths (no font is needed by
the browser, none is fetched), no date in the metadata, and a fixed hash salt per
chart, so the same evidence always gives the same bytes.

No string from a record is ever interpreted by matplotlib: labels are shortened to
one line, math text is off (``$``, ``\\``, ``_`` and ``^`` are just characters),
and legends get their labels explicitly (matplotlib would hide a label that begins
with ``_``). Error bars never go negative, whatever a saved interval says, and a
chart that still fails to draw raises a typed error naming the chart, never the
plotting library's exception.
"""

from __future__ import annotations

import functools
import io
import re
from typing import TYPE_CHECKING, Any, ParamSpec, cast

from markupsafe import Markup, escape

from artemiskit._errors import FileAccessError
from artemiskit.reports._views import shown_ks

if TYPE_CHECKING:
    import contextlib
    from collections.abc import Callable, Iterable, Sequence

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from artemiskit.reports._compare import Comparison

__all__ = [
    "budget_chart",
    "case_latency_chart",
    "case_outcome_chart",
    "comparison_chart",
    "durations_chart",
    "failure_reasons_chart",
    "pass_hat_k_chart",
    "pass_rate_chart",
]

MAX_ITEMS = 40
#: The most runs a chart marks one by one.
MAX_MARKS = 200
_MAX_LABEL = 32
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*", "h", "p")
_PASS = "#1b7837"
_FAIL = "#b2182b"
_NEUTRAL = "#2c5d8f"
_STYLE: dict[Any, Any] = {
    "svg.fonttype": "path",
    "text.parse_math": False,
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


_P = ParamSpec("_P")


def _drawn(title: str) -> Callable[[Callable[_P, Markup]], Callable[_P, Markup]]:
    """Turn any failure of matplotlib while drawing a chart into a typed error."""

    def decorate(draw: Callable[_P, Markup]) -> Callable[_P, Markup]:
        @functools.wraps(draw)
        def drawing(*args: _P.args, **kwargs: _P.kwargs) -> Markup:
            try:
                return draw(*args, **kwargs)
            except Exception as exc:  # matplotlib raises many kinds; none escapes
                raise FileAccessError(
                    f"the {title} chart could not be drawn ({type(exc).__name__})",
                    reason="chart_not_drawn",
                ) from exc

        return drawing

    return decorate


def _spans(
    centres: Sequence[float], lows: Sequence[float], highs: Sequence[float]
) -> list[list[float]]:
    """Error-bar lengths below and above each centre, never negative."""
    return [
        [max(0.0, c - low) for c, low in zip(centres, lows, strict=True)],
        [max(0.0, high - c) for c, high in zip(centres, highs, strict=True)],
    ]


def label(value: object) -> str:
    """A chart label: one line, at most 32 characters."""
    shown = " ".join(str(value).split())
    return shown if len(shown) <= _MAX_LABEL else shown[: _MAX_LABEL - 1] + "…"


def _style() -> contextlib.AbstractContextManager[None]:
    import matplotlib

    return matplotlib.rc_context(_STYLE)


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    return figure, figure.add_subplot()


def _svg(figure: Figure, key: str, title: str) -> Markup:
    """The figure as an inline ``<svg>`` element with a title for screen readers."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({**_STYLE, "svg.hashsalt": f"artemiskit-{key}"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    source = buffer.getvalue()
    start = source.index("<svg")
    # The metadata block only names its RDF vocabularies; the page needs none.
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", source[start:], flags=re.S)
    # Its one style element (line joins and caps) is in the page's style sheet:
    # the page's policy allows that sheet alone, by its hash.
    svg = re.sub(r"\s*<defs>\s*<style[^>]*>.*?</style>\s*</defs>", "", svg, flags=re.S)
    ident = "chart-" + re.sub(r"[^a-z0-9-]", "-", key.lower())
    svg = svg.replace(
        "<svg ", f'<svg role="img" aria-labelledby="{ident}-title" class="chart" ', 1
    )
    head, _, rest = svg.partition(">")
    return Markup(f'{head}><title id="{ident}-title">{escape(title)}</title>{rest}')


def _integer_ticks(axes: Axes) -> None:
    from matplotlib.ticker import MaxNLocator

    axes.xaxis.set_major_locator(MaxNLocator(integer=True))


def _top_down(axes: Axes, count: int) -> None:
    """Rows from the top, the first and last a half row from the frame."""
    axes.set_ylim(max(count, 1) - 0.5, -0.5)


def _rows(count: int) -> float:
    return 0.9 + 0.32 * max(count, 1)


@_drawn("pass rate")
def pass_rate_chart(workflows: Sequence[dict[str, Any]], key: str) -> Markup:
    """Pass rate per workflow with its 95% Wilson interval."""
    shown = [w for w in workflows if w["pass_rate"] is not None][:MAX_ITEMS]
    with _style():
        figure, axes = _figure(6.4, _rows(len(shown)))
        names = [label(w["name"]) for w in shown]
        rates = [w["pass_rate"] for w in shown]
        intervals = [w["pass_rate_interval"] for w in shown]
        positions = list(range(len(shown)))
        axes.errorbar(
            rates,
            positions,
            xerr=_spans(
                rates, [i["low"] for i in intervals], [i["high"] for i in intervals]
            ),
            fmt="o",
            color=_NEUTRAL,
            ecolor="#555555",
            capsize=4,
        )
        axes.set_yticks(positions, names)
        _top_down(axes, len(names))
        axes.set_xlim(-0.02, 1.02)
        axes.set_xlabel("pass rate (dot) and 95% interval (bar)")
        axes.xaxis.set_major_formatter("{x:.0%}")
        axes.grid(axis="x", color="#dddddd")
        return _svg(figure, key, "Pass rate per workflow with 95% Wilson interval")


@_drawn("pass^k")
def pass_hat_k_chart(workflows: Sequence[dict[str, Any]], key: str) -> Markup:
    """The pass^k curve of each workflow: the chance that k runs all pass."""
    shown = [w for w in workflows if w["pass_hat_k"]][: len(_MARKERS)]
    with _style():
        figure, axes = _figure(6.4, 3.2)
        lines = []
        for number, workflow in enumerate(shown):
            ks = shown_ks(len(workflow["pass_hat_k"]))
            lines += axes.plot(
                ks,
                [workflow["pass_hat_k"][str(k)] for k in ks],
                marker=_MARKERS[number],
            )
        axes.set_ylim(-0.02, 1.02)
        axes.set_xlabel("k (runs that must all pass)")
        axes.set_ylabel("pass^k")
        axes.yaxis.set_major_formatter("{x:.0%}")
        _integer_ticks(axes)
        axes.grid(color="#dddddd")
        if shown:
            names = [label(workflow["name"]) for workflow in shown]
            axes.legend(lines, names, loc="best", fontsize=8)
        return _svg(figure, key, "pass^k curve per workflow")


@_drawn("failure reasons")
def failure_reasons_chart(reasons: dict[str, int], key: str) -> Markup:
    """How many runs failed for each reason code."""
    shown = sorted(reasons.items(), key=lambda item: (-item[1], item[0]))[:MAX_ITEMS]
    with _style():
        figure, axes = _figure(6.4, _rows(len(shown)))
        positions = list(range(len(shown)))
        axes.barh(positions, [count for _, count in shown], color=_FAIL, hatch="//")
        axes.set_yticks(positions, [label(code) for code, _ in shown])
        _top_down(axes, len(shown))
        axes.set_xlabel("runs")
        _integer_ticks(axes)
        return _svg(figure, key, "Failure reasons: runs per reason code")


@_drawn("budget use")
def budget_chart(fractions: dict[str, list[float]], key: str) -> Markup:
    """Each run's budget use as a fraction of the limit, per dimension."""
    names = [name for name in fractions if fractions[name]]
    with _style():
        figure, axes = _figure(6.4, _rows(len(names)) + 0.4)
        positions = list(range(len(names)))
        # A tick per run (and a point per outlier) only while the chart stays
        # small: a page of 100,000 runs must not carry 400,000 chart marks.
        few = all(len(fractions[name]) <= MAX_MARKS for name in names)
        axes.boxplot(
            [fractions[name] for name in names],
            positions=positions,
            orientation="horizontal",
            widths=0.5,
            showfliers=few,
        )
        for position, name in zip(positions, names, strict=True):
            values = fractions[name]
            if few:
                axes.plot(values, [position] * len(values), "|", color=_NEUTRAL, ms=12)
        axes.axvline(1.0, color=_FAIL, linestyle="--", label="limit")
        axes.set_yticks(positions, names)
        _top_down(axes, len(names))
        axes.xaxis.set_major_formatter("{x:.0%}")
        axes.set_xlabel(
            "use as a share of the declared limit"
            + (" (one tick per run)" if few else "")
        )
        axes.legend(loc="lower right", fontsize=8)
        return _svg(figure, key, "Budget use per dimension across runs")


@_drawn("durations")
def durations_chart(runs: Sequence[dict[str, Any]], key: str) -> Markup:
    """How run durations are distributed, stacked by verdict (colour and hatch).

    A histogram costs the same for 10 runs as for 100,000 (no mark per run).
    """
    groups = (
        ("passed", _PASS, ""),
        ("failed", _FAIL, "//"),
        (None, "#777777", ".."),
    )
    values = [
        [r["duration_ms"] for r in runs if _verdict(r) == v] for v, _, _ in groups
    ]
    with _style():
        figure, axes = _figure(6.4, 2.4)
        kept = [n for n, found in enumerate(values) if found]
        if kept:
            _, _, patches = axes.hist(
                [values[n] for n in kept],
                bins=20,
                stacked=True,
                color=[groups[n][1] for n in kept],
                label=[groups[n][0] or "errored or unavailable" for n in kept],
            )
            # One dataset gives its bars; several give a list of them.
            containers = patches if isinstance(patches, list) else [patches]
            for n, bars in zip(kept, containers, strict=True):
                for bar in cast("Iterable[Any]", bars):
                    bar.set_hatch(groups[n][2])
            axes.legend(loc="upper right", fontsize=8)
        axes.set_xlabel("duration (ms)")
        axes.set_ylabel("runs")
        axes.set_xlim(left=0)
        axes.grid(axis="y", color="#dddddd")
        return _svg(figure, key, "Durations of the runs, by verdict")


def _verdict(run: dict[str, Any]) -> str | None:
    verdict: str = run["verdict"]
    return verdict if verdict in ("passed", "failed") else None


@_drawn("pass-rate difference")
def comparison_chart(comparison: Comparison, key: str) -> Markup:
    """Each workflow's pass-rate difference with its 95% interval.

    Newcombe's for independent runs, the paired t interval for paired rows.
    """
    shown = [w for w in comparison.workflows if w.interval is not None][:MAX_ITEMS]
    with _style():
        figure, axes = _figure(6.4, _rows(len(shown)))
        for position, w in enumerate(shown):
            assert w.interval is not None
            assert w.difference is not None
            axes.errorbar(
                [w.difference],
                [position],
                xerr=_spans([w.difference], [w.interval.low], [w.interval.high]),
                fmt="X" if w.regressed else "o",
                color=_FAIL if w.regressed else _NEUTRAL,
                ecolor="#555555",
                capsize=4,
                ms=9 if w.regressed else 6,
            )
        axes.set_yticks(
            list(range(len(shown))),
            [label(w.name) + (" (regressed)" if w.regressed else "") for w in shown],
        )
        _top_down(axes, len(shown))
        axes.axvline(0.0, color="#333333", linewidth=0.8)
        axes.set_xlim(-1.02, 1.02)
        axes.xaxis.set_major_formatter("{x:+.0%}")
        axes.set_xlabel("candidate minus baseline pass rate, 95% interval")
        axes.grid(axis="x", color="#dddddd")
        return _svg(figure, key, "Pass-rate difference per workflow")


@_drawn("cases")
def case_outcome_chart(passed: int, failed: int, key: str) -> Markup:
    """A prompt-response run's passed and failed cases (SPEC 17)."""
    with _style():
        figure, axes = _figure(4.2, 2.6)
        axes.bar(["passed", "failed"], [passed, failed], color=[_PASS, _FAIL])
        axes.set_ylabel("cases")
        _integer_ticks(axes)
        return _svg(figure, key, "Cases passed and failed")


@_drawn("latency")
def case_latency_chart(cases: Sequence[tuple[str, float, bool]], key: str) -> Markup:
    """Each case's latency (ms), passed cases green and failed ones red hatched."""
    shown = list(cases)[:MAX_MARKS]
    with _style():
        figure, axes = _figure(5.2, 2.6)
        positions = list(range(len(shown)))
        bars = axes.bar(
            positions,
            [latency for _, latency, _ in shown],
            color=[_PASS if ok else _FAIL for _, _, ok in shown],
        )
        for bar, (_, _, ok) in zip(bars, shown, strict=True):
            bar.set_hatch("" if ok else "//")
        axes.set_xticks(
            positions,
            [label(name) for name, _, _ in shown],
            rotation=45,
            ha="right",
            fontsize=7,
        )
        axes.set_ylabel("latency (ms)")
        return _svg(figure, key, "Latency per case (ms)")
