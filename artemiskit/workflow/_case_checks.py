"""Checking a workflow that has cases (SPEC section 19), from its keys to every case.

In order, each step only when the ones before found nothing: ``cases:`` and
``dataset:`` (one, of the right shape); no ``{{`` where the workflow stays fixed;
every placeholder well formed; the cases read (inline, or the dataset below the
fixture root); every case's expansion checked against the contract.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from artemiskit._common._paths import path_problem
from artemiskit._errors import WorkflowError
from artemiskit.workflow._cases import MAX_CASES
from artemiskit.workflow._dataset import DATASET_SUFFIXES, inline_cases, read_dataset
from artemiskit.workflow._expansion import (
    case_problems,
    fixed_problems,
    template_sites,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from artemiskit._common._yaml import ParsedYaml
    from artemiskit._errors import Problem
    from artemiskit.workflow._cases import Case
    from artemiskit.workflow._expansion import Site

__all__ = ["CaseSet", "case_set"]


class CaseSet:
    """A checked workflow's cases and the sites they fill.

    Args:
        cases: The cases in order.
        sites: The workflow's sites.
        source: The file the cases are in (the dataset, or the workflow).
    """

    __slots__ = ("cases", "sites", "source")

    def __init__(self, cases: tuple[Case, ...], sites: list[Site], source: str) -> None:
        self.cases = cases
        self.sites = sites
        self.source = source

    def __repr__(self) -> str:
        return f"CaseSet(cases={len(self.cases)}, sites={len(self.sites)})"


def _key_problems(doc: ParsedYaml) -> list[Problem]:
    data = doc.data
    if "cases" in data and "dataset" in data:
        message = "give `cases:` (inline) or `dataset:` (a file), not both"
        return [doc.problem(message, ("dataset",), at_key=True)]
    if "cases" in data:
        cases = data["cases"]
        if not isinstance(cases, list) or not cases:
            message = "`cases` is a non-empty list of mappings"
            return [doc.problem(message, ("cases",))]
        if len(cases) > MAX_CASES:
            message = f"a workflow holds at most {MAX_CASES} cases"
            return [doc.problem(message, ("cases",))]
        return []
    dataset = data["dataset"]
    if not isinstance(dataset, str):
        return [
            doc.problem("`dataset` is a file name under the fixture root", ("dataset",))
        ]
    problem = path_problem(dataset)
    if problem is None and not dataset.lower().endswith(DATASET_SUFFIXES):
        problem = "a dataset is a .jsonl, .json, .yaml, .yml or .csv file"
    return [] if problem is None else [doc.problem(problem, ("dataset",))]


def case_set(
    doc: ParsedYaml,
    root: str | os.PathLike[str],
    check: Callable[[ParsedYaml], list[Problem]],
) -> tuple[CaseSet | None, list[Problem]]:
    """Read and check a workflow's cases.

    Args:
        doc: The parsed workflow, with ``cases:`` or ``dataset:``.
        root: The fixture root a ``dataset:`` is read below.
        check: The contract's checks of one expanded workflow.

    Returns:
        The cases and sites (``None`` when they could not be read), and every
        problem found.
    """
    problems = _key_problems(doc) + fixed_problems(doc)
    sites, malformed = template_sites(doc)
    problems += malformed
    if problems:
        return None, sorted(problems, key=lambda p: (p.line or 0, p.column or 0))
    try:
        if "cases" in doc.data:
            cases, source = inline_cases(doc), doc.source
        else:
            cases = read_dataset(root, doc.data["dataset"])
            source = os.path.join(os.fspath(root), doc.data["dataset"])
    except WorkflowError as exc:
        return None, list(exc.problems)
    found = CaseSet(cases, sites, source)
    return found, case_problems(doc, sites, cases, source, check)
