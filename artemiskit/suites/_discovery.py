"""Finding and loading a suite's workflows, all before any run starts."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import attrs

from artemiskit._errors import ArtemisError, FixtureError, Problem, WorkflowError
from artemiskit.engine._evidence import contract_digest
from artemiskit.providers._registry import (
    ScriptVariants,
    load_script_variants,
    script_folder,
    script_key,
)
from artemiskit.suites._selection import (
    EVERY_CASE,
    CaseSelection,
    select_cases,
    unknown_case_ids,
)
from artemiskit.workflow import (
    CaseWorkflows,
    Workflow,
    load_agent_workflow,
    load_case_workflows,
    parse_yaml,
)
from artemiskit.workflow._fixture import load_fixture_state, merge_fixture

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.engine._scorer_set import ScorerSet
    from artemiskit.providers._config import TrustedConfig
    from artemiskit.providers._scripted import ScriptEntry
    from artemiskit.tools._catalogue import Catalogue

__all__ = [
    "SuiteWorkflow",
    "discover_workflows",
    "is_workflow_file",
    "load_suite_workflows",
    "workflow_script",
]

_NAMES = ("workflow.yaml", "workflow.yml")
_SUFFIXES = (".workflow.yaml", ".workflow.yml")


@attrs.frozen(kw_only=True, repr=False)
class SuiteWorkflow:
    """One validated workflow of a suite, with what its runs need.

    Attributes:
        name: The workflow's unique name.
        path: Its file.
        workflow: The validated contract.
        digest: The digest of the contract, its target section excluded (as
            records carry it).
        variants: For the offline ``scripted`` provider, the script's response
            lists (repetition r replays variant ``(r - 1) mod len``); else empty.
        script: For the ``scripted`` provider, the key its runs share the
            script under and the script as validated (variants and digest):
            runs replay these, never a copy of the file read later.
        cases: For a workflow with cases (SPEC 19), its cases; ``workflow``
            is then its first selected case's expansion.
        case_ids: The ids of the cases that run, in dataset order.
    """

    name: str
    path: Path
    workflow: Workflow
    digest: str
    script: tuple[str, ScriptVariants] | None = None
    cases: CaseWorkflows | None = None
    case_ids: tuple[str, ...] = ()

    @property
    def variants(self) -> tuple[tuple[ScriptEntry, ...], ...]:
        """The script's response lists, empty without a scripted provider."""
        if self.script is None:
            return ()
        from artemiskit.providers._scripted import script_variants

        return script_variants(self.script[1][0])

    def __repr__(self) -> str:
        return f"SuiteWorkflow(name={self.name!r})"


def is_workflow_file(name: str) -> bool:
    """Whether a file called ``name`` is a workflow a folder of a suite holds.

    Args:
        name: A file name (not a path): ``workflow.yaml``, ``*.workflow.yaml``
            and their ``.yml`` forms are workflows.

    Returns:
        ``True`` for a workflow file name.
    """
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
            if is_workflow_file(name)
        )
        if not below:
            raise WorkflowError(
                f"{os.fspath(given)}: the folder holds no workflow file "
                "(workflow.yaml, *.workflow.yaml, .yml)",
                reason="no_workflows",
            )
        found += below
    return found


async def _check_fixture(workflow: Workflow, path: Path) -> None:
    """Load the workflow's fixture as a run would; problems name their files.

    Raises:
        FixtureError: The fixture is missing, unsafe or invalid.
    """
    reference = workflow.environment.fixture
    assert reference is not None
    folder = path.parent
    try:
        contents = await load_fixture_state(reference, fixture_root=folder)
        merge_fixture(workflow.environment, contents)
    except FixtureError as exc:
        # A refused reference is a problem of the workflow's own key.
        text = await anyio.Path(path).read_text("utf-8")
        doc = parse_yaml(text, source=os.fspath(path))
        named = [
            doc.problem(p.message, ("environment", "fixture"))
            if p.source == reference
            else p
            for p in exc.problems
        ]
        raise FixtureError(f"{path}: {exc.message}", named) from None


def _unknown_provider(path: Path, name: str, config: TrustedConfig) -> WorkflowError:
    where = "no trusted configuration was given"
    if config.source is not None:
        where = f"the trusted configuration {config.source} has no such entry"
    text = path.read_text("utf-8")
    problem = parse_yaml(text, source=os.fspath(path)).problem(
        f"provider {name!r} has no entry: {where}", ("target", "provider")
    )
    return WorkflowError(
        f"{path}: provider {name!r} has no entry", [problem], reason="unknown_provider"
    )


async def workflow_script(
    workflow: Workflow, path: Path, root: Path, config: TrustedConfig
) -> tuple[str, ScriptVariants] | None:
    """The script of a workflow that uses the offline scripted provider, read once.

    Returns:
        The key its runs share it under and the script, or ``None`` for
        another provider type.

    Raises:
        WorkflowError: The provider has no entry, or the script is invalid.
    """
    name = workflow.target.provider
    entry = config.providers.get(name)
    if entry is None and name != "scripted":
        raise _unknown_provider(path, name, config)
    if entry is not None and entry.type != "scripted":
        return None
    folder = script_folder(None if entry is None else entry.scripts_dir, root)
    model = workflow.target.model
    return script_key(folder, model), await load_script_variants(folder, model)


def _check_case_scripts(
    document: Any, cases: CaseWorkflows, case_ids: Sequence[str]
) -> None:
    """Check the script each selected case replays (filled from its values).

    Raises:
        WorkflowError: A case's script lists break the format or use a name
            the case lacks.
    """
    from artemiskit.providers._scripted import ScriptCase, script_variants

    for case_id in case_ids:
        chosen = cases.case(case_id)
        script_variants(document, ScriptCase(chosen.id, chosen.values))


async def load_suite_workflows(
    paths: Sequence[str | os.PathLike[str]],
    config: TrustedConfig,
    *,
    tools: Catalogue | None = None,
    scorers: ScorerSet | None = None,
    selection: CaseSelection = EVERY_CASE,
    scripts: bool = True,
) -> list[SuiteWorkflow]:
    """Discover, load and validate every workflow, script and fixture.

    Every file is checked before anything runs, and every problem is reported.
    ``tools`` are the user-defined tools the workflows may declare, ``scorers``
    the scorers their ``scorer`` outcomes may name. A workflow with cases is
    checked case by case (every case's expansion, and its script for every
    selected case); ``selection`` picks the cases that run, and a ``--case``
    id no workflow has is refused (``unknown_case``).
    Without ``scripts`` (a full replay, SPEC 22: cassettes answer every model
    request) the scripted provider's scripts are neither needed nor read.

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
    every_id: list[tuple[str, ...]] = []
    for path in files:
        cases = None
        case_ids: tuple[str, ...] = ()
        try:
            try:
                workflow = await load_agent_workflow(
                    path, tools=tools, scorers=scorers or ()
                )
            except WorkflowError as exc:
                if exc.reason != "has_cases":
                    raise
                cases = await load_case_workflows(
                    path, tools=tools, scorers=scorers or ()
                )
                every_id.append(cases.case_ids)
                case_ids = select_cases(cases.case_ids, selection)
                if not case_ids:
                    continue  # none of its cases was asked for
                workflow = cases.case(case_ids[0]).workflow
            root = path.absolute().parent
            script = (
                await workflow_script(workflow, path, root, config) if scripts else None
            )
            if script is not None and cases is not None:
                _check_case_scripts(script[1][0], cases, case_ids)
            fixture = workflow.environment.fixture
            if fixture is not None:
                await _check_fixture(workflow, path)
        except WorkflowError as exc:
            problems += exc.problems or [
                Problem(message=exc.message, source=os.fspath(path))
            ]
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
                digest=contract_digest(workflow) if cases is None else cases.digest,
                script=script,
                cases=cases,
                case_ids=case_ids,
            )
        )
    unknown = unknown_case_ids(selection, every_id)
    if unknown and not messages:
        listed = ", ".join(repr(case) for case in unknown)
        raise WorkflowError(
            f"no workflow of the suite has the case {listed}",
            [Problem(message=f"no workflow has the case {listed}")],
            reason="unknown_case",
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
