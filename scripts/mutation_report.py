"""Print the mutation score per module from the results `mutmut run` left in mutants/.

Usage: ``python scripts/mutation_report.py`` (``nox -s mutation`` runs it last).

A mutant counts as killed when a test failed (or timed out) with it applied; the score
is killed / (killed + survived + no tests), over the mutants checked so far. Mutants
named in ``tests/mutation_equivalents.txt`` (``name: reason`` per line) behave exactly
like the original code; they are left out of the score and listed with their reason.
Every other survivor, and every mutant no test reached, counts against the score and
is listed by name: ``python -m mutmut show NAME`` prints its diff. Every module of
``only_mutate`` gets a row, also one whose mutants were not checked yet.
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections import Counter
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENTS = ROOT / "tests" / "mutation_equivalents.txt"
KILLED = {1: "killed", 3: "killed", 36: "timeout", 37: "killed"}
UNCHECKED = {None, 2, 34}


def equivalents() -> dict[str, str]:
    """Equivalent mutants by name, with the reason each changes nothing."""
    found: dict[str, str] = {}
    for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, reason = line.partition(":")
            found[name.strip()] = reason.strip()
    return found


def main() -> int:
    """Print the table; exit 1 when no results were found."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    modules = config["tool"]["mutmut"]["only_mutate"]
    known = equivalents()
    rows: list[tuple[str, Counter[str]]] = []
    open_survivors: list[str] = []
    listed_equivalents: list[str] = []
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        source = meta.relative_to(ROOT / "mutants").as_posix().removesuffix(".meta")
        if not any(fnmatch(source, pattern) for pattern in modules):
            continue
        results = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        counts: Counter[str] = Counter()
        for name, code in sorted(results.items()):
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
        rows.append((source, counts))
    if not rows:
        sys.stderr.write("no mutation results in mutants/: run `nox -s mutation`\n")
        return 1
    out = [
        "| module | mutants | not checked | killed | equivalent | survived | no tests "
        "| score |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total: Counter[str] = Counter()
    for source, counts in rows:
        total.update(counts)
        out.append(_row(f"`{source}`", counts))
    out.append(_row("**all**", total))
    for title, lines in (
        ("Surviving mutants", open_survivors),
        ("Equivalent mutants", listed_equivalents),
    ):
        out += ["", f"{title}: {len(lines)}", *lines]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _row(label: str, counts: Counter[str]) -> str:
    checked = counts["killed"] + counts["survived"] + counts["no tests"]
    score = f"{100 * counts['killed'] / checked:.1f}%" if checked else "n/a"
    mutants = checked + counts["equivalent"] + counts["not checked"]
    return (
        f"| {label} | {mutants} | {counts['not checked']} | {counts['killed']} "
        f"| {counts['equivalent']} | {counts['survived']} | {counts['no tests']} "
        f"| {score} |"
    )


if __name__ == "__main__":
    sys.exit(main())
