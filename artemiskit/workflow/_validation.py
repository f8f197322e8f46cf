"""Checking a workflow without building it: YAML → JSON Schema → semantic checks.

These are the rules of the contract, in one place: `read_agent_workflow_data` (what
``akit scenario validate`` runs) applies them and stops, and every loader applies
them and then structures the workflow into its attrs classes. So that a cold check
stays fast, this path imports no workflow model, no cattrs and no tool runtime: the
built-in tools' declarations are read as plain JSON (``builtin_tools.json``, the
one source of them), and a document that conforms to the shipped schema is
checked by the validator generated in ``_compiled_schema.py``, compiling nothing.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Literal

from artemiskit._common._kinds import prompt_response_kind
from artemiskit._common._reading import read_text_file_now
from artemiskit._common._yaml import KeyPath, ParsedYaml, format_path, parse_yaml_plain
from artemiskit._errors import WorkflowError
from artemiskit.workflow import _compiled_schema
from artemiskit.workflow._builtin_tools import builtin_tool_data
from artemiskit.workflow._case_keys import CASE_KEYS
from artemiskit.workflow._checks import semantic_problems
from artemiskit.workflow._mcp_declarations import with_mcp_declarations

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from artemiskit._errors import Problem
    from artemiskit.workflow._case_checks import CaseSet
    from artemiskit.workflow._checks import DeclaredTool
    from artemiskit.workflow._declared_scorers import DeclaredScorer, DeclaredScorers
    from artemiskit.workflow._declared_tools import DeclaredTools
    from artemiskit.workflow._interfaces import Effect

__all__ = [
    "BUILTIN_DECLARATIONS",
    "MAX_WORKFLOW_FILE_BYTES",
    "BuiltinDeclaration",
    "read_agent_workflow_data",
    "document_problems",
    "invalid_workflow",
    "unchecked_scorer_outcomes",
    "workflow_problems",
]

#: A workflow file larger than this is refused before it is parsed.
MAX_WORKFLOW_FILE_BYTES = 4 * 1024 * 1024

#: Where a problem names a tool that is not in the catalogue.
_TOOL_NAME_PATH = re.compile(
    r"^\$\.(tools\[\d+\]\.name|outcomes\[\d+\]\.tool_(not_)?called|faults\[\d+\]\.tool"
    r"|outcomes\[\d+\]\.trajectory\.steps\[\d+\]\.tool)$"
)
_TOOLS_HINT = (
    " (a tool that is not built in must be registered: SDK tools=[...], "
    "CLI --tools MODULE:ATTR)"
)
_RETRY_HINT = (
    " (provider retries are the host's choice: give `retry:` in the provider's "
    "entry of the trusted configuration, never in a workflow)"
)


class BuiltinDeclaration:
    """A built-in tool as the checks read it: its entry of ``builtin_tools.json``.

    A plain class over the JSON data, so that a cold check loads neither attrs nor
    a tool; `ToolInterface` is the typed view of the same entry.

    Args:
        entry: The tool's declaration as JSON data.
    """

    __slots__ = ("_entry", "allow_keys", "allow_required", "effect", "name")

    def __init__(self, entry: Mapping[str, Any]) -> None:
        resource = entry["resource"]
        self._entry = entry
        self.name: str = entry["name"]
        self.effect: Effect = entry["effect"]
        self.allow_required: tuple[str, ...] = (
            () if resource is None else (resource["key"],)
        )
        self.allow_keys = self.allow_required + tuple(entry["optional_allow"])

    def __repr__(self) -> str:
        return f"BuiltinDeclaration(name={self.name!r}, effect={self.effect!r})"

    @property
    def input_schema(self) -> Mapping[str, Any]:
        """The built-in tool's input schema."""
        schema: Mapping[str, Any] = self._entry["input_schema"]
        return schema

    def schema_problem(
        self, which: Literal["input", "output"], value: Any
    ) -> str | None:
        """The built-in tool's own schema check (its interface compiles it)."""
        from artemiskit.workflow._interfaces import BUILTIN_INTERFACES

        return BUILTIN_INTERFACES[self.name].schema_problem(which, value)


#: The built-in tools' declarations, by name, in catalogue order.
BUILTIN_DECLARATIONS: Mapping[str, BuiltinDeclaration] = {
    entry["name"]: BuiltinDeclaration(entry) for entry in builtin_tool_data()
}
#: Whether a document conforms to the shipped schema (generated: compiles nothing).
_conforms: Callable[[Any], bool] = _compiled_schema.conforms


def _hinted(problem: Problem) -> Problem:
    if _TOOL_NAME_PATH.match(problem.path or "") and problem.message.startswith(
        "must be one of"
    ):
        return _with_message(problem, problem.message + _TOOLS_HINT)
    if problem.path == "$.target.retry":
        return _with_message(problem, problem.message + _RETRY_HINT)
    return problem


def _with_message(problem: Problem, message: str) -> Problem:
    import attrs  # loaded already: a problem exists

    return attrs.evolve(problem, message=message)


def _under(problem_path: str, path: str) -> bool:
    if not problem_path.startswith(path):
        return False
    rest = problem_path[len(path) :]
    return not rest or rest[0] in ".["


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.line or 0, p.column or 0))


def _schema_problems(
    doc: ParsedYaml, catalogue: Mapping[str, DeclaredTool]
) -> list[Problem]:
    if catalogue is BUILTIN_DECLARATIONS:
        if _conforms(doc.data):
            return []
        from artemiskit.workflow._tool_schema import shipped_schema_checker

        checker = shipped_schema_checker()
    else:
        from artemiskit.workflow._tool_schema import schema_checker_for

        checker = schema_checker_for(catalogue)
    return [_hinted(p) for p in checker.problems(doc.data, doc)]


def workflow_problems(
    text: str,
    source: str,
    catalogue: Mapping[str, DeclaredTool],
    scorers: Mapping[str, DeclaredScorer] | None = None,
    *,
    fixture_root: str | os.PathLike[str] | None = None,
    case_sets: list[CaseSet] | None = None,
) -> tuple[ParsedYaml | None, list[Problem]]:
    """Run every check of the contract on a workflow's text.

    A workflow with ``cases:`` or ``dataset:`` is checked case by case: its
    dataset is read (below ``fixture_root``) and every case's expansion is
    checked (SPEC section 19).

    Args:
        text: The workflow YAML.
        source: The file name used in problems.
        catalogue: The tools the workflow may declare: `BUILTIN_DECLARATIONS`, or
            a tool catalogue.
        scorers: The registered scorers by name, whose names and ``with:`` schemas
            ``scorer`` outcomes are checked against; ``None`` leaves them
            unchecked.
        fixture_root: Where a ``dataset:`` is read from; the folder of
            ``source`` by default.
        case_sets: Where a workflow with cases gets its read cases appended
            (for loaders that go on to run them).

    Returns:
        The parsed document (``None`` when the text is no YAML document) and every
        problem found: the workflow's in file order, then the cases'.
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_WORKFLOW_FILE_BYTES:
        from artemiskit._errors import Problem

        limit = MAX_WORKFLOW_FILE_BYTES
        message = (
            f"workflow is larger than {limit // (1024 * 1024)} MiB ({limit} bytes)"
        )
        return None, [Problem(message=message, source=source)]
    try:
        doc = parse_yaml_plain(text, source=source)
    except WorkflowError as exc:
        return None, list(exc.problems)
    foreign = prompt_response_kind(doc.data)
    if foreign is not None:
        message = (
            f"this is {foreign}, not a workflow (prompt-response files belong to "
            "akit run, akit validate and akit report)"
        )
        return doc, [doc.problem(message, ())]
    if isinstance(doc.data, dict) and any(k in doc.data for k in CASE_KEYS):
        from artemiskit.workflow._case_checks import case_set

        root = fixture_root if fixture_root is not None else _folder(source)
        cases, problems = case_set(
            doc, root, lambda expanded: document_problems(expanded, catalogue, scorers)
        )
        if cases is not None and case_sets is not None:
            case_sets.append(cases)
        return doc, problems
    return doc, document_problems(doc, catalogue, scorers)


def _folder(source: str) -> str:
    return os.path.dirname(source) or "."


def document_problems(
    doc: ParsedYaml,
    catalogue: Mapping[str, DeclaredTool],
    scorers: Mapping[str, DeclaredScorer] | None = None,
) -> list[Problem]:
    """The schema and semantic problems of one parsed workflow without cases.

    Args:
        doc: The parsed workflow (or one case's expansion, with the workflow's
            positions).
        catalogue: The tools the workflow may declare.
        scorers: The registered scorers, or ``None`` to leave them unchecked.

    Returns:
        Every problem found, in file order.
    """
    catalogue = with_mcp_declarations(catalogue, doc.data)
    found = _schema_problems(doc, catalogue)
    broken = [p.path for p in found]

    def sound(path: KeyPath) -> bool:
        rendered = format_path(path)
        return not any(_under(b, rendered) for b in broken)

    found += semantic_problems(doc.data, doc, sound, catalogue, scorers)
    return _sorted(found)


def invalid_workflow(source: str, problems: Sequence[Problem]) -> WorkflowError:
    """The error that lists a workflow's problems."""
    count = len(problems)
    noun = "problem" if count == 1 else "problems"
    return WorkflowError(f"{source}: invalid workflow ({count} {noun})", problems)


def read_agent_workflow_data(
    path: str | os.PathLike[str],
    *,
    tools: Sequence[DeclaredTool] | DeclaredTools[DeclaredTool] | None = None,
    scorers: Sequence[DeclaredScorer] | DeclaredScorers[DeclaredScorer] | None = None,
    fixture_root: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """Read a workflow file and check it against the contract, without building it.

    A workflow with ``cases:`` or ``dataset:`` is checked case by case: its
    dataset is read and every case's expansion is checked (SPEC section 19).

    The checks are exactly those of `read_agent_workflow` and `load_agent_workflow`
    (which go on to build the `Workflow`); the fixture is not loaded. This is what
    ``akit scenario validate`` runs: it imports no workflow model, so it starts
    fast.

    Args:
        path: The workflow file.
        tools: User-defined tools the workflow may declare beside the built-ins.
        scorers: The registered scorers; ``scorer`` outcomes must name one and
            satisfy its ``params_schema``. ``None`` leaves ``scorer`` outcomes
            unchecked (`unchecked_scorer_outcomes` lists them).
        fixture_root: Where a ``dataset:`` is read from (default: the workflow
            file's folder).

    Returns:
        The workflow as the plain data the file holds (mappings, lists, strings,
        numbers), unnormalized.

    Raises:
        FileAccessError: The file is missing or unreadable (exit 1).
        WorkflowError: The file is too large (over 4 MiB), not UTF-8, or breaks
            the contract (exit 2); ``.problems`` lists every problem.
        ToolDefinitionError: ``tools`` is invalid or a name clashes.
        ScorerDefinitionError: ``scorers`` is invalid or a name repeats.
    """
    source = os.fspath(path)
    text = read_text_file_now(
        source,
        what="workflow",
        limit=MAX_WORKFLOW_FILE_BYTES,
        invalid=lambda problem: WorkflowError(f"{source}: invalid workflow", [problem]),
    )
    catalogue: Mapping[str, DeclaredTool] = BUILTIN_DECLARATIONS
    if tools:
        from artemiskit.workflow._declared_tools import declared_tools

        catalogue = declared_tools(tools)
    registered = None
    if scorers is not None:
        from artemiskit.workflow._declared_scorers import declared_scorers

        registered = declared_scorers(scorers)
    doc, problems = workflow_problems(
        text, source, catalogue, registered, fixture_root=fixture_root
    )
    if problems or doc is None:
        raise invalid_workflow(source, problems)
    data: dict[str, Any] = doc.data
    return data


def unchecked_scorer_outcomes(data: Mapping[str, Any]) -> list[str]:
    """The ids of the ``scorer`` outcomes of checked workflow data.

    `read_agent_workflow_data` without ``scorers`` does not check them: a report
    names them as unchecked rather than as errors.
    """
    outcomes = data.get("outcomes", [])
    return [o["id"] for o in outcomes if "scorer" in o]
