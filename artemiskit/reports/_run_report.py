"""The HTML report of a stored prompt-response run (SPEC 17), in the shared look.

The page comes from the one renderer of every report (`render_page`, the shared
style sheet and Content-Security-Policy) with charts drawn like the workflow
report's. It shows prompts and responses (what the manifest holds), under a
banner that says so; it has no script.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from artemiskit._common._extras import install_hint
from artemiskit._errors import UnsupportedError
from artemiskit.prompt_response._exports import printable_text
from artemiskit.prompt_response._js import to_fixed
from artemiskit.prompt_response._pricing import format_cost
from artemiskit.prompt_response._summary import format_duration
from artemiskit.reports._page import render_page

if TYPE_CHECKING:
    from artemiskit.prompt_response._manifest import RunManifest

__all__ = ["REPORT_INSTALL_HINT", "render_run_report"]

REPORT_INSTALL_HINT = install_hint("report")


def render_run_report(manifest: RunManifest) -> str:
    """The HTML report of a stored prompt-response run (``akit report RUN_ID``).

    Raises:
        UnsupportedError: jinja2 or matplotlib is not installed (the hint says
            ``pip install 'artemiskit[report]'``).
    """
    try:
        import jinja2  # noqa: F401
        import matplotlib  # noqa: F401
    except ImportError:
        raise UnsupportedError(
            f"HTML reports need the report extra: {REPORT_INSTALL_HINT}",
            reason="report_extra_missing",
        ) from None
    from artemiskit.reports import _charts

    rate = manifest.metrics.success_rate
    resolved = []
    if manifest.resolved_config is not None:
        config = manifest.resolved_config
        resolved = [
            (key, value)
            for key, value in (
                ("provider", config.provider),
                ("model", config.model),
                ("base_url", config.base_url),
                ("timeout", config.timeout),
            )
            if value is not None
        ]
    return printable_text(
        render_page(
            "run_report.html.j2",
            m=manifest,
            rate=to_fixed(rate * 100, 1),
            rate_class="good" if rate >= 0.9 else "fair" if rate >= 0.7 else "bad",
            cost=format_cost(manifest.metrics.cost.total_usd)
            if manifest.metrics.cost
            else None,
            duration=format_duration(manifest.duration_ms),
            outcome_chart=_charts.case_outcome_chart(
                manifest.metrics.passed_cases, manifest.metrics.failed_cases, "cases"
            ),
            latency_chart=_charts.case_latency_chart(
                [(case.id, case.latency_ms, case.ok) for case in manifest.cases],
                "latency",
            ),
            scores=[to_fixed(case.score * 100, 1) for case in manifest.cases],
            prompts=[
                case.prompt
                if isinstance(case.prompt, str)
                else json.dumps(case.prompt, indent=2, ensure_ascii=False)
                for case in manifest.cases
            ],
            expected=[json.dumps(case.expected, indent=2) for case in manifest.cases],
            resolved=resolved,
        )
    )
