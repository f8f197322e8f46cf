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
    from collections.abc import Callable

    from artemiskit.reports._compare import Comparison, ComparisonRow
    from artemiskit.reports._inputs import ReportInput

__all__ = [
    "MAX_UNIT_ROWS",
    "comparison_markdown",
    "comparison_rule",
    "one_side_only",
    "report_markdown",
    "verdict_text",
]


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _interval(interval: dict[str, Any] | None) -> str:
    if interval is None:
        return "n/a"
    method = "" if interval["method"] == "wilson" else f" ({interval['method']})"
    return f"{interval['low']:.1%} – {interval['high']:.1%}{method}"


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
        "| workflow | pass rate | 95% interval (Wilson; cases: clustered) | passed "
        "| failed "
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


#: At most this many unit rows are listed (the JSON output holds them all).
MAX_UNIT_ROWS = 200


def _row_line(row: ComparisonRow) -> str:
    interval = (
        "n/a"
        if row.interval is None
        else f"{row.interval.low:+.1%} – {row.interval.high:+.1%}"
        f" ({row.interval_method})"
    )
    p_value = "n/a" if row.p_value is None else f"{row.p_value:.4f}"
    adjusted = "–" if row.p_adjusted is None else f"{row.p_adjusted:.4f}"
    changed = " (contract changed)" if row.contract_changed else ""
    return (
        f"| {text(row.label)}{changed} "
        f"| {_rate(row.baseline_rate)} ({row.baseline_passed}/{row.baseline_judged}) "
        f"| {_rate(row.candidate_rate)} "
        f"({row.candidate_passed}/{row.candidate_judged}) "
        f"| {_signed(row.difference)} | {interval} | {row.test or 'none'} "
        f"| {row.why} | {p_value} | {adjusted} "
        f"| {'**yes**' if row.regressed else 'no'} |"
    )


_ROW_HEAD = [
    "| {what} | {base} | {cand} | difference | 95% interval | test | why "
    "| p | p (Holm) | regressed |",
    "|---|---:|---:|---:|---|---|---|---:|---:|---|",
]


def _head(what: str, comparison: Comparison) -> list[str]:
    return [
        _ROW_HEAD[0].format(
            what=what,
            base=text(comparison.baseline_label),
            cand=text(comparison.candidate_label),
        ),
        _ROW_HEAD[1],
    ]


def comparison_rule(comparison: Comparison) -> str:
    """How a row is decided, in words, with the alpha and max drop used."""
    drop = (
        f", or (a workflow) its drop exceeds {comparison.max_drop:g}."
        if comparison.max_drop is not None
        else "."
    )
    return (
        "A row regressed when its candidate is lower and its p-value, adjusted by "
        "Holm's step-down over every lower row its test can decide, is below "
        f"{comparison.alpha:g}{drop} Each row says which test it used and why: "
        "paired units (the same cases on both sides) use McNemar's exact test "
        "(one run a side) or the paired t-test on unit pass rates; independent "
        "runs use Fisher's exact test. Improvements are shown, not tested."
    )


def verdict_text(
    comparison: Comparison,
    *,
    bold: bool = False,
    escape: Callable[[str], str] = str,
) -> str:
    """The comparison's verdict in one sentence: which workflows and units regressed.

    Args:
        comparison: The comparison.
        bold: Mark the counts bold (Markdown).
        escape: How to escape a workflow or unit label.
    """
    strong = "**" if bold else ""
    workflows = [escape(row.label) for row in comparison.workflows if row.regressed]
    units = [escape(row.label) for row in comparison.units if row.regressed]
    parts = []
    if workflows:
        parts.append(
            f"{strong}{len(workflows)} workflow(s) regressed:{strong} "
            + ", ".join(workflows)
        )
    else:
        parts.append("No workflow regressed")
    if units:
        parts.append(
            f"{strong}{len(units)} unit(s) regressed:{strong} " + ", ".join(units)
        )
    return "; ".join(parts) + ("" if workflows or units else ".")


def one_side_only(comparison: Comparison) -> list[tuple[str, tuple[str, ...]]]:
    """The workflows on one side only, each list with what it says."""
    if comparison.pairing == "targets":
        sides = (comparison.baseline_label, comparison.candidate_label)
    else:
        sides = ("the baseline", "the candidate")
    return [
        (f"Only in {sides[0]}", comparison.only_in_baseline),
        (f"Only in {sides[1]}", comparison.only_in_candidate),
    ]


def comparison_markdown(comparison: Comparison) -> str:
    """Pass rates side by side, the differences, the tests and the regressions."""
    verdict = verdict_text(comparison, bold=True, escape=text)
    lines = [
        "## ArtemisKit comparison",
        "",
        verdict,
        "",
        comparison_rule(comparison),
        "",
        *_chance_note(comparison),
        *_head("workflow", comparison),
    ]
    lines += [_row_line(row) for row in comparison.workflows]
    if comparison.units:
        shown = comparison.units[:MAX_UNIT_ROWS]
        lines += ["", *_head("unit", comparison)]
        lines += [_row_line(row) for row in shown]
        if len(comparison.units) > len(shown):
            lines += [
                "",
                f"{len(comparison.units) - len(shown)} more unit rows are in the "
                "JSON output (`--json`).",
            ]
    budgets = [
        (row, dimension, pair)
        for row in comparison.workflows
        for dimension, pair in row.budget_medians.items()
        if pair[0] is not None or pair[1] is not None
    ]
    if budgets:
        lines += [
            "",
            "| workflow | budget | baseline median | candidate median |",
            "|---|---|---:|---:|",
        ]
        for row, dimension, (base, cand) in budgets:
            lines.append(
                f"| {text(row.name)} | {dimension.replace('_', ' ')} "
                f"| {_rate(base)} | {_rate(cand)} |"
            )
    for label, names in one_side_only(comparison):
        if names:
            lines += [
                "",
                f"{text(label)}: " + ", ".join(text(n) for n in names) + ".",
            ]
    return "\n".join(lines) + "\n"
