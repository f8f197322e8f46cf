"""The HTML report of a stored prompt-response run (optional extra ``report``).

One self-contained page from a Jinja2 template with autoescaping, charts drawn by
matplotlib into inline SVG; no script, no font or file from the network. The page
shows prompts and responses (what the manifest holds), under a banner that says so.
jinja2 and matplotlib are imported only here, on first use.
"""

from __future__ import annotations

import io
import json
from importlib import resources
from typing import TYPE_CHECKING, Any

from artemiskit._common._extras import install_hint
from artemiskit._errors import UnsupportedError
from artemiskit.prompt_response._exports import printable_text
from artemiskit.prompt_response._js import to_fixed
from artemiskit.prompt_response._pricing import format_cost
from artemiskit.prompt_response._summary import format_duration

if TYPE_CHECKING:
    from artemiskit.prompt_response._manifest import RunManifest

__all__ = ["REPORT_INSTALL_HINT", "render_run_report"]

REPORT_INSTALL_HINT = install_hint("report")
_TEMPLATE = "run_report.html.j2"


def _svg(figure: Any) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _charts(manifest: RunManifest) -> tuple[str, str]:
    import matplotlib

    matplotlib.use("Agg", force=True)
    # Case ids are drawn as they are: never parsed as math text (`$x$`).
    with matplotlib.rc_context({"text.parse_math": False}):
        return _drawn(manifest)


def _drawn(manifest: RunManifest) -> tuple[str, str]:
    from matplotlib.figure import Figure

    outcome = Figure(figsize=(4.2, 2.6))
    axes = outcome.subplots()
    counts = [manifest.metrics.passed_cases, manifest.metrics.failed_cases]
    axes.bar(["passed", "failed"], counts, color=["#1b7f3b", "#b3261e"])
    axes.set_title("Cases")
    axes.set_ylabel("cases")
    latency = Figure(figsize=(5.2, 2.6))
    axes = latency.subplots()
    ids = [case.id for case in manifest.cases]
    axes.bar(
        range(len(ids)),
        [case.latency_ms for case in manifest.cases],
        color=["#1b7f3b" if case.ok else "#b3261e" for case in manifest.cases],
    )
    axes.set_xticks(range(len(ids)), ids, rotation=45, ha="right", fontsize=7)
    axes.set_title("Latency per case (ms)")
    return _svg(outcome), _svg(latency)


def render_run_report(manifest: RunManifest) -> str:
    """The HTML report of ``manifest``.

    Raises:
        UnsupportedError: jinja2 or matplotlib is not installed (the hint says
            ``pip install 'artemiskit[report]'``).
    """
    try:
        import jinja2
        import matplotlib  # noqa: F401
    except ImportError:
        raise UnsupportedError(
            f"HTML reports need the report extra: {REPORT_INSTALL_HINT}",
            reason="report_extra_missing",
        ) from None
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    source = resources.files(__package__).joinpath(_TEMPLATE).read_text("utf-8")
    template = environment.from_string(source)
    outcome_chart, latency_chart = _charts(manifest)
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
        template.render(
            m=manifest,
            rate=to_fixed(rate * 100, 1),
            rate_class="good" if rate >= 0.9 else "fair" if rate >= 0.7 else "bad",
            cost=format_cost(manifest.metrics.cost.total_usd)
            if manifest.metrics.cost
            else None,
            duration=format_duration(manifest.duration_ms),
            outcome_chart=outcome_chart,
            latency_chart=latency_chart,
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
