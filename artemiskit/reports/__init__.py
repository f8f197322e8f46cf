"""Reports: offline assessment views of saved suites and records (SPEC 14).

`load_report_input` reads a suite folder, a ``suite.json`` or record files;
`report_markdown` / `report_html` render them, `compare_reports` compares two
suites, with `comparison_markdown` / `comparison_html`; `render_run_report` is
the page of a stored prompt-response run, in the same look. Markdown needs nothing
more; HTML needs the optional extra ``artemiskit[report]`` (Jinja2, matplotlib),
imported only when an HTML view is rendered.
"""

from __future__ import annotations

from artemiskit.reports._compare import Comparison, WorkflowComparison, compare_reports
from artemiskit.reports._html import (
    INSTALL_HINT,
    comparison_html,
    report_html,
    require_report_extra,
)
from artemiskit.reports._inputs import ReportInput, load_report_input, load_transcripts
from artemiskit.reports._markdown import comparison_markdown, report_markdown
from artemiskit.reports._run_report import REPORT_INSTALL_HINT, render_run_report
from artemiskit.reports._statistics import fisher_exact_p, newcombe_interval

__all__ = [
    "Comparison",
    "INSTALL_HINT",
    "REPORT_INSTALL_HINT",
    "ReportInput",
    "WorkflowComparison",
    "compare_reports",
    "comparison_html",
    "comparison_markdown",
    "fisher_exact_p",
    "load_report_input",
    "load_transcripts",
    "newcombe_interval",
    "render_run_report",
    "report_html",
    "report_markdown",
    "require_report_extra",
]
