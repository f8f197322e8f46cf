"""Decision statistics by simulation (SPEC 23): power, family-wise error, planning.

``python -m benchmarks.decisions [--quick] [--seed S]`` prints one JSON object. Every
compare goes through `compare_reports`, the code ``akit report compare`` runs, on
suites synthesised in memory in SPEC 26's shapes (units per workflow and case):

- ``paired_vs_unpaired``: a known true drop, the same cases run on both sides with
  correlated verdicts (a discordant share well below what two independent runs
  give), one run a case a side, at the number of units ``akit plan --paired`` asks
  for. The paired compare (McNemar's exact test) against the very same runs
  compared as independent (a workflow without cases: Fisher's exact test); beside
  the exact power the plan promised, and how far the simulation is from it in
  standard errors;
- ``paired_t_vs_unpaired``: cases of unequal difficulty, three runs a case a side,
  a true drop of 0.1 on every case: the paired t-test on the cases' pass rates
  against Fisher's exact test on the same runs pooled;
- ``plan_unpaired``: independent sides at the runs per side ``akit plan`` asks for:
  the arcsine z-test it plans with against its planned power, and Fisher's exact
  test that compare uses (a little conservative);
- ``holm``: compares of twenty workflows (ten plain, ten with cases, whose cases
  also get rows) with no true difference: how often any row "regresses" at
  p < alpha without adjustment, and how often compare (Holm's step-down) flags one.

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
    mcnemar_exact_power,
    repetitions_paired,
    repetitions_unpaired,
    unpaired_power,
)
from artemiskit.reports import compare_reports
from artemiskit.reports._inputs import ReportInput

__all__ = ["simulate"]

_ALPHA = 0.05
_DIGEST = "sha256:" + "0" * 64
#: A simulated rate agrees with a planned power within this many standard errors.
_AGREEMENT_Z = 3.0

#: (workflow, case, passed, failed)
_Unit = tuple[str, "str | None", int, int]


def _rate(hits: int, trials: int) -> dict[str, float]:
    share = hits / trials
    return {"rate": share, "standard_error": math.sqrt(share * (1 - share) / trials)}


def _agreement(found: dict[str, float], planned: float) -> dict[str, Any]:
    """How far a simulated rate is from the planned power, in standard errors."""
    error = max(found["standard_error"], 1e-12)
    z = (found["rate"] - planned) / error
    return {"planned": planned, "z": z, "within_error": abs(z) <= _AGREEMENT_Z}


def _suite(units: list[_Unit]) -> ReportInput:
    """An in-memory suite in SPEC 26's shape: what compare reads of it."""
    names = list(dict.fromkeys(unit[0] for unit in units))
    return ReportInput(
        kind="suite",
        suite={
            "workflows": [
                {"name": name, "digest": _DIGEST, "budget_use": {}} for name in names
            ],
            "units": [
                {
                    "workflow": workflow,
                    "case": case,
                    "target": "scripted:agent",
                    "passed": passed,
                    "failed": failed,
                }
                for workflow, case, passed, failed in units
            ],
        },
        records={},
    )


def _flagged(baseline: list[_Unit], candidate: list[_Unit]) -> tuple[bool, str]:
    comparison = compare_reports(_suite(baseline), _suite(candidate), alpha=_ALPHA)
    (row,) = comparison.workflows
    return row.regressed, row.test or "none"


def _pooled(side: list[_Unit]) -> list[_Unit]:
    """The same runs as a workflow without cases: one unit, independent runs."""
    return [("w", None, sum(u[2] for u in side), sum(u[3] for u in side))]


def _plain(passed: int, runs: int) -> list[_Unit]:
    return [("w", None, passed, runs - passed)]


def _paired(rng: random.Random, trials: int) -> dict[str, Any]:
    baseline_rate, drop, discordance = 0.8, 0.1, 0.15
    units = repetitions_paired(baseline_rate, drop, discordance=discordance)
    favour_baseline = (discordance + drop) / 2
    favour_candidate = (discordance - drop) / 2
    both = baseline_rate - favour_baseline
    paired_hits = unpaired_hits = 0
    tests: set[str] = set()
    for _ in range(trials):
        base: list[_Unit] = []
        cand: list[_Unit] = []
        for case in range(units):
            draw = rng.random()
            if draw < favour_baseline:
                outcome = (1, 0)
            elif draw < favour_baseline + favour_candidate:
                outcome = (0, 1)
            elif draw < favour_baseline + favour_candidate + both:
                outcome = (1, 1)
            else:
                outcome = (0, 0)
            base.append(("w", f"c{case}", outcome[0], 1 - outcome[0]))
            cand.append(("w", f"c{case}", outcome[1], 1 - outcome[1]))
        regressed, test = _flagged(base, cand)
        paired_hits += regressed
        tests.add(test)
        unpaired_hits += _flagged(_pooled(base), _pooled(cand))[0]
    paired = _rate(paired_hits, trials)
    return {
        "baseline": baseline_rate,
        "true_drop": drop,
        "discordance": discordance,
        "units": units,
        "trials": trials,
        "tests": sorted(tests),
        "mcnemar_exact": paired,
        "fisher_unpaired_same_runs": _rate(unpaired_hits, trials),
        "plan": _agreement(
            paired, mcnemar_exact_power(units, discordance, drop, alpha=_ALPHA)
        ),
    }


def _paired_t(rng: random.Random, trials: int) -> dict[str, Any]:
    cases, runs, drop = 40, 3, 0.1
    difficulties = [0.35, 0.6, 0.8, 0.95, 1.0]
    paired_hits = unpaired_hits = 0
    tests: set[str] = set()
    for _ in range(trials):
        base: list[_Unit] = []
        cand: list[_Unit] = []
        for case in range(cases):
            rate = rng.choice(difficulties)
            b = sum(rng.random() < rate for _ in range(runs))
            c = sum(rng.random() < rate - drop for _ in range(runs))
            base.append(("w", f"c{case}", b, runs - b))
            cand.append(("w", f"c{case}", c, runs - c))
        regressed, test = _flagged(base, cand)
        paired_hits += regressed
        tests.add(test)
        unpaired_hits += _flagged(_pooled(base), _pooled(cand))[0]
    return {
        "cases": cases,
        "runs_per_case_per_side": runs,
        "case_pass_rates": difficulties,
        "true_drop": drop,
        "trials": trials,
        "tests": sorted(tests),
        "paired_t": _rate(paired_hits, trials),
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
        fisher_hits += _flagged(_plain(baseline, runs), _plain(candidate, runs))[0]
    z_test = _rate(z_hits, trials)
    return {
        "baseline": baseline_rate,
        "true_drop": drop,
        "runs_per_side": runs,
        "trials": trials,
        "z_test": z_test,
        "fisher": _rate(fisher_hits, trials),
        "plan": _agreement(z_test, unpaired_power(baseline_rate, drop, runs)),
    }


def _holm(rng: random.Random, trials: int) -> dict[str, Any]:
    plain, with_cases, runs, cases, case_runs = 10, 10, 40, 10, 5
    difficulties = [0.5, 0.8, 0.95, 1.0]
    raw_hits = holm_hits = 0
    rows = 0
    for _ in range(trials):
        base: list[_Unit] = []
        cand: list[_Unit] = []
        for number in range(plain):
            b = sum(rng.random() < 0.8 for _ in range(runs))
            c = sum(rng.random() < 0.8 for _ in range(runs))
            base.append((f"plain-{number}", None, b, runs - b))
            cand.append((f"plain-{number}", None, c, runs - c))
        for number in range(with_cases):
            for case in range(cases):
                rate = rng.choice(difficulties)
                b = sum(rng.random() < rate for _ in range(case_runs))
                c = sum(rng.random() < rate for _ in range(case_runs))
                base.append((f"cases-{number}", f"c{case}", b, case_runs - b))
                cand.append((f"cases-{number}", f"c{case}", c, case_runs - c))
        comparison = compare_reports(_suite(base), _suite(cand), alpha=_ALPHA)
        rows = len(comparison.rows)
        raw_hits += any(
            row.tested and row.p_value is not None and row.p_value < _ALPHA
            for row in comparison.rows
        )
        holm_hits += bool(comparison.regressed)
    holm = _rate(holm_hits, trials)
    return {
        "plain_workflows": plain,
        "runs_per_side": runs,
        "workflows_with_cases": with_cases,
        "cases": cases,
        "runs_per_case_per_side": case_runs,
        "rows_per_compare": rows,
        "trials": trials,
        "alpha": _ALPHA,
        "unadjusted_family_wise_error": _rate(raw_hits, trials),
        "holm_family_wise_error": holm,
        "holm_at_or_under_alpha": holm["rate"]
        <= _ALPHA + _AGREEMENT_Z * holm["standard_error"],
    }


def simulate(*, trials: int = 2000, seed: int = 20261203) -> dict[str, Any]:
    """Every simulated figure; see the module docstring."""
    rng = random.Random(seed)
    return {
        "seed": seed,
        "paired_vs_unpaired": _paired(rng, trials),
        "paired_t_vs_unpaired": _paired_t(rng, trials),
        "plan_unpaired": _plan_unpaired(rng, trials),
        "holm": _holm(rng, trials),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the simulation and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 trials per figure")
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261203)
    arguments = parser.parse_args(argv)
    trials = 100 if arguments.quick else arguments.trials
    result = simulate(trials=trials, seed=arguments.seed)
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
