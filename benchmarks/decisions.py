"""Decision statistics by simulation (SPEC 23): power, family-wise error, planning.

``python -m benchmarks.decisions [--quick] [--seed S]`` prints one JSON object with:

- ``paired_vs_unpaired``: suites with a known true drop, run on the same units on
  both sides with correlated verdicts (a discordant share well below what two
  independent runs give). McNemar's exact test on the pairs against Fisher's exact
  test treating the sides as independent, on the very same runs: how often each
  detects the drop at the number of units `akit plan --paired` asks for;
- ``plan_unpaired``: the detection rate of independent sides at the runs per side
  `akit plan` asks for, beside the power it promised (the arcsine z-test it plans
  with, and Fisher's exact test that compare uses, which is a little conservative);
- ``holm``: compares of many workflows with no true difference: how often at least
  one workflow "regresses" without adjustment, and with Holm's step-down.

Every figure is a proportion of simulated trials with its standard error; no
figure is a time. The seed makes a sitting reproducible.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from statistics import NormalDist
from typing import Any

from artemiskit._common._decisions import (
    holm_adjust,
    mcnemar_exact,
    repetitions_paired,
    repetitions_unpaired,
)
from artemiskit.reports._statistics import fisher_exact_p

__all__ = ["simulate"]

_ALPHA = 0.05


def _rate(hits: int, trials: int) -> dict[str, float]:
    share = hits / trials
    return {"rate": share, "standard_error": math.sqrt(share * (1 - share) / trials)}


def _lower_and_significant(
    baseline: int, candidate: int, judged: int, p: float | None
) -> bool:
    return candidate < baseline and p is not None and p < _ALPHA


def _paired(rng: random.Random, trials: int) -> dict[str, Any]:
    baseline_rate, drop, discordance = 0.8, 0.1, 0.15
    units = repetitions_paired(baseline_rate, drop, discordance=discordance)
    favour_baseline = (discordance + drop) / 2
    favour_candidate = (discordance - drop) / 2
    both = baseline_rate - favour_baseline
    paired_hits = unpaired_hits = 0
    for _ in range(trials):
        only_baseline = only_candidate = together = 0
        for _ in range(units):
            draw = rng.random()
            if draw < favour_baseline:
                only_baseline += 1
            elif draw < favour_baseline + favour_candidate:
                only_candidate += 1
            elif draw < favour_baseline + favour_candidate + both:
                together += 1
        baseline = together + only_baseline
        candidate = together + only_candidate
        if only_candidate < only_baseline:
            paired_hits += mcnemar_exact(only_baseline, only_candidate).p < _ALPHA
        p = fisher_exact_p(baseline, units, candidate, units)
        unpaired_hits += _lower_and_significant(baseline, candidate, units, p)
    return {
        "baseline": baseline_rate,
        "true_drop": drop,
        "discordance": discordance,
        "units": units,
        "trials": trials,
        "planned_power": 0.8,
        "mcnemar_exact": _rate(paired_hits, trials),
        "fisher_unpaired_same_runs": _rate(unpaired_hits, trials),
    }


def _z_test_p(baseline: int, candidate: int, judged: int) -> float:
    """The arcsine two-proportion z-test `akit plan` plans with (two-sided)."""
    effect = 2 * math.asin(math.sqrt(baseline / judged)) - 2 * math.asin(
        math.sqrt(candidate / judged)
    )
    return 2 * (1 - NormalDist().cdf(abs(effect) * math.sqrt(judged / 2)))


def _plan_unpaired(rng: random.Random, trials: int) -> dict[str, Any]:
    baseline_rate, drop = 0.8, 0.1
    runs = repetitions_unpaired(baseline_rate, drop)
    z_hits = fisher_hits = 0
    for _ in range(trials):
        baseline = sum(rng.random() < baseline_rate for _ in range(runs))
        candidate = sum(rng.random() < baseline_rate - drop for _ in range(runs))
        z_hits += candidate < baseline and _z_test_p(baseline, candidate, runs) < _ALPHA
        p = fisher_exact_p(baseline, runs, candidate, runs)
        fisher_hits += _lower_and_significant(baseline, candidate, runs, p)
    return {
        "baseline": baseline_rate,
        "true_drop": drop,
        "runs_per_side": runs,
        "trials": trials,
        "planned_power": 0.8,
        "z_test": _rate(z_hits, trials),
        "fisher": _rate(fisher_hits, trials),
    }


def _holm(rng: random.Random, trials: int) -> dict[str, Any]:
    workflows, runs, rate = 20, 40, 0.8
    raw_hits = holm_hits = 0
    for _ in range(trials):
        rows: list[tuple[bool, float]] = []
        for _ in range(workflows):
            baseline = sum(rng.random() < rate for _ in range(runs))
            candidate = sum(rng.random() < rate for _ in range(runs))
            p = fisher_exact_p(baseline, runs, candidate, runs)
            rows.append((candidate < baseline, 1.0 if p is None else p))
        tested = [p for lower, p in rows if lower]
        raw_hits += any(p < _ALPHA for p in tested)
        holm_hits += any(p < _ALPHA for p in holm_adjust(tested))
    return {
        "workflows": workflows,
        "runs_per_side": runs,
        "true_rate_both_sides": rate,
        "trials": trials,
        "alpha": _ALPHA,
        "unadjusted_family_wise_error": _rate(raw_hits, trials),
        "holm_family_wise_error": _rate(holm_hits, trials),
    }


def simulate(*, trials: int = 2000, seed: int = 20261203) -> dict[str, Any]:
    """Every simulated figure; see the module docstring."""
    rng = random.Random(seed)
    return {
        "seed": seed,
        "paired_vs_unpaired": _paired(rng, trials),
        "plan_unpaired": _plan_unpaired(rng, trials),
        "holm": _holm(rng, trials),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the simulation and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="300 trials per figure")
    parser.add_argument("--seed", type=int, default=20261203)
    arguments = parser.parse_args(argv)
    trials = 300 if arguments.quick else 2000
    result = simulate(trials=trials, seed=arguments.seed)
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
