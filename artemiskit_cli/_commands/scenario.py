"""``akit scenario``: offline work on workflow files.

``validate`` parses and checks the contract only. It loads no fixture, creates no
environment, resolves no credentials and calls no model, and it imports neither the
HTTP nor the Docker client library, nor the workflow model classes: it runs the
loaders' checks (`read_agent_workflow_data`) without building the workflow.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from artemiskit import WorkflowError
from artemiskit.workflow import read_agent_workflow_data, unchecked_scorer_outcomes
from artemiskit_cli._errors import reports_errors
from artemiskit_cli._params import PathParam
from artemiskit_cli._render import printable, problem_line
from artemiskit_cli._tools import SCORERS_OPTION, TOOLS_OPTION

if TYPE_CHECKING:
    from artemiskit import Problem, Scorer, Tool

__all__ = ["scenario"]


@click.group()
def scenario() -> None:
    """Check workflow files offline."""


def _as_json(problem: Problem, fallback: str) -> dict[str, object]:
    return {
        "file": problem.source or fallback,
        "line": problem.line,
        "column": problem.column,
        "path": problem.path,
        "message": problem.message,
    }


@scenario.command("validate")
@click.argument(
    "workflow_file", metavar="WORKFLOW", type=PathParam(readable=False, dir_okay=True)
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the problems as a JSON list on stdout ([] when valid).",
)
@click.option(
    "--fixture-root",
    type=PathParam(readable=False, file_okay=False),
    help="Where a dataset resolves (default: the workflow's folder).",
)
@TOOLS_OPTION
@SCORERS_OPTION
@reports_errors
def validate(
    workflow_file: str,
    as_json: bool,
    fixture_root: str | None,
    tools: tuple[Tool, ...],
    scorers: tuple[Scorer, ...] | None,
) -> None:
    """Check WORKFLOW against the contract, offline.

    Exit 0 when valid, 2 when invalid (every problem listed as
    FILE:LINE:COLUMN: KEY-PATH: rule), 1 when the file cannot be read.
    Without --scorers, `scorer` outcomes are listed as unchecked. A workflow
    with cases is checked case by case (every expansion).
    """
    try:
        data = read_agent_workflow_data(
            workflow_file, tools=tools, scorers=scorers, fixture_root=fixture_root
        )
    except WorkflowError as exc:
        if as_json:
            listing = [_as_json(p, workflow_file) for p in exc.problems]
            click.echo(json.dumps(listing, indent=2, ensure_ascii=False))
        for problem in exc.problems:
            click.echo(problem_line(problem, workflow_file), err=True)
        count = len(exc.problems)
        noun = "problem" if count == 1 else "problems"
        raise WorkflowError(
            f"{workflow_file}: invalid workflow ({count} {noun})"
        ) from None
    if as_json:
        click.echo("[]")
    counts = {key: len(data.get(key, ())) for key in ("tools", "outcomes", "faults")}
    cases = ""
    if "cases" in data:
        cases = f", {len(data['cases'])} cases"
    elif "dataset" in data:
        cases = ", cases from its dataset"
    summary = (
        f"ok: {printable(workflow_file)} is a valid workflow "
        f"({counts['tools']} tools, {counts['outcomes']} outcomes, "
        f"{counts['faults']} faults{cases})"
    )
    click.echo(summary, err=True)
    unchecked = [] if scorers is not None else unchecked_scorer_outcomes(data)
    if unchecked:
        click.echo(
            f"unchecked: scorer outcomes {', '.join(unchecked)} (give --scorers "
            "MODULE:ATTR to check their scorer names and with:)",
            err=True,
        )
