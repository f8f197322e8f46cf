"""Run mutmut on a seeded random sample of each large module's mutants.

Usage::

    python scripts/mutation_sample.py --sample 80 --seed 20261203 [MODULE_GLOB ...]
    python scripts/mutation_sample.py --sample 80 --seed 20261203 --list
    python scripts/mutation_sample.py --sample 60 --whole-up-to 120 --seed 20261203

(``nox -s mutation -- --sample 80 --seed 20261203`` runs the first.) A module of
``[tool.mutmut] only_mutate`` (or of those matching a ``MODULE_GLOB``, such as
``artemiskit/suites/*``) with more mutants than ``--sample`` contributes a simple
random sample of that many, drawn without replacement from its sorted mutant names
by a generator seeded with ``--seed`` and the module's path; a smaller module
(at most ``--whole-up-to`` mutants, by default ``--sample``) contributes every
mutant. The same seed over the same source draws the same sample,
so anyone can re-draw it and check the figures; the draw is the first ``--sample``
names of a seeded shuffle, so a larger ``--sample`` with the same seed extends an
earlier draw (the mutants already run keep their results).

The script generates the mutants first when ``mutants/`` lacks them (mutmut's own
generation step, the one ``mutmut run`` starts with), writes the draw to
``mutants/mutation-sample.json`` (``scripts/mutation_report.py`` reads it: a sampled
module's score is over its sample only, with a 95% Wilson interval), then runs
``mutmut run`` at the lowest CPU priority on the drawn mutants that have no result
yet (``--rerun`` runs them all again). ``--list`` draws and prints the names only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_FILE = ROOT / "mutants" / "mutation-sample.json"


def modules(patterns: list[str]) -> list[str]:
    """The modules of ``only_mutate`` matching any of ``patterns`` (all without)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed: list[str] = config["tool"]["mutmut"]["only_mutate"]
    chosen = [m for m in listed if not patterns or any(fnmatch(m, p) for p in patterns)]
    if not chosen:
        raise SystemExit(f"no module of only_mutate matches {' '.join(patterns)}")
    return chosen


def mutant_results(module: str) -> dict[str, int | None]:
    """Every mutant of ``module`` by name, with its mutmut exit code (None: not run)."""
    meta = ROOT / "mutants" / f"{module}.meta"
    data = json.loads(meta.read_text(encoding="utf-8"))
    results: dict[str, int | None] = data["exit_code_by_key"]
    return results


def generate() -> None:
    """Generate the mutants as the first step of ``mutmut run`` does."""
    os.chdir(ROOT)
    from mutmut.__main__ import create_mutants
    from mutmut.utils.file_utils import (
        copy_also_copy_files,
        copy_src_dir,
        setup_source_paths,
    )

    (ROOT / "mutants").mkdir(exist_ok=True)
    copy_src_dir()
    copy_also_copy_files()
    setup_source_paths()
    create_mutants(1)


def draw(
    names: list[str], size: int, whole_up_to: int, seed: int, module: str
) -> list[str]:
    """A seeded simple random sample of ``size`` names (all up to ``whole_up_to``)."""
    ordered = sorted(names)
    if len(ordered) <= max(size, whole_up_to):
        return ordered
    random.Random(f"{seed}:{module}").shuffle(ordered)
    return sorted(ordered[:size])


def main() -> int:
    """Draw the sample, record it, and run mutmut on it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, required=True, metavar="N")
    parser.add_argument("--whole-up-to", type=int, default=0, metavar="M")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--max-children", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="print the draw only")
    parser.add_argument("--rerun", action="store_true", help="run drawn mutants again")
    parser.add_argument("patterns", nargs="*", metavar="MODULE_GLOB")
    args = parser.parse_args()
    if args.sample < 1:
        parser.error("--sample must be at least 1")
    chosen = modules(args.patterns)
    if not all((ROOT / "mutants" / f"{m}.meta").exists() for m in chosen):
        generate()
    recorded = (
        json.loads(SAMPLE_FILE.read_text(encoding="utf-8"))
        if SAMPLE_FILE.exists()
        else {"modules": {}}
    )
    to_run: list[str] = []
    for module in chosen:
        results = mutant_results(module)
        sample = draw(list(results), args.sample, args.whole_up_to, args.seed, module)
        recorded["modules"][module] = {
            "mutants": len(results),
            "seed": args.seed,
            "sample_size": args.sample,
            "whole_up_to": max(args.sample, args.whole_up_to),
            "sample": sample,
        }
        to_run += [n for n in sample if args.rerun or results[n] is None]
    SAMPLE_FILE.write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")
    if args.list:
        sys.stdout.write("".join(f"{name}\n" for name in to_run))
        return 0
    if not to_run:
        sys.stdout.write("every drawn mutant has a result (--rerun runs them again)\n")
        return 0
    command = ["nice", "-n", "19", sys.executable, "-m", "mutmut", "run"]
    command += ["--max-children", str(args.max_children), *to_run]
    os.chdir(ROOT)
    os.execvp(command[0], command)


if __name__ == "__main__":
    sys.exit(main())
