"""Markdown views for a CI job summary (``$GITHUB_STEP_SUMMARY``).

GitHub renders Markdown with inline HTML, so every string from a record goes
through the one Markdown escaping of the exports (`markdown_text`): control
characters shown as escapes, HTML's ``<``, ``>`` and ``&`` as entities, ASCII
punctuation backslash-escaped, one line, shortened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit._common._escaping import markdown_text as text
from artemiskit.reports._views import cause_groups, unit_grid
from artemiskit.suites import cause_text

if TYPE_CHECKING:
    from artemiskit.reports._compare import Comparison
    from artemiskit.reports._inputs import ReportInput

__all__ = ["comparison_markdown", "report_markdown"]


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _interval(interval: dict[str, Any] | None) -> str:
    if interval is None:
        return "n/a"
    return f"{interval['low']:.1%} – {interval['high']:.1%}"


def _status_lines(evidence: ReportInput) -> list[str]:
    suite = evidence.suite
    if evidence.kind == "records":
        return ["Read from record files (no suite record)."]
    if evidence.kind == "suites":
        lines = [
            f"Read from {len(evidence.sources)} suites; the totals add them up.",
            "",
            "| suite | status | exit code | workflows |",
            "|---|---|---:|---|",
        ]
        lines += [
            f"| {text(source['suite_id'])} | {text(source['status'])} "
            f"({text(source['reason'])}) | {source['exit_code']} "
            f"| {', '.join(text(name) for name in source['workflows'])} |"
            for source in evidence.sources
        ]
        return lines
    return [
        f"Status: **{text(suite['status'])}** ({text(suite['reason'])}), "
        f"exit code {suite['exit_code']}."
    ]


def report_markdown(evidence: ReportInput) -> str:
    """The overview and per-workflow tables of a suite or a set of records."""
    suite = evidence.suite
    totals = suite["totals"]
    tokens = (
        "unmeasured"
        if totals["input_tokens"] is None
        else f"{totals['input_tokens'] + totals['output_tokens']}"
    )
    lines = [
        "## ArtemisKit report",
        "",
        *_status_lines(evidence),
        "",
        "| runs | passed | failed | errored | unavailable | lost | tokens "
        "| model requests | tool calls |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {totals['runs_finished']} | {totals['passed']} | {totals['failed']} "
        f"| {totals['errored']} | {totals['unavailable']} | {totals['runs_lost']} "
        f"| {tokens} | {totals['model_requests']} | {totals['tool_calls']} |",
        "",
        "### Pass rate per workflow",
        "",
        "| workflow | pass rate | 95% interval (Wilson) | passed | failed "
        "| errored | unavailable | range if errored/unavailable | pass^k, k = runs |",
        "|---|---:|---|---:|---:|---:|---:|---|---:|",
    ]
    for workflow in suite["workflows"]:
        hat = workflow["pass_hat_k"]
        last = _rate(hat[str(len(hat))]) if hat else "n/a"
        lines.append(
            f"| {text(workflow['name'])} | {_rate(workflow['pass_rate'])} "
            f"| {_interval(workflow['pass_rate_interval'])} | {workflow['passed']} "
            f"| {workflow['failed']} | {workflow['errored']} "
            f"| {workflow['unavailable']} | {_range(workflow)} | {last} |"
        )
    lines += _target_table(suite)
    lines += _cause_table(suite)
    for workflow in suite["workflows"]:
        lines += _workflow_tables(workflow)
        lines += _unit_tables(suite, workflow["name"])
    return "\n".join(lines) + "\n"


def _target_table(suite: dict[str, Any]) -> list[str]:
    """Each target's units together, when the suite ran several targets."""
    targets = suite.get("targets") or []
    if len(targets) < 2:
        return []
    lines = [
        "",
        "### Pass rate per target",
        "",
        "| target | units | pass rate (mean of units) | 95% interval "
        "| passed | failed | errored | unavailable |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for target in targets:
        interval = target["pass_rate_interval"]
        method = "" if interval is None else f" ({interval['method']})"
        lines.append(
            f"| {text(target['target'])} | {target['units']} "
            f"| {_rate(target['pass_rate'])} | {_interval(interval)}{method} "
            f"| {target['passed']} | {target['failed']} | {target['errored']} "
            f"| {target['unavailable']} |"
        )
    return lines


def _unit_tables(suite: dict[str, Any], workflow: str) -> list[str]:
    """A workflow's units: a row each, then a cases x targets table of rates."""
    grid = unit_grid(suite, workflow)
    if grid is None:
        return []
    lines = [
        "",
        "| case | target | pass rate | 95% interval (Wilson) | passed | failed "
        "| errored | unavailable |",
        "|---|---|---:|---|---:|---:|---:|---:|",
    ]
    for case in grid.cases:
        for target in grid.targets:
            unit = grid.cells.get((case, target))
            if unit is None:
                continue
            lines.append(
                f"| {_case(case)} | {text(target)} | {_rate(unit['pass_rate'])} "
                f"| {_interval(unit['pass_rate_interval'])} | {unit['passed']} "
                f"| {unit['failed']} | {unit['errored']} | {unit['unavailable']} |"
            )
    header = " | ".join(text(target) for target in grid.targets)
    lines += [
        "",
        f"| case | {header} |",
        "|---|" + "---:|" * len(grid.targets),
    ]
    for case in grid.cases:
        cells = []
        for target in grid.targets:
            unit = grid.cells.get((case, target))
            cells.append("–" if unit is None else _cell(unit))
        lines.append(f"| {_case(case)} | {' | '.join(cells)} |")
    if grid.more:
        lines.append(f"\n{grid.more} more cases are in suite.json's units.")
    return lines


def _case(case: str | None) -> str:
    return "–" if case is None else text(case)


def _cell(unit: dict[str, Any]) -> str:
    judged = unit["passed"] + unit["failed"]
    return f"{_rate(unit['pass_rate'])} ({unit['passed']}/{judged})"


def _range(workflow: dict[str, Any]) -> str:
    """The pass rate if every errored and unavailable run had failed / passed."""
    spread = workflow["pass_rate_range"]
    if spread is None or not (workflow["errored"] or workflow["unavailable"]):
        return "–"
    return f"{spread['low']:.1%} – {spread['high']:.1%}"


def _cause_table(suite: dict[str, Any]) -> list[str]:
    """Runs that did not pass, grouped by cause (``why``), most frequent first."""
    groups = cause_groups(suite)
    if not groups:
        return []
    lines = [
        "",
        "### Why runs did not pass",
        "",
        "| why | kind | verdict | runs | which |",
        "|---|---|---|---:|---|",
    ]
    for group in groups:
        which = ", ".join(f"{name} #{number}" for name, number in group.runs[:10])
        if len(group.runs) > 10:
            which += f", … {len(group.runs) - 10} more"
        lines.append(
            f"| {text(group.text)} | {group.kind or 'n/a'} "
            f"| {', '.join(group.verdicts)} | {len(group.runs)} | {text(which)} |"
        )
    return lines


def _workflow_tables(workflow: dict[str, Any]) -> list[str]:
    lines = ["", f"### {text(workflow['name'])}", ""]
    if workflow["requirements"]:
        lines += [
            "| requirement | passed | failed | unavailable |",
            "|---|---:|---:|---:|",
        ]
        lines += [
            f"| {text(r['id'])} | {r['passed']} | {r['failed']} | {r['unavailable']} |"
            for r in workflow["requirements"]
        ]
        lines.append("")
    if workflow["causes"]:
        lines += ["| why | kind | runs |", "|---|---|---:|"]
        lines += [
            f"| {text(cause_text(cause))} | {cause['kind']} | {cause['runs']} |"
            for cause in workflow["causes"]
        ]
        lines.append("")
    lines += [
        "| run | verdict | why | exit code | duration (ms) |",
        "|---:|---|---|---:|---:|",
    ]
    for run in workflow["runs"]:
        why = "" if run["verdict"] == "passed" else text(cause_text(run["why"]))
        lines.append(
            f"| {run['repetition']} | {run['verdict']} | {why} "
            f"| {run['exit_code']} | {run['duration_ms']} |"
        )
    return lines


def _signed(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.1%}"


def _chance_note(comparison: Comparison) -> list[str]:
    """The A/A note: same contract and target on both sides (SPEC 23)."""
    if not comparison.same_contract_and_target:
        return []
    beyond = comparison.beyond_chance
    if not beyond:
        return [
            "Both suites ran the same contracts on the same targets: every "
            "difference is within what chance gives (Holm, two-sided).",
            "",
        ]
    return [
        "Both suites ran the same contracts on the same targets, yet these "
        "differ more than chance gives (Holm, two-sided): "
        + ", ".join(text(name) for name in beyond)
        + ".",
        "",
    ]


def comparison_markdown(comparison: Comparison) -> str:
    """Pass rates side by side, the differences and the regressions."""
    regressed = comparison.regressed
    verdict = (
        f"**{len(regressed)} workflow(s) regressed:** "
        + ", ".join(text(name) for name in regressed)
        if regressed
        else "No workflow regressed."
    )
    lines = [
        "## ArtemisKit comparison",
        "",
        verdict,
        "",
        f"A workflow regressed when its candidate is lower and Fisher's exact p, "
        f"adjusted by Holm's step-down over every lower workflow, is below "
        f"{comparison.alpha:g}"
        + (
            f", or its drop exceeds {comparison.max_drop:g}."
            if comparison.max_drop is not None
            else "."
        ),
        "",
        *_chance_note(comparison),
        "| workflow | baseline | candidate | difference | 95% interval (Newcombe) "
        "| test | p | p (Holm) | regressed |",
        "|---|---:|---:|---:|---|---|---:|---:|---|",
    ]
    for w in comparison.workflows:
        interval = (
            "n/a"
            if w.interval is None
            else f"{w.interval.low:+.1%} – {w.interval.high:+.1%}"
        )
        p_value = "n/a" if w.p_value is None else f"{w.p_value:.4f}"
        adjusted = "–" if w.p_adjusted is None else f"{w.p_adjusted:.4f}"
        changed = " (contract changed)" if w.contract_changed else ""
        lines.append(
            f"| {text(w.name)}{changed} "
            f"| {_rate(w.baseline_rate)} ({w.baseline_passed}/{w.baseline_judged}) "
            f"| {_rate(w.candidate_rate)} ({w.candidate_passed}/{w.candidate_judged}) "
            f"| {_signed(w.difference)} | {interval} | {w.test} | {p_value} "
            f"| {adjusted} | {'**yes**' if w.regressed else 'no'} |"
        )
    if comparison.workflows:
        lines += [
            "",
            "| workflow | budget | baseline median | candidate median |",
            "|---|---|---:|---:|",
        ]
        for w in comparison.workflows:
            for dimension, (base, cand) in w.budget_medians.items():
                if base is None and cand is None:
                    continue
                lines.append(
                    f"| {text(w.name)} | {dimension.replace('_', ' ')} "
                    f"| {_rate(base)} | {_rate(cand)} |"
                )
    for label, names in (
        ("Only in the baseline", comparison.only_in_baseline),
        ("Only in the candidate", comparison.only_in_candidate),
    ):
        if names:
            lines += [
                "",
                f"{label}: " + ", ".join(text(n) for n in names) + ".",
            ]
    return "\n".join(lines) + "\n"
