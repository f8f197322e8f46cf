"""Reports: offline assessment views of saved suites and records (SPEC 14).

`load_report_input` reads a suite folder, a ``suite.json`` or record files;
`report_markdown` / `report_html` render them, `compare_reports` compares two
suites and `compare_targets` two targets of one suite, with `comparison_markdown`,
`comparison_html` and `comparison_dict`. Markdown needs nothing more; HTML needs
the optional extra ``artemiskit[report]`` (Jinja2, matplotlib), imported only
when an HTML view is rendered.
"""

from __future__ import annotations

from artemiskit._common._statistics import fisher_exact_p, newcombe_interval
from artemiskit.reports._compare import (
    Comparison,
    ComparisonRow,
    compare_reports,
    compare_targets,
    comparison_dict,
)
from artemiskit.reports._html import (
    INSTALL_HINT,
    comparison_html,
    report_html,
    require_report_extra,
)
from artemiskit.reports._inputs import ReportInput, load_report_input, load_transcripts
from artemiskit.reports._markdown import comparison_markdown, report_markdown

__all__ = [
    "Comparison",
    "ComparisonRow",
    "INSTALL_HINT",
    "ReportInput",
    "compare_reports",
    "compare_targets",
    "comparison_dict",
    "comparison_html",
    "comparison_markdown",
    "fisher_exact_p",
    "load_report_input",
    "load_transcripts",
    "newcombe_interval",
    "report_html",
    "report_markdown",
    "require_report_extra",
]
