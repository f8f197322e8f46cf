"""``akit validate``: check prompt-response scenario files offline.

The TypeScript ``artemiskit validate``: exit 0 when every file is valid (warnings
allowed unless ``--strict``), 1 when any is invalid, 2 when no file matched or a
file is another kind of ArtemisKit file (a workflow belongs to ``akit scenario
validate``).
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any

import anyio
import click

from artemiskit import (
    ArtemisError,
    FileAccessError,
    WorkflowError,
)
from artemiskit.prompt_response import (
    PromptResponseExitCode,
    discover_scenario_files,
    load_scenario,
)
from artemiskit_cli._params import PathParam
from artemiskit_cli._render import printable, problem_line

if TYPE_CHECKING:
    from artemiskit import Problem
    from artemiskit.prompt_response import Scenario

__all__ = ["shown_path", "validate"]

_MANY_CASES = 20


def shown_path(path: str) -> str:
    """``path`` relative to the current folder when it lies below it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _issue(problem: Problem) -> dict[str, Any]:
    issue: dict[str, Any] = {"line": problem.line or 1}
    if problem.column is not None:
        issue["column"] = problem.column
    issue.update(
        message=f"{problem.path}: {problem.message}", rule="schema", severity="error"
    )
    return issue


def _has_criteria(value: Any) -> bool:
    if isinstance(value, dict):
        return "criteria" in value or any(_has_criteria(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_criteria(v) for v in value)
    return False


def _warnings(scenario: Scenario) -> list[dict[str, Any]]:
    found = []
    if scenario.description is None:
        found.append(
            {
                "line": 1,
                "message": "missing description",
                "rule": "description",
                "severity": "warning",
            }
        )
    if len(scenario.cases) > _MANY_CASES:
        found.append(
            {
                "line": 1,
                "message": f"{len(scenario.cases)} cases: consider splitting "
                "the file or running files with --parallel",
                "rule": "case-count",
                "severity": "warning",
            }
        )
    if any(_has_criteria(case.expected) for case in scenario.cases):
        found.append(
            {
                "line": 1,
                "message": "'criteria' is deprecated; use 'rubric'",
                "rule": "deprecated",
                "severity": "warning",
            }
        )
    return found


def _check(path: str, explicit: bool) -> dict[str, Any] | None:
    errors: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []
    try:
        scenario = anyio.run(
            lambda: load_scenario(path, environ={}, check_variables=True)
        )
    except WorkflowError as exc:
        if exc.reason == "not_a_scenario":
            if explicit:
                click.echo(f"error: {printable(exc.message)}", err=True)
                sys.exit(PromptResponseExitCode.WRONG_INPUT)
            click.echo(f"notice: skipped {printable(exc.message)}", err=True)
            return None
        for problem in exc.problems:
            click.echo(problem_line(problem, path), err=True)
        errors = [_issue(problem) for problem in exc.problems]
    else:
        warnings = _warnings(scenario)
        for warning in warnings:
            click.echo(printable(f"{path}: warning: {warning['message']}"), err=True)
    return {"file": path, "valid": not errors, "errors": errors, "warnings": warnings}


@click.command("validate")
@click.argument(
    "paths", nargs=-1, required=True, metavar="PATH...", type=PathParam(readable=False)
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--strict", is_flag=True, help="Count warnings as errors.")
@click.option("-q", "--quiet", is_flag=True, help="Print only errors.")
def validate(paths: tuple[str, ...], as_json: bool, strict: bool, quiet: bool) -> None:
    """Check prompt-response scenario files (files, folders or globs), offline.

    Exit 0 when valid, 1 when a file is invalid (every problem listed as
    FILE:LINE:COL: KEY-PATH: rule), 2 when nothing matched or a file is a
    workflow, record or suite (use `akit scenario validate` for workflows).
    """
    files: list[tuple[str, bool]] = []
    try:
        for given in paths:
            explicit = os.path.isfile(given) and not ("*" in given or "?" in given)
            found = discover_scenario_files(given)
            files += [(shown_path(path), explicit) for path in found]
    except FileAccessError as exc:
        click.echo(f"error: {printable(exc)}", err=True)
        sys.exit(PromptResponseExitCode.WRONG_INPUT)
    if not files:
        click.echo("error: no scenario files matched", err=True)
        sys.exit(PromptResponseExitCode.WRONG_INPUT)
    try:
        checked = [_check(path, explicit) for path, explicit in files]
    except ArtemisError as exc:
        click.echo(f"error: {printable(exc)}", err=True)
        sys.exit(PromptResponseExitCode.FAILED)
    results = [result for result in checked if result is not None]
    for result in results:
        if strict and result["warnings"]:
            result["valid"] = False
    failed = sum(1 for r in results if not r["valid"])
    if as_json:
        summary = {
            "total": len(results),
            "passed": len(results) - failed,
            "failed": failed,
            "withWarnings": sum(1 for r in results if r["warnings"]),
        }
        report = {"valid": failed == 0, "results": results, "summary": summary}
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    elif not quiet:
        for result in results:
            mark = "ok" if result["valid"] else "invalid"
            click.echo(f"{mark}: {printable(result['file'])}", err=True)
    sys.exit(PromptResponseExitCode.FAILED if failed else PromptResponseExitCode.OK)
