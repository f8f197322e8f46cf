"""Loading a workflow: YAML → JSON Schema → semantic checks → frozen attrs classes.

The checks are `workflow_problems` (``_validation.py``), the same that
`read_agent_workflow_data` runs. Every stage reports all of its problems; a workflow is
structured only when none was found, and the single `WorkflowError` raised lists
every problem in file order. Loading never reads a referenced fixture, resolves
credentials or touches the network.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import cattrs

from artemiskit._common._converter import CONVERTER
from artemiskit._common._paths import normalize_path
from artemiskit._common._reading import read_text_file, read_text_file_now
from artemiskit._errors import Problem, WorkflowError
from artemiskit.workflow._case_keys import CASE_KEYS
from artemiskit.workflow._declared_scorers import DeclaredScorers, declared_scorers
from artemiskit.workflow._declared_tools import (
    DeclaredTools,
    builtin_declared_tools,
    declared_tools,
)
from artemiskit.workflow._model import Workflow
from artemiskit.workflow._tool_schema import WORKFLOW_SCHEMA_FILE, schema_checker_for
from artemiskit.workflow._validation import (
    MAX_WORKFLOW_FILE_BYTES,
    invalid_workflow,
    workflow_problems,
)

__all__ = [
    "MAX_WORKFLOW_FILE_BYTES",
    "WORKFLOW_SCHEMA_FILE",
    "load_agent_workflow",
    "parse_agent_workflow",
    "read_agent_workflow",
    "validate_agent_workflow",
    "workflow_schema_checker",
]

#: How many validated workflow files `load_agent_workflow` remembers.
LOADED_CACHE_SIZE = 64


if TYPE_CHECKING:
    from artemiskit._common._yaml import ParsedYaml
    from artemiskit.workflow._checks import DeclaredTool
    from artemiskit.workflow._declared_scorers import DeclaredScorer
    from artemiskit.workflow._schema import SchemaChecker

#: User-defined tools as the loaders accept them: `Tool` objects (or their
#: interfaces), or a tool catalogue already made.
Tools = Sequence["DeclaredTool"] | DeclaredTools["DeclaredTool"] | None
#: Registered scorers as the loaders accept them: `Scorer` objects, or a
#: `ScorerSet` already made; ``None`` leaves ``scorer`` outcomes unchecked.
Scorers = Sequence["DeclaredScorer"] | DeclaredScorers["DeclaredScorer"] | None


#: Registered scorers once made into a set (``None``: unchecked).
_Registered = DeclaredScorers["DeclaredScorer"] | None


def _scorers(scorers: Scorers) -> _Registered:
    return None if scorers is None else declared_scorers(scorers)


def workflow_schema_checker(
    catalogue: Mapping[str, Any] | None = None,
) -> SchemaChecker:
    """Return the workflow schema for a catalogue, compiled once on first use."""
    return schema_checker_for(
        builtin_declared_tools() if catalogue is None else catalogue
    )


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


def _structure(doc: ParsedYaml) -> Workflow:
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


def parse_agent_workflow(
    text: str,
    *,
    source: str = "<string>",
    tools: Tools = None,
    scorers: Scorers = None,
) -> Workflow:
    """Parse and validate a workflow from YAML text.

    Args:
        text: The workflow YAML.
        source: The file name used in problems.
        tools: User-defined tools the workflow may declare beside the built-ins.
        scorers: Registered scorers: ``scorer`` outcomes must name one and
            satisfy its ``params_schema``; ``None`` leaves them unchecked (a
            session checks them when it is created).

    Returns:
        The validated, frozen workflow. Paths under ``environment.files`` and of
        ``file`` outcomes are normalized; ``${X}`` stays literal text.

    Raises:
        WorkflowError: The text breaks the contract; ``.problems`` lists every
            problem with its key path, line and column.
        ToolDefinitionError: ``tools`` is invalid or a name clashes.
    """
    doc, problems = workflow_problems(
        text, source, declared_tools(tools), _scorers(scorers)
    )
    if problems or doc is None:
        raise invalid_workflow(source, problems)
    if any(key in doc.data for key in CASE_KEYS):
        message = (
            "a workflow with cases runs one case at a time: run it as a suite, or"
            " pick one case (akit workflow run --case ID)"
        )
        key = "cases" if "cases" in doc.data else "dataset"
        problem = doc.problem(message, (key,), at_key=True)
        raise WorkflowError(
            f"{source}: a workflow with cases", [problem], reason="has_cases"
        )
    return _structure(doc)


def validate_agent_workflow(
    text: str,
    *,
    source: str = "<string>",
    tools: Tools = None,
    scorers: Scorers = None,
) -> list[Problem]:
    """Check a workflow offline and list its problems instead of raising.

    Args:
        text: The workflow YAML.
        source: The file name used in problems.
        tools: User-defined tools the workflow may declare beside the built-ins.
        scorers: Registered scorers: ``scorer`` outcomes must name one and
            satisfy its ``params_schema``; ``None`` leaves them unchecked (a
            session checks them when it is created).

    Returns:
        Every problem found, in file order; empty when the workflow is valid. A
        workflow with cases is checked case by case (its dataset is read from
        the folder of ``source``).
    """
    doc, problems = workflow_problems(
        text, source, declared_tools(tools), _scorers(scorers)
    )
    if problems or doc is None or any(key in doc.data for key in CASE_KEYS):
        return problems  # a workflow with cases is checked case by case
    try:
        _structure(doc)
    except WorkflowError as exc:
        return list(exc.problems)
    return []


async def load_agent_workflow(
    path: str | os.PathLike[str], *, tools: Tools = None, scorers: Scorers = None
) -> Workflow:
    """Read and validate a workflow file (its fixture is not loaded).

    Args:
        path: The workflow file.
        tools: User-defined tools the workflow may declare beside the built-ins.
        scorers: Registered scorers: ``scorer`` outcomes must name one and
            satisfy its ``params_schema``; ``None`` leaves them unchecked (a
            session checks them when it is created).

    Returns:
        The validated, frozen workflow. The file is read for every load, by a
        read that begins after the load was asked for: loads of one file asked
        for at the same time on one event loop (1000 sessions started from one
        path) share a read that has not begun yet. Loading a file whose
        content, name and tools are unchanged returns the workflow validated
        before (the same object).

    Raises:
        FileAccessError: The file is missing or unreadable (exit 1).
        WorkflowError: The file is too large (over 4 MiB), not UTF-8, or breaks
            the contract (exit 2).
    """
    # anyio only here: `read_agent_workflow` and the checks run without a loop
    from anyio.lowlevel import current_token

    source = os.fspath(path)
    catalogue = declared_tools(tools)
    registered = _scorers(scorers)
    key = (current_token(), source, catalogue, registered)
    shared = _SHARED_READS.get(key)
    if shared is not None and not shared.began:
        await shared.done.wait()
        if shared.workflow is not None:
            return shared.workflow
        # that read failed: this load reads again and fails (or not) on its own
        return await _load_alone(source, catalogue, registered, None)
    shared = _SharedRead()
    _SHARED_READS[key] = shared
    try:
        shared.workflow = await _load_alone(source, catalogue, registered, shared)
    finally:
        shared.began = True  # a read that ended takes no more loads
        if _SHARED_READS.get(key) is shared:
            del _SHARED_READS[key]
        shared.done.set()
    return shared.workflow


async def _load_alone(
    source: str,
    catalogue: DeclaredTools[DeclaredTool],
    scorers: _Registered,
    shared: _SharedRead | None,
) -> Workflow:
    text = await read_text_file(
        source,
        what="workflow",
        limit=MAX_WORKFLOW_FILE_BYTES,
        invalid=lambda problem: WorkflowError(f"{source}: invalid workflow", [problem]),
        began=None if shared is None else shared.begin,
    )
    return _validated(text, source, catalogue, scorers)


class _SharedRead:
    """One load's read of a workflow file, which other loads join until it begins.

    ``began`` is set by the worker thread just before it opens the file, so a load
    that joins while it is unset gets content read after it was asked for.
    """

    __slots__ = ("began", "done", "workflow")

    def __init__(self) -> None:
        import anyio  # only loads that run in an event loop get here

        self.began = False
        self.done = anyio.Event()
        self.workflow: Workflow | None = None

    def begin(self) -> None:
        """Say that the read begins (called in the worker thread)."""
        self.began = True


#: The shared reads in progress, by (event loop, file name, catalogue).
_SHARED_READS: dict[
    tuple[object, str, DeclaredTools[DeclaredTool], _Registered], _SharedRead
] = {}


def read_agent_workflow(
    path: str | os.PathLike[str], *, tools: Tools = None, scorers: Scorers = None
) -> Workflow:
    """`load_agent_workflow` without an event loop: it blocks while reading.

    For scripts and command-line checks (``akit scenario validate``); inside an
    async program, use `load_agent_workflow`.

    Args:
        path: The workflow file.
        tools: User-defined tools the workflow may declare beside the built-ins.
        scorers: Registered scorers: ``scorer`` outcomes must name one and
            satisfy its ``params_schema``; ``None`` leaves them unchecked (a
            session checks them when it is created).

    Returns:
        The validated, frozen workflow (shared with `load_agent_workflow`'s
        loads of the same content, name and tools).

    Raises:
        FileAccessError: The file is missing or unreadable (exit 1).
        WorkflowError: The file is too large (over 4 MiB), not UTF-8, or breaks
            the contract (exit 2).
    """
    source = os.fspath(path)
    text = read_text_file_now(
        source,
        what="workflow",
        limit=MAX_WORKFLOW_FILE_BYTES,
        invalid=lambda problem: WorkflowError(f"{source}: invalid workflow", [problem]),
    )
    return _validated(text, source, tools, _scorers(scorers))


def _validated(text: str, source: str, tools: Tools, scorers: _Registered) -> Workflow:
    catalogue = declared_tools(tools)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    key = (digest, source, catalogue, scorers)
    workflow = _LOADED.get(key)
    if workflow is None:
        workflow = parse_agent_workflow(
            text, source=source, tools=catalogue, scorers=scorers
        )
        _LOADED.put(key, workflow)
    return workflow


_Key = tuple[str, str, "DeclaredTools[DeclaredTool]", _Registered]


class _LoadedWorkflows:
    """Validated workflows by (content digest, name, catalogue, scorers), newest last.

    The file is read on every load and its content digested, so a changed file
    is validated again; an unchanged one (the same text, name and tools) gives
    the workflow already validated. Workflows are frozen, so sharing is safe.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[_Key, Workflow] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: _Key) -> Workflow | None:
        with self._lock:
            workflow = self._entries.get(key)
            if workflow is not None:
                self._entries.move_to_end(key)
            return workflow

    def put(self, key: _Key, workflow: Workflow) -> None:
        with self._lock:
            self._entries[key] = workflow
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)


_LOADED = _LoadedWorkflows(LOADED_CACHE_SIZE)
