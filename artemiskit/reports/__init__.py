"""Reports: offline assessment views of saved suites and records (SPEC 14).

`load_report_input` reads a suite folder, a ``suite.json`` or record files;
`report_markdown` / `report_html` render them, `compare_reports` compares two
suites, with `comparison_markdown` / `comparison_html`. Markdown needs nothing
more; HTML needs the optional extra ``artemiskit[report]`` (Jinja2, matplotlib),
imported only when an HTML view is rendered.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.reports._compare import (
        Comparison as Comparison,
        WorkflowComparison as WorkflowComparison,
        compare_reports as compare_reports,
    )
    from artemiskit.reports._html import (
        INSTALL_HINT as INSTALL_HINT,
        comparison_html as comparison_html,
        report_html as report_html,
        require_report_extra as require_report_extra,
    )
    from artemiskit.reports._inputs import (
        ReportInput as ReportInput,
        load_report_input as load_report_input,
        load_transcripts as load_transcripts,
    )
    from artemiskit.reports._markdown import (
        comparison_markdown as comparison_markdown,
        report_markdown as report_markdown,
    )
    from artemiskit.reports._statistics import (
        fisher_exact_p as fisher_exact_p,
        newcombe_interval as newcombe_interval,
    )

_exports.export_lazily(globals())
