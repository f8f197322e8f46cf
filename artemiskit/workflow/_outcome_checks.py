"""Semantic checks of ``outcomes:``: predicates, arguments, trajectories, judges.

They run after the schema pass, only on outcomes the schema found sound, and name
the key path and the rule of each problem, never the offending value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from artemiskit._common._paths import path_problem
from artemiskit.workflow._predicates import (
    expected_value_problems,
    predicate_problems,
    predicates_beside,
)

if TYPE_CHECKING:
    from artemiskit._common._yaml import KeyPath, ParsedYaml
    from artemiskit._errors import Problem
    from artemiskit.workflow._declared_scorers import DeclaredScorer
    from artemiskit.workflow._predicates import Subject

__all__ = ["outcome_problems"]

Sound = Callable[["KeyPath"], bool]

#: Top-level keys of the final state that ``state`` paths may address.
STATE_ROOTS = (
    "files",
    "documents",
    "records",
    "drafts",
    "approvals",
    "delegations",
    "tools",
)


def _encodable(text: str) -> bool:
    """Whether ``text`` is valid Unicode (other checks report it when not)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def state_path_problem(path: str) -> str | None:
    """Why ``path`` is not a dotted path into the final state, or ``None``."""
    segments = path.split(".")
    if segments[0] not in STATE_ROOTS or not all(segments):
        roots = ", ".join(STATE_ROOTS)
        return f"must be a dotted path starting with one of: {roots}"
    return None


def outcome_problems(
    outcomes: list[Any],
    doc: ParsedYaml,
    sound: Sound,
    *,
    declared: set[str] | None,
    catalogue: Mapping[str, Any],
    scorers: Mapping[str, DeclaredScorer] | None,
) -> list[Problem]:
    """List the semantic problems of every sound outcome.

    Args:
        outcomes: The plain ``outcomes`` list.
        doc: The parsed document, for positions.
        sound: Whether the schema found nothing wrong at or under a path.
        declared: The names of the tools the workflow declares, when known.
        catalogue: The tools, for argument types.
        scorers: The registered scorers by name; ``None`` leaves ``scorer``
            outcomes unchecked.
    """
    found: list[Problem] = []
    for index, outcome in enumerate(outcomes):
        here: KeyPath = ("outcomes", index)
        if not sound(here):
            continue
        check = _CHECKS.get(next((k for k in _CHECKS if k in outcome), ""))
        if check is not None:
            found += check(outcome, here, doc, _Context(declared, catalogue, scorers))
    return found


class _Context:
    __slots__ = ("catalogue", "declared", "scorers")

    def __init__(
        self,
        declared: set[str] | None,
        catalogue: Mapping[str, Any],
        scorers: Mapping[str, DeclaredScorer] | None,
    ) -> None:
        self.declared = declared
        self.catalogue = catalogue
        self.scorers = scorers


def _file(
    outcome: dict[str, Any], here: KeyPath, doc: ParsedYaml, _: _Context
) -> list[Problem]:
    found: list[Problem] = []
    problem = path_problem(outcome["file"]) if _encodable(outcome["file"]) else None
    if problem is not None:
        found.append(doc.problem(problem, (*here, "file")))
    predicate = predicates_beside(outcome)
    content = {k: v for k, v in predicate.items() if k not in ("exists", "absent")}
    groups = [
        name
        for name, present in (
            ("exists", "exists" in predicate),
            ("absent", "absent" in predicate),
            ("content", bool(content)),
        )
        if present
    ]
    if groups == ["exists", "absent"]:
        found.append(doc.problem("exists and absent exclude each other", here))
    elif len(groups) > 1:
        message = "give one check: exists, absent, or predicates on the content"
        found.append(doc.problem(message, here))
    elif not groups:
        message = "needs a check: exists: true, absent: true, or a predicate"
        found.append(doc.problem(message, here))
    return found + predicate_problems(
        content, doc, here, subject="text", operands_checked=True
    )


def _state(
    outcome: dict[str, Any], here: KeyPath, doc: ParsedYaml, _: _Context
) -> list[Problem]:
    found: list[Problem] = []
    problem = state_path_problem(outcome["state"])
    if problem is not None:
        found.append(doc.problem(problem, (*here, "state")))
    predicate = predicates_beside(outcome)
    if not predicate:
        found.append(doc.problem("needs a predicate beside state (e.g. equals)", here))
    return found + predicate_problems(
        predicate, doc, here, subject="value", operands_checked=True
    )


def _record(
    outcome: dict[str, Any], here: KeyPath, doc: ParsedYaml, _: _Context
) -> list[Problem]:
    fields: dict[str, Any] = outcome.get("fields", {})
    return [
        p
        for name, value in fields.items()
        for p in expected_value_problems(value, doc, (*here, "fields", name))
    ]


def _argument_subject(spec: Any, name: str) -> Subject:
    """``text`` when the tool's input schema says the argument is a string."""
    node = getattr(spec, "input_schema", None)
    for part in name.split("."):
        if not isinstance(node, Mapping):
            return "value"
        node = node.get("properties", {}).get(part)
    if isinstance(node, Mapping) and node.get("type") == "string":
        return "text"
    return "value"


def _arguments(
    arguments: dict[str, Any] | None,
    tool: str,
    where: KeyPath,
    doc: ParsedYaml,
    context: _Context,
) -> list[Problem]:
    spec = context.catalogue.get(tool)
    return [
        p
        for name, value in (arguments or {}).items()
        for p in expected_value_problems(
            value, doc, (*where, name), subject=_argument_subject(spec, name)
        )
    ]


def _tool_called(
    outcome: dict[str, Any], here: KeyPath, doc: ParsedYaml, context: _Context
) -> list[Problem]:
    found: list[Problem] = []
    tool = outcome["tool_called"]
    if context.declared is not None and tool not in context.declared:
        message = "names a tool that tools does not declare (it can never pass)"
        found.append(doc.problem(message, (*here, "tool_called")))
    low, high = outcome.get("min"), outcome.get("max")
    if low is not None and high is not None and low > high:
        found.append(doc.problem("must be ≥ min", (*here, "max")))
    return found + _arguments(
        outcome.get("arguments"), tool, (*here, "arguments"), doc, context
    )


def _tool_not_called(
    outcome: dict[str, Any], here: KeyPath, doc: ParsedYaml, context: _Context
) -> list[Problem]:
    return _arguments(
        outcome.get("arguments"),
        outcome["tool_not_called"],
        (*here, "arguments"),
        doc,
        context,
    )


def _final_response(
    outcome: dict[str, Any], here: KeyPath, doc: ParsedYaml, _: _Context
) -> list[Problem]:
    check: dict[str, Any] = outcome["final_response"]
    where = (*here, "final_response")
    predicate = {k: v for k, v in check.items() if k != "json"}
    found = predicate_problems(
        predicate, doc, where, subject="text", operands_checked=True
    )
    for path, value in check.get("json", {}).items():
        found += expected_value_problems(value, doc, (*where, "json", path))
    return found


def _trajectory(
    outcome: dict[str, Any], here: KeyPath, doc: ParsedYaml, context: _Context
) -> list[Problem]:
    steps: list[dict[str, Any]] = outcome["trajectory"]["steps"]
    return [
        p
        for index, step in enumerate(steps)
        for p in _arguments(
            step.get("arguments"),
            step["tool"],
            (*here, "trajectory", "steps", index, "arguments"),
            doc,
            context,
        )
    ]


def _scorer(
    outcome: dict[str, Any], here: KeyPath, doc: ParsedYaml, context: _Context
) -> list[Problem]:
    if context.scorers is None:
        return []
    from artemiskit.workflow._schema import schema_problems

    scorer = context.scorers.get(outcome["scorer"])
    if scorer is None:
        known = ", ".join(sorted(context.scorers)) or "none"
        message = (
            f"names a scorer that is not registered (registered: {known}; register "
            "scorers with scorers=[...] or --scorers MODULE:ATTR)"
        )
        return [doc.problem(message, (*here, "scorer"))]
    return schema_problems(
        scorer.params_validator, outcome.get("with", {}), doc, (*here, "with")
    )


def _judge(
    outcome: dict[str, Any], here: KeyPath, doc: ParsedYaml, _: _Context
) -> list[Problem]:
    from artemiskit.workflow._checks import glob_problem

    found: list[Problem] = []
    seen: dict[str, int] = {}
    sees: list[Any] = outcome["judge"].get("sees", [])
    for index, sight in enumerate(sees):
        where = (*here, "judge", "sees", index)
        kind = sight if isinstance(sight, str) else next(iter(sight))
        if kind in seen:
            message = f"repeats {kind}, already listed at sees[{seen[kind]}]"
            found.append(doc.problem(message, where))
        seen.setdefault(kind, index)
        if isinstance(sight, str):
            continue
        for cursor, selector in enumerate(sight[kind]):
            problem = (
                glob_problem(selector, is_path=True)
                if kind == "files"
                else state_path_problem(selector)
            )
            if problem is not None:
                found.append(doc.problem(problem, (*where, kind, cursor)))
    return found


_Check = Callable[[dict[str, Any], "KeyPath", "ParsedYaml", _Context], list["Problem"]]
_CHECKS: dict[str, _Check] = {
    "file": _file,
    "record": _record,
    "state": _state,
    "tool_called": _tool_called,
    "tool_not_called": _tool_not_called,
    "final_response": _final_response,
    "trajectory": _trajectory,
    "scorer": _scorer,
    "judge": _judge,
}
