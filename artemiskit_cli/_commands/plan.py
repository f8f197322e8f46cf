"""``akit plan``: repetitions (or cases) needed before spending (SPEC 23)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import attrs
import click

from artemiskit import ExitCode
from artemiskit.suites import (
    RepetitionPlan,
    plan_repetitions,
    plan_suite,
    read_suite_record,
)
from artemiskit_cli._errors import reports_errors
from artemiskit_cli._params import FiniteFloatRange, PathParam

__all__ = ["plan"]

_UNIT = FiniteFloatRange(0.0, 1.0, min_open=True)
_OPEN = FiniteFloatRange(0.0, 1.0, min_open=True, max_open=True)


def _suite_file(given: str) -> Path:
    path = Path(given)
    return path / "suite.json" if path.is_dir() else path


@click.command("plan")
@click.option(
    "--baseline",
    metavar="RATE|SUITE",
    help="The baseline pass rate (a number in (0, 1]) or a saved suite (folder or "
    "suite.json) whose workflows are each planned from their own rate.",
)
@click.option(
    "--suite",
    "suite_path",
    type=PathParam(readable=False),
    help="A saved suite (folder or suite.json): baselines and tokens per run.",
)
@click.option(
    "--detect",
    required=True,
    type=_UNIT,
    help="The smallest absolute drop in pass rate worth detecting (0.1 = 10 points).",
)
@click.option(
    "--alpha",
    default=0.05,
    show_default=True,
    type=_OPEN,
    help="Two-sided significance level.",
)
@click.option(
    "--power",
    default=0.8,
    show_default=True,
    type=_OPEN,
    help="Wanted probability of detecting the drop.",
)
@click.option(
    "--paired",
    is_flag=True,
    help="Both sides run the same units (cases, targets): McNemar's test.",
)
@click.option(
    "--discordance",
    type=_UNIT,
    help="With --paired: the expected share of units whose verdicts differ "
    "between the sides (default 2·R·(1-R)).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON.")
@reports_errors
def plan(
    baseline: str | None,
    suite_path: str | None,
    detect: float,
    alpha: float,
    power: float,
    paired: bool,
    discordance: float | None,
    as_json: bool,
) -> None:
    """How many runs per side a comparison needs to detect a given drop."""
    if discordance is not None and not paired:
        raise click.UsageError("--discordance needs --paired")
    rate: float | None = None
    if baseline is not None:
        try:
            rate = float(baseline)
        except ValueError:
            if suite_path is not None:
                raise click.UsageError(
                    "give the suite once: --baseline or --suite"
                ) from None
            suite_path = baseline
        else:
            if not (0.0 < rate <= 1.0) or math.isnan(rate):
                raise click.BadParameter("must be in (0, 1]", param_hint="--baseline")
    if (rate is None) == (suite_path is None):
        raise click.UsageError("give --baseline RATE, or a saved suite (--suite DIR)")
    try:
        if rate is not None:
            plans = [
                plan_repetitions(
                    rate,
                    detect,
                    alpha=alpha,
                    power=power,
                    paired=paired,
                    discordance=discordance,
                )
            ]
        else:
            assert suite_path is not None
            summary = read_suite_record(_suite_file(suite_path))
            plans = plan_suite(
                summary,
                detect,
                alpha=alpha,
                power=power,
                paired=paired,
                discordance=discordance,
            )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        click.echo(json.dumps([attrs.asdict(p) for p in plans], indent=2))
    else:
        for line in _lines(
            plans, detect=detect, alpha=alpha, power=power, paired=paired
        ):
            click.echo(line)
    sys.exit(ExitCode.OK)


def _lines(
    plans: list[RepetitionPlan],
    *,
    detect: float,
    alpha: float,
    power: float,
    paired: bool,
) -> list[str]:
    design = "paired units (McNemar's exact test)" if paired else "independent runs"
    unit = "units, each run on both sides" if paired else "runs per side"
    lines = [
        f"plan: detect a drop of {detect:g} in pass rate at alpha {alpha:g} "
        f"(two-sided) with power {power:g}, {design}"
    ]
    total = 0
    tokens = 0
    for item in plans:
        label = "baseline" if item.workflow is None else f"{item.workflow}: baseline"
        shown = "n/a" if item.baseline is None else f"{item.baseline:.3f}"
        if item.per_side is None:
            lines.append(f"  {label} {shown}: {item.note}")
            continue
        total += item.per_side
        line = f"  {label} {shown}: {item.per_side:,} {unit}"
        if item.tokens_both_sides is not None and item.tokens_per_run is not None:
            tokens += item.tokens_both_sides
            line += (
                f", about {item.tokens_both_sides:,} tokens for both sides "
                f"({item.tokens_per_run:,.0f} per run)"
            )
        lines.append(line)
    if len(plans) > 1:
        line = f"total: {total:,} {unit}"
        if tokens:
            line += f", about {tokens:,} tokens for both sides"
        lines.append(line)
    return lines
