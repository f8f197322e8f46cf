"""Print the mutation score per module from the results `mutmut run` left in mutants/.

Usage: ``python scripts/mutation_report.py`` (``nox -s mutation`` runs it last).

A mutant counts as killed when a test failed (or timed out) with it applied; the score
is killed / (killed + survived + no tests), over the mutants checked so far. Mutants
named in ``tests/mutation_equivalents.txt`` (``name: reason`` per line) behave exactly
like the original code; they are left out of the score and listed with their reason.
Every other survivor, and every mutant no test reached, counts against the score and
is listed by name: ``python -m mutmut show NAME`` prints its diff. Every module of
``only_mutate`` gets a row, also one whose mutants were not checked yet.

A module sampled by ``scripts/mutation_sample.py`` (its draw is in
``mutants/mutation-sample.json``) is counted over its drawn mutants only: ``run``
says "sample of N", and the score, an estimate of the whole module's, comes with its
95% Wilson interval. A module run whole says "all" and needs no interval. The last
row pools every checked mutant (samples and whole modules alike, unweighted).
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from artemiskit._common._statistics import wilson_interval  # noqa: E402

EQUIVALENTS = ROOT / "tests" / "mutation_equivalents.txt"
SAMPLE = ROOT / "mutants" / "mutation-sample.json"
# mutmut's exit codes (mutmut.stats.status_by_exit_code): a timeout, its own (36) or
# the CPU-time limit's SIGXCPU (-24, 24, 152) or 255, counts as a kill.
KILLED = {
    1: "killed",
    3: "killed",
    36: "timeout",
    37: "killed",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "timeout",
}
UNCHECKED = {None, 2, 34}


def equivalents() -> dict[str, str]:
    """Equivalent mutants by name, with the reason each changes nothing."""
    found: dict[str, str] = {}
    for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, reason = line.partition(":")
            found[name.strip()] = reason.strip()
    return found


def sampled() -> dict[str, list[str]]:
    """The drawn mutants of each sampled module (``scripts/mutation_sample.py``)."""
    if not SAMPLE.exists():
        return {}
    drawn = json.loads(SAMPLE.read_text(encoding="utf-8"))["modules"]
    return {
        module: entry["sample"]
        for module, entry in drawn.items()
        if len(entry["sample"]) < entry["mutants"]
    }


def main() -> int:
    """Print the table; exit 1 when no results were found."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    modules = config["tool"]["mutmut"]["only_mutate"]
    known = equivalents()
    samples = sampled()
    rows: list[tuple[str, int, Counter[str], bool]] = []
    open_survivors: list[str] = []
    listed_equivalents: list[str] = []
    for source in modules:
        meta = ROOT / "mutants" / f"{source}.meta"
        if not meta.exists():
            rows.append((source, 0, Counter(), False))
            continue
        results = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        drawn = samples.get(source)
        counted = {n: results.get(n) for n in drawn} if drawn else results
        counts: Counter[str] = Counter()
        for name, code in sorted(counted.items()):
            if code in UNCHECKED:
                counts["not checked"] += 1
            elif code in KILLED:
                counts["killed"] += 1
            elif name in known:
                counts["equivalent"] += 1
                listed_equivalents.append(f"- `{name}`: {known[name]}")
            else:
                counts["survived" if code == 0 else "no tests"] += 1
                open_survivors.append(
                    f"- `{name}` ({'survived' if code == 0 else 'no tests'})"
                )
        rows.append((source, len(results), counts, drawn is not None))
    if not any(total for _, total, _, _ in rows):
        sys.stderr.write("no mutation results in mutants/: run `nox -s mutation`\n")
        return 1
    out = [
        "| module | mutants | run | not checked | killed | equivalent | survived "
        "| no tests | score | 95% interval |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    pooled: Counter[str] = Counter()
    population = 0
    for source, total, counts, is_sample in rows:
        pooled.update(counts)
        population += total
        out.append(_row(f"`{source}`", total, counts, sample=is_sample))
    out.append(_row("**all checked**", population, pooled, sample=None))
    for title, lines in (
        ("Surviving mutants", open_survivors),
        ("Equivalent mutants", listed_equivalents),
    ):
        out += ["", f"{title}: {len(lines)}", *lines]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _row(label: str, total: int, counts: Counter[str], *, sample: bool | None) -> str:
    """One table row; ``sample`` is None for the pooled row (samples and wholes)."""
    if not total:
        return f"| {label} | not generated | | | | | | | n/a | |"
    checked = counts["killed"] + counts["survived"] + counts["no tests"]
    score = f"{100 * counts['killed'] / checked:.1f}%" if checked else "n/a"
    drawn = checked + counts["equivalent"] + counts["not checked"]
    run = f"sample of {drawn}" if sample else "all" if sample is False else "pooled"
    interval = ""
    if sample and checked:
        bounds = wilson_interval(counts["killed"], checked)
        assert bounds is not None
        interval = f"{100 * bounds.low:.1f}% to {100 * bounds.high:.1f}%"
    return (
        f"| {label} | {total} | {run} | {counts['not checked']} | {counts['killed']} "
        f"| {counts['equivalent']} | {counts['survived']} | {counts['no tests']} "
        f"| {score} | {interval} |"
    )


if __name__ == "__main__":
    sys.exit(main())
