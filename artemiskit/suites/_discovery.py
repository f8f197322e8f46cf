"""Finding and loading a suite's workflows, all before any run starts."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from artemiskit._converter import CONVERTER
from artemiskit._digests import json_digest
from artemiskit._errors import ArtemisError, Problem, WorkflowError
from artemiskit.targets._scripted import (
    ScriptEntry,
    load_script_below,
    parse_script_variants,
)
from artemiskit.workflow import Workflow, load_agent_workflow

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.config import TrustedConfig

__all__ = ["SuiteWorkflow", "discover_workflows", "load_suite_workflows"]

_NAMES = ("workflow.yaml", "workflow.yml")
_SUFFIXES = (".workflow.yaml", ".workflow.yml")


@attrs.frozen(kw_only=True, repr=False)
class SuiteWorkflow:
    """One validated workflow of a suite, with what its runs need.

    Attributes:
        name: The workflow's unique name.
        path: Its file.
        workflow: The validated contract.
        digest: The digest of the contract (as records carry it).
        variants: For the offline ``scripted`` provider, the script's response
            lists (repetition r replays variant ``(r - 1) mod len``); else empty.
    """

    name: str
    path: Path
    workflow: Workflow
    digest: str
    variants: tuple[tuple[ScriptEntry, ...], ...] = ()

    def __repr__(self) -> str:
        return f"SuiteWorkflow(name={self.name!r})"


def _is_workflow_file(name: str) -> bool:
    return name in _NAMES or name.endswith(_SUFFIXES)


def discover_workflows(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The workflow files that ``paths`` name, folders expanded and sorted.

    A folder means every ``workflow.yaml``, ``*.workflow.yaml`` (and ``.yml``)
    below it. A file is taken as given.

    Raises:
        WorkflowError: A folder holds no workflow (``no_workflows``).
    """
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if not path.is_dir():
            found.append(path)
            continue
        below = sorted(
            Path(folder) / name
            for folder, _, names in os.walk(path)
            for name in names
            if _is_workflow_file(name)
        )
        if not below:
            raise WorkflowError(
                f"{os.fspath(given)}: the folder holds no workflow file "
                "(workflow.yaml, *.workflow.yaml, .yml)",
                reason="no_workflows",
            )
        found += below
    return found


async def _variants(
    workflow: Workflow, root: Path, config: TrustedConfig
) -> tuple[tuple[ScriptEntry, ...], ...]:
    """The script variants of a workflow that uses the offline scripted provider."""
    name = workflow.target.provider
    entry = config.providers.get(name)
    if entry is None and name != "scripted":
        return ()
    if entry is not None and entry.type != "scripted":
        return ()
    base = root
    if entry is not None and entry.scripts_dir is not None:
        base = root / entry.scripts_dir
    _, raw = await load_script_below(base, workflow.target.model)
    source = os.fspath(base / f"{workflow.target.model}.script.yaml")
    return parse_script_variants(raw.decode("utf-8"), source=source)


async def load_suite_workflows(
    paths: Sequence[str | os.PathLike[str]], config: TrustedConfig
) -> list[SuiteWorkflow]:
    """Discover, load and validate every workflow, script and fixture.

    Every file is checked before anything runs, and every problem is reported.

    Raises:
        WorkflowError: A folder holds no workflow, two workflows share a name, or
            any file is invalid (``invalid_suite``; all problems listed).
        FileAccessError: A named file cannot be read.
    """
    files = discover_workflows(paths)
    if not files:
        raise WorkflowError("no workflow was given", reason="no_workflows")
    problems: list[Problem] = []
    messages: list[str] = []
    loaded: list[SuiteWorkflow] = []
    seen: dict[str, Path] = {}
    for path in files:
        try:
            workflow = await load_agent_workflow(path)
            root = path.absolute().parent
            variants = await _variants(workflow, root, config)
            fixture = workflow.environment.fixture
            if fixture is not None and not (root / fixture).exists():
                raise WorkflowError(
                    f"{path}: the fixture {fixture!r} does not exist",
                    [
                        Problem(
                            message="fixture not found",
                            path="$.environment.fixture",
                            source=os.fspath(path),
                        )
                    ],
                    reason="fixture_not_found",
                )
        except WorkflowError as exc:
            problems += exc.problems
            messages.append(exc.message)
            continue
        except ArtemisError as exc:
            problems.append(Problem(message=exc.message, source=os.fspath(path)))
            messages.append(exc.message)
            continue
        if workflow.name in seen:
            problems.append(
                Problem(
                    message=f"duplicate workflow name {workflow.name!r} (also in "
                    f"{seen[workflow.name]}); names must be unique in a suite",
                    path="$.name",
                    source=os.fspath(path),
                )
            )
            messages.append("duplicate workflow name")
            continue
        seen[workflow.name] = path
        loaded.append(
            SuiteWorkflow(
                name=workflow.name,
                path=path,
                workflow=workflow,
                digest=json_digest(CONVERTER.unstructure(workflow)),
                variants=variants,
            )
        )
    if messages:
        count = len(messages)
        noun = "file" if count == 1 else "files"
        raise WorkflowError(
            f"the suite is invalid ({count} {noun} with problems); nothing ran",
            problems,
            reason="invalid_suite",
        )
    return loaded
