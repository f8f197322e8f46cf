"""`akit plan`: how many repetitions (or cases) a decision needs (SPEC 23).

Planning before spending: given a baseline pass rate (a number, or each workflow of
a saved suite), the smallest drop worth detecting, alpha and power, how many runs
per side a comparison needs, paired (McNemar, units compared one to one) or not
(two independent pass rates), and from a saved suite's usage the expected tokens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._decisions import repetitions_paired, repetitions_unpaired
from artemiskit.records import SuiteRecord
from artemiskit.suites._suite_file import suite_record_from_dict

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["RepetitionPlan", "plan_repetitions", "plan_suite"]


@attrs.frozen(kw_only=True)
class RepetitionPlan:
    """What one comparison needs.

    Attributes:
        workflow: The workflow planned for (``None`` for a bare baseline number).
        baseline: The baseline pass rate planned from.
        drop: The absolute drop to detect (0.1 = ten points).
        alpha: The two-sided significance level.
        power: The wanted probability of detecting the drop.
        paired: Whether the comparison pairs units (McNemar) or not.
        discordance: The expected share of discordant pairs (paired only).
        per_side: Runs per side (unpaired) or paired units (paired).
        tokens_per_run: The mean measured tokens of a run in the saved suite.
        tokens_both_sides: Expected tokens of both sides together.
        note: Why a workflow could not be planned, if it could not.
    """

    workflow: str | None
    baseline: float | None
    drop: float
    alpha: float
    power: float
    paired: bool
    discordance: float | None
    per_side: int | None
    tokens_per_run: float | None = None
    tokens_both_sides: int | None = None
    note: str | None = None


def plan_repetitions(
    baseline: float,
    drop: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    paired: bool = False,
    discordance: float | None = None,
    workflow: str | None = None,
    tokens_per_run: float | None = None,
) -> RepetitionPlan:
    """Plan one comparison from a baseline pass rate.

    Unpaired: the runs per side of a two-sided test of two proportions (Cohen's
    arcsine effect size, solved exactly for the power). Paired: the units of
    McNemar's test (Connor 1987), ``discordance`` defaulting to 2·p·(1 - p).

    Raises:
        ValueError: A value is out of range, or the discordance does not exceed
            the drop.
    """
    if paired:
        needed = repetitions_paired(
            baseline, drop, alpha=alpha, power=power, discordance=discordance
        )
        if discordance is None:
            discordance = 2 * baseline * (1 - baseline)
    else:
        needed = repetitions_unpaired(baseline, drop, alpha=alpha, power=power)
    tokens = None if tokens_per_run is None else round(2 * needed * tokens_per_run)
    return RepetitionPlan(
        workflow=workflow,
        baseline=baseline,
        drop=drop,
        alpha=alpha,
        power=power,
        paired=paired,
        discordance=discordance if paired else None,
        per_side=needed,
        tokens_per_run=tokens_per_run,
        tokens_both_sides=tokens,
    )


def plan_suite(
    summary: SuiteRecord | Mapping[str, Any],
    drop: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    paired: bool = False,
    discordance: float | None = None,
) -> list[RepetitionPlan]:
    """Plan every workflow of a saved suite from its own pass rate and usage.

    A workflow whose pass rate is null (no judged run) or below the drop cannot be
    planned from: its row says why instead. Tokens per run are the mean measured
    input + output tokens of its finished runs (``None`` when none was measured).

    Args:
        summary: The saved suite record, typed (`read_suite_record`) or as
            plain data (checked with `suite_record_from_dict`).
        drop: The absolute drop in pass rate to detect.
        alpha: The two-sided significance level.
        power: The power to detect the drop.
        paired: Plan a paired comparison.
        discordance: The expected share of discordant units (paired).

    Raises:
        ValueError: ``drop``, ``alpha``, ``power`` or ``discordance`` out of range.
        WorkflowError: Plain data that is not a valid suite record (exit 2).
    """
    if not isinstance(summary, SuiteRecord):
        summary = suite_record_from_dict(summary)
    plans: list[RepetitionPlan] = []
    for workflow in summary.workflows:
        name = workflow.name
        rate = workflow.pass_rate
        measured = [
            run.input_tokens + run.output_tokens
            for run in workflow.runs
            if run.input_tokens is not None and run.output_tokens is not None
        ]
        per_run = sum(measured) / len(measured) if measured else None
        blank = RepetitionPlan(
            workflow=name,
            baseline=rate,
            drop=drop,
            alpha=alpha,
            power=power,
            paired=paired,
            discordance=discordance,
            per_side=None,
            tokens_per_run=per_run,
        )
        if rate is None:
            plans.append(attrs.evolve(blank, note="no judged run to plan from"))
            continue
        if rate < drop or rate == 0:
            plans.append(
                attrs.evolve(blank, note="its pass rate is below the drop to detect")
            )
            continue
        try:
            plans.append(
                plan_repetitions(
                    rate,
                    drop,
                    alpha=alpha,
                    power=power,
                    paired=paired,
                    discordance=discordance,
                    workflow=name,
                    tokens_per_run=per_run,
                )
            )
        except ValueError as exc:
            if "discordant" not in str(exc):
                raise
            plans.append(attrs.evolve(blank, note=str(exc)))
    return plans
