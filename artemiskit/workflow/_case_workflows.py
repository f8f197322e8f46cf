"""A workflow with cases, loaded: its cases, and each case's expansion on demand.

Loading checks the workflow and every case's expansion (as ``akit scenario
validate`` does) before anything runs; `CaseWorkflows.case` then builds one case's
`Workflow` (the expansion, structured) when that case runs, so 10,000 cases are
never held as 10,000 workflows.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._digests import json_digest
from artemiskit._common._reading import read_text_file_now
from artemiskit._common._yaml import ParsedYaml
from artemiskit._errors import Problem, WorkflowError
from artemiskit.workflow._case_keys import CASE_KEYS
from artemiskit.workflow._declared_tools import DeclaredTools, declared_tools
from artemiskit.workflow._expansion import expand, fill_sites
from artemiskit.workflow._loader import _scorers, _structure
from artemiskit.workflow._model import Workflow
from artemiskit.workflow._validation import (
    MAX_WORKFLOW_FILE_BYTES,
    invalid_workflow,
    workflow_problems,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.workflow._case_checks import CaseSet
    from artemiskit.workflow._checks import DeclaredTool
    from artemiskit.workflow._declared_scorers import DeclaredScorer, DeclaredScorers

__all__ = [
    "CaseWorkflows",
    "WorkflowCase",
    "has_cases",
    "load_case_workflows",
    "read_case_workflows",
]


@attrs.frozen(kw_only=True)
class WorkflowCase:
    """One case of a workflow with cases, ready to run.

    Attributes:
        id: The case id.
        digest: The digest of the case's values (what a record carries).
        line: The line of the dataset (or workflow) the case starts on.
        workflow: The workflow with the case's values filled in.
        values: The case's values (sensitive: never in evidence).
    """

    id: str
    digest: str
    line: int
    workflow: Workflow
    values: Mapping[str, object] = attrs.field(repr=False)


@attrs.frozen(kw_only=True)
class CaseWorkflows:
    """A checked workflow with cases: its name, case ids and expansions.

    Attributes:
        name: The workflow's name.
        source: The workflow file.
        digest: The digest of the workflow as written (with its placeholders).
        case_ids: Every case id, in dataset order.
    """

    name: str
    source: str
    digest: str
    case_ids: tuple[str, ...] = attrs.field(repr=lambda ids: f"<{len(ids)} cases>")
    _expand: Callable[[str], WorkflowCase] = attrs.field(alias="expand", repr=False)

    def case(self, case_id: str) -> WorkflowCase:
        """The expansion of one case.

        Raises:
            WorkflowError: No case has this id (``unknown_case``, exit 2).
        """
        return self._expand(case_id)


def _expander(
    workflow_source: str, doc: ParsedYaml, cases: CaseSet
) -> Callable[[str], WorkflowCase]:
    """Build one case's `WorkflowCase` by id, from the checked workflow."""
    index = {case.id: i for i, case in enumerate(cases.cases)}

    def expand_case(case_id: str) -> WorkflowCase:
        position = index.get(case_id)
        if position is None:
            message = f"no case has the id {case_id!r}"
            raise WorkflowError(
                f"{workflow_source}: {message}",
                [Problem(message=message, path="$", source=cases.source)],
                reason="unknown_case",
            )
        found = cases.cases[position]
        filled, _ = fill_sites(cases.sites, found.values)
        expanded = ParsedYaml(
            data=expand(doc.data, cases.sites, filled),
            source=doc.source,
            positions=doc.positions,
            key_positions=doc.key_positions,
        )
        return WorkflowCase(
            id=found.id,
            digest=json_digest(dict(found.values)),
            line=found.line,
            workflow=_structure(expanded),
            values=found.values,
        )

    return expand_case


def has_cases(data: Mapping[str, Any]) -> bool:
    """Whether parsed workflow data gives cases (``cases:`` or ``dataset:``)."""
    return any(key in data for key in CASE_KEYS)


def read_case_workflows(
    path: str | os.PathLike[str],
    *,
    tools: Sequence[DeclaredTool] | DeclaredTools[DeclaredTool] | None = None,
    scorers: Sequence[DeclaredScorer] | DeclaredScorers[DeclaredScorer] | None = None,
    fixture_root: str | os.PathLike[str] | None = None,
) -> CaseWorkflows:
    """Read a workflow with cases and check every case's expansion.

    Args:
        path: The workflow file.
        tools: User-defined tools the workflow may declare.
        scorers: Registered scorers (``None`` leaves ``scorer`` outcomes
            unchecked).
        fixture_root: Where its dataset resolves (default: the file's folder).

    Raises:
        FileAccessError: The workflow file cannot be read (exit 1).
        WorkflowError: The workflow, its dataset or a case's expansion breaks
            the contract, or the workflow has no cases (exit 2).
    """
    source = os.fspath(path)
    text = read_text_file_now(
        source,
        what="workflow",
        limit=MAX_WORKFLOW_FILE_BYTES,
        invalid=lambda problem: WorkflowError(f"{source}: invalid workflow", [problem]),
    )
    found: list[CaseSet] = []
    doc, problems = workflow_problems(
        text,
        source,
        declared_tools(tools),
        _scorers(scorers),
        fixture_root=fixture_root,
        case_sets=found,
    )
    if problems or doc is None:
        raise invalid_workflow(source, problems)
    if not found:
        message = "the workflow has no cases (give cases: or dataset:)"
        raise invalid_workflow(source, [doc.problem(message, ())])
    (cases,) = found
    import hashlib

    return CaseWorkflows(
        name=str(doc.data["name"]),
        source=source,
        digest="sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest(),
        case_ids=tuple(case.id for case in cases.cases),
        expand=_expander(source, doc, cases),
    )


async def load_case_workflows(
    path: str | os.PathLike[str],
    *,
    tools: Sequence[DeclaredTool] | DeclaredTools[DeclaredTool] | None = None,
    scorers: Sequence[DeclaredScorer] | DeclaredScorers[DeclaredScorer] | None = None,
    fixture_root: str | os.PathLike[str] | None = None,
) -> CaseWorkflows:
    """`read_case_workflows` in a worker thread (the dataset may be large)."""
    import functools

    import anyio.to_thread

    return await anyio.to_thread.run_sync(
        functools.partial(
            read_case_workflows,
            path,
            tools=tools,
            scorers=scorers,
            fixture_root=fixture_root,
        )
    )
