"""Loading a workflow: YAML → JSON Schema → semantic checks → frozen attrs classes.

Every stage reports all of its problems; a workflow is structured only when none was
found, and the single `WorkflowError` raised lists every problem in file order.
Loading never reads a referenced fixture, resolves credentials or touches the network.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
from typing import Any

import cattrs

from artemiskit._common._converter import CONVERTER
from artemiskit._common._paths import normalize_path
from artemiskit._common._reading import read_text_file
from artemiskit._common._yaml import KeyPath, YamlDocument, format_path, parse_yaml
from artemiskit._errors import Problem, WorkflowError
from artemiskit.workflow._checks import semantic_problems
from artemiskit.workflow._model import Workflow
from artemiskit.workflow._schema import SchemaChecker

__all__ = [
    "MAX_WORKFLOW_FILE_BYTES",
    "WORKFLOW_SCHEMA_FILE",
    "load_agent_workflow",
    "parse_agent_workflow",
    "validate_agent_workflow",
    "workflow_schema_checker",
]

#: The JSON Schema of workflow version 1, shipped in the package.
WORKFLOW_SCHEMA_FILE = pathlib.Path(__file__).with_name("workflow.schema.json")
#: A workflow file larger than this is refused before it is parsed.
MAX_WORKFLOW_FILE_BYTES = 4 * 1024 * 1024


@functools.cache
def workflow_schema_checker() -> SchemaChecker:
    """Return the workflow schema, loaded and compiled once on first use."""
    schema = json.loads(WORKFLOW_SCHEMA_FILE.read_text(encoding="utf-8"))
    return SchemaChecker(schema)


def _under(problem_path: str, path: str) -> bool:
    if not problem_path.startswith(path):
        return False
    rest = problem_path[len(path) :]
    return not rest or rest[0] in ".["


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.line or 0, p.column or 0))


def _problems(text: str, source: str) -> tuple[YamlDocument | None, list[Problem]]:
    """Run every check; return the parsed document and every problem found."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_WORKFLOW_FILE_BYTES:
        limit = MAX_WORKFLOW_FILE_BYTES
        message = (
            f"workflow is larger than {limit // (1024 * 1024)} MiB ({limit} bytes)"
        )
        return None, [Problem(message=message, source=source)]
    try:
        doc = parse_yaml(text, source=source)
    except WorkflowError as exc:
        return None, list(exc.problems)
    found = workflow_schema_checker().problems(doc.data, doc)
    broken = [p.path for p in found]

    def sound(path: KeyPath) -> bool:
        rendered = format_path(path)
        return not any(_under(b, rendered) for b in broken)

    found += semantic_problems(doc.data, doc, sound)
    return doc, _sorted(found)


def _canonical(data: dict[str, Any]) -> dict[str, Any]:
    """Normalize environment paths (``./a//b`` → ``a/b``) before structuring."""
    data = dict(data)
    data["version"] = 1  # the schema accepted 1 (YAML may have written 1.0)
    env = data.get("environment")
    if isinstance(env, dict) and "files" in env:
        files = {normalize_path(k): v for k, v in env["files"].items()}
        data["environment"] = {**env, "files": files}
    outcomes = data.get("outcomes")
    if isinstance(outcomes, list):
        data["outcomes"] = [
            {**o, "file": normalize_path(o["file"])} if "file" in o else o
            for o in outcomes
        ]
    return data


def _structure(doc: YamlDocument) -> Workflow:
    try:
        return CONVERTER.structure(_canonical(doc.data), Workflow)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
        problems = []
        lines = (
            cattrs.transform_error(exc)
            if isinstance(exc, cattrs.BaseValidationError)
            else [f"does not fit the workflow model ({type(exc).__name__})"]
        )
        for line in lines:
            message, _, path = line.partition(" @ ")
            problems.append(
                Problem(message=message, path=path or "$", source=doc.source)
            )
        raise WorkflowError(f"{doc.source}: invalid workflow", problems) from None


def parse_agent_workflow(text: str, *, source: str = "<string>") -> Workflow:
    """Parse and validate a workflow from YAML text.

    Args:
        text: The workflow YAML.
        source: The file name used in problems.

    Returns:
        The validated, frozen workflow. Paths under ``environment.files`` and of
        ``file`` outcomes are normalized; ``${X}`` stays literal text.

    Raises:
        WorkflowError: The text breaks the contract; ``.problems`` lists every
            problem with its key path, line and column.
    """
    doc, problems = _problems(text, source)
    if problems or doc is None:
        count = len(problems)
        noun = "problem" if count == 1 else "problems"
        raise WorkflowError(f"{source}: invalid workflow ({count} {noun})", problems)
    return _structure(doc)


def validate_agent_workflow(text: str, *, source: str = "<string>") -> list[Problem]:
    """Check a workflow offline and list its problems instead of raising.

    Args:
        text: The workflow YAML.
        source: The file name used in problems.

    Returns:
        Every problem found, in file order; empty when the workflow is valid.
    """
    try:
        parse_agent_workflow(text, source=source)
    except WorkflowError as exc:
        return list(exc.problems)
    return []


async def load_agent_workflow(path: str | os.PathLike[str]) -> Workflow:
    """Read and validate a workflow file (its fixture is not loaded).

    Args:
        path: The workflow file.

    Returns:
        The validated, frozen workflow.

    Raises:
        FileAccessError: The file is missing or unreadable (exit 1).
        WorkflowError: The file is too large (over 4 MiB), not UTF-8, or breaks
            the contract (exit 2).
    """
    source = os.fspath(path)
    text = await read_text_file(
        source,
        what="workflow",
        limit=MAX_WORKFLOW_FILE_BYTES,
        invalid=lambda problem: WorkflowError(f"{source}: invalid workflow", [problem]),
    )
    return parse_agent_workflow(text, source=source)
