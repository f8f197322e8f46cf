"""The HTML views: Jinja2 templates (autoescaped) with matplotlib charts inlined.

Each page is one self-contained file: inline CSS, SVG and (for the report) the
viewer script with its data, no font, no link to anything outside the file, and
a Content-Security-Policy of ``default-src 'none'`` that allows only the inline
style sheet and script by their hashes, so it works from ``file://`` with no
network at all (`artemiskit.reports._page`).
"""

from __future__ import annotations

import importlib
from collections import Counter
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from artemiskit._common._extras import install_hint
from artemiskit._errors import ConfigError
from artemiskit.reports._inputs import run_key
from artemiskit.reports._page import render_page
from artemiskit.reports._viewer import embedded_data, viewer_data
from artemiskit.reports._views import (
    budget_fractions,
    cause_groups,
    durations,
    shown_ks,
    unit_grid,
)
from artemiskit.suites import cause_text

if TYPE_CHECKING:
    from artemiskit.records import ExecutionRecord
    from artemiskit.reports._compare import Comparison
    from artemiskit.reports._inputs import ReportInput

__all__ = ["INSTALL_HINT", "comparison_html", "report_html", "require_report_extra"]

INSTALL_HINT = install_hint("report")
_EXTRA = ("jinja2", "markupsafe", "matplotlib")


def require_report_extra() -> None:
    """Check that the ``report`` extra (Jinja2, matplotlib) is installed.

    Raises:
        ConfigError: A package of the extra is missing (exit 1), with the hint.
    """
    for name in _EXTRA:
        try:
            importlib.import_module(name)
        except ImportError:
            raise ConfigError(
                f"HTML reports need the `report` extra ({name} is not installed): "
                f"{INSTALL_HINT}",
                reason="report_extra_missing",
            ) from None


def _faults(records: list[ExecutionRecord]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for record in records:
        counts["injected"] += record.faults.injected
        counts["retries"] += record.faults.retries
        counts["recovered"] += record.faults.recovered_calls
        counts["exhausted"] += record.faults.exhausted_calls
        counts["denials"] += record.policy.denials
    return {
        k: counts[k]
        for k in ("injected", "retries", "recovered", "exhausted", "denials")
    }


def _workflow_view(
    evidence: ReportInput, index: int, workflow: dict[str, Any]
) -> dict[str, Any]:
    from artemiskit.reports import _charts

    name = workflow["name"]
    records = [
        record
        for run in workflow["runs"]
        if (record := evidence.records.get(run_key(name, run))) is not None
    ]
    fractions = budget_fractions(evidence, name)
    requirements = [
        {
            **r,
            "rate": None
            if r["passed"] + r["failed"] == 0
            else r["passed"] / (r["passed"] + r["failed"]),
        }
        for r in workflow["requirements"]
    ]
    return {
        "index": index,
        "data": workflow,
        "requirements": requirements,
        "ks": [str(k) for k in shown_ks(len(workflow["pass_hat_k"]))],
        "causes": [{**c, "text": cause_text(c)} for c in workflow["causes"]],
        "durations": durations([r["duration_ms"] for r in workflow["runs"]]),
        "grid": unit_grid(evidence.suite, name),
        "faults": _faults(records),
        "charts": {
            "failure_reasons": _charts.failure_reasons_chart(
                workflow["failure_reasons"], f"reasons-{index}"
            )
            if workflow["failure_reasons"]
            else None,
            "budget": _charts.budget_chart(fractions, f"budget-{index}")
            if fractions
            else None,
            "durations": _charts.durations_chart(
                workflow["runs"], f"durations-{index}"
            ),
        },
    }


def report_html(evidence: ReportInput) -> str:
    """The interactive report of a suite or a set of records (SPEC 21).

    One self-contained page: the overview and each workflow are HTML that reads
    without JavaScript; the Runs, Causes, Units and run views are drawn by the
    inlined viewer script from the embedded run data. Transcripts appear only
    when ``evidence`` holds them (``--transcripts``), under a banner saying the
    page holds sensitive data.

    Raises:
        ConfigError: The ``report`` extra is not installed (exit 1).
    """
    require_report_extra()
    from artemiskit.reports import _charts

    suite = evidence.suite
    workflows = [
        _workflow_view(evidence, index, workflow)
        for index, workflow in enumerate(suite["workflows"], start=1)
    ]
    encoding, text = embedded_data(viewer_data(evidence))
    return render_page(
        "report.html.j2",
        script=True,
        kind=evidence.kind,
        sources=evidence.sources,
        suite=suite,
        totals=suite["totals"],
        workflows=workflows,
        causes=[
            {"group": group, "fragment": quote(group.text, safe="")}
            for group in cause_groups(suite)
        ],
        sensitive=evidence.transcripts is not None,
        data_encoding=encoding,
        data_text=text,
        charts={
            "pass_rate": _charts.pass_rate_chart(suite["workflows"], "pass-rate"),
            "pass_hat_k": _charts.pass_hat_k_chart(suite["workflows"], "pass-hat-k"),
        },
    )


def comparison_html(comparison: Comparison) -> str:
    """The HTML view of a comparison: regressions first, then the rest.

    Raises:
        ConfigError: The ``report`` extra is not installed (exit 1).
    """
    require_report_extra()
    from artemiskit.reports import _charts
    from artemiskit.reports._markdown import (
        MAX_UNIT_ROWS,
        comparison_rule,
        one_side_only,
        verdict_text,
    )

    ordered = sorted(
        comparison.workflows,
        key=lambda w: (
            not w.regressed,
            w.p_adjusted if w.p_adjusted is not None else 2.0,
            w.name,
        ),
    )
    return render_page(
        "compare.html.j2",
        comparison=comparison,
        rows=ordered,
        verdict=verdict_text(comparison),
        rule=comparison_rule(comparison),
        units=comparison.units[:MAX_UNIT_ROWS],
        one_side=one_side_only(comparison),
        baseline=comparison.baseline,
        candidate=comparison.candidate,
        chart_svg=_charts.comparison_chart(comparison, "compare"),
    )
