"""The HTML views: Jinja2 templates (autoescaped) with matplotlib charts inlined.

The page is one self-contained file: inline CSS and SVG, no script, no font, no
link to anything outside the file, and a Content-Security-Policy that forbids
every fetch, so it works from ``file://`` with no network at all.
"""

from __future__ import annotations

import functools
import importlib
from collections import Counter
from typing import TYPE_CHECKING, Any

from artemiskit._common._extras import install_hint
from artemiskit._errors import ConfigError
from artemiskit._version import __version__
from artemiskit.reports._views import (
    budget_fractions,
    budget_gauges,
    cause_groups,
    durations,
    run_timeline,
    transcript_steps,
)
from artemiskit.suites import cause_text

if TYPE_CHECKING:
    import jinja2

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


@functools.cache
def _environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("artemiskit.reports", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )


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
    runs = []
    records = []
    for run in workflow["runs"]:
        record = evidence.records.get((name, run["repetition"]))
        steps = None
        if evidence.transcripts is not None:
            found = None if record is None else evidence.transcripts.get(record.run_id)
            steps = [] if found is None else transcript_steps(found)
        if record is not None:
            records.append(record)
        runs.append(
            {
                "data": run,
                "anchor": f"run-{index}-{run['repetition']}",
                "verdict": run["verdict"],
                "why": None if run["verdict"] == "passed" else cause_text(run["why"]),
                "record": record,
                "timeline": [] if record is None else run_timeline(record),
                "gauges": [] if record is None else budget_gauges(record),
                "transcript_steps": steps,
            }
        )
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
        "runs": runs,
        "requirements": requirements,
        "causes": [{**c, "text": cause_text(c)} for c in workflow["causes"]],
        "durations": durations([r["duration_ms"] for r in workflow["runs"]]),
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
    """The HTML report of a suite or a set of records: overview, workflows, runs.

    Transcripts appear only when ``evidence`` holds them (``--transcripts``),
    under a banner saying the page holds sensitive data.

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
    anchors = {
        (view["data"]["name"], run["data"]["repetition"]): run["anchor"]
        for view in workflows
        for run in view["runs"]
    }
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            kind=evidence.kind,
            sources=evidence.sources,
            suite=suite,
            totals=suite["totals"],
            workflows=workflows,
            causes=[
                {
                    "group": group,
                    "links": [
                        (name, number, anchors[(name, number)])
                        for name, number in group.runs
                    ],
                }
                for group in cause_groups(suite)
            ],
            sensitive=evidence.transcripts is not None,
            version=__version__,
            charts={
                "pass_rate": _charts.pass_rate_chart(suite["workflows"], "pass-rate"),
                "pass_hat_k": _charts.pass_hat_k_chart(
                    suite["workflows"], "pass-hat-k"
                ),
            },
        )
    )


def comparison_html(comparison: Comparison) -> str:
    """The HTML view of a comparison.

    Raises:
        ConfigError: The ``report`` extra is not installed (exit 1).
    """
    require_report_extra()
    from artemiskit.reports import _charts

    return (
        _environment()
        .get_template("compare.html.j2")
        .render(
            comparison=comparison,
            baseline=comparison.baseline,
            candidate=comparison.candidate,
            chart_svg=_charts.comparison_chart(comparison, "compare"),
            version=__version__,
        )
    )
