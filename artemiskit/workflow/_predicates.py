"""Predicates (SPEC 20, 26): the checks a value can be put to, their shapes and rules.

A predicate is a mapping of predicate keys to operands; several keys in one mapping
must all hold. It sits beside the subject key of an outcome (``{state: a.b, gt: 10}``),
inside ``final_response``, and as the value of a ``record.fields``, ``arguments`` or
``final_response.json`` entry, where a mapping made only of predicate keys is a
predicate and anything else means ``equals``. ``all``/``any``/``not`` take a list of
predicates or one mapping.

This module is the contract's one home for predicates: the key table the workflow
schema is generated from, and the checks the schema cannot express (patterns the
linear-time engine must take, a ``json_schema`` that must itself be valid, numeric
comparisons on text). The engine's evaluator (``artemiskit.engine._predicates``)
applies what passed here. Nothing here imports the model classes or the engine.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Literal

from artemiskit._common._json_schema import json_schema_problem

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from artemiskit._common._yaml import KeyPath, ParsedYaml
    from artemiskit._errors import Problem

__all__ = [
    "COMBINATORS",
    "NUMERIC_KEYS",
    "OPERAND_SCHEMAS",
    "PREDICATE_KEYS",
    "Subject",
    "expected_value_problems",
    "is_predicate",
    "pattern_problem",
    "predicate_problems",
    "predicates_beside",
]

#: Where a predicate applies: ``text`` (file content, the final response) or any
#: JSON ``value`` (state, record fields, arguments, JSON paths).
Subject = Literal["text", "value"]

#: The combinators: each takes a list of predicates or one predicate mapping.
COMBINATORS = ("all", "any", "not")
#: The comparisons that need numbers.
NUMERIC_KEYS = ("gt", "gte", "lt", "lte")

_MAX_ITEMS = 64
_TEXT_OR_LIST: dict[str, Any] = {
    "type": ["string", "array"],
    "minLength": 1,
    "minItems": 1,
    "maxItems": _MAX_ITEMS,
}
_NUMBER: dict[str, Any] = {"type": "number"}
_BOUND: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 100_000_000}
_PREDICATES: dict[str, Any] = {
    "type": ["array", "object"],
    "minItems": 1,
    "maxItems": _MAX_ITEMS,
    "minProperties": 1,
}

#: Every predicate key and the JSON Schema of its operand, in documentation order.
#: The workflow schema is generated from this table.
OPERAND_SCHEMAS: Mapping[str, Mapping[str, Any]] = {
    "equals": {"description": "The value is equal to this one."},
    "not_equals": {"description": "The value differs from this one."},
    "one_of": {
        "type": "array",
        "minItems": 1,
        "maxItems": 256,
        "description": "The value equals one of these.",
    },
    "contains": {
        **_TEXT_OR_LIST,
        "description": "Text holds each string; a list holds each item.",
    },
    "not_contains": {
        **_TEXT_OR_LIST,
        "description": "Text holds none of the strings; a list none of the items.",
    },
    "matches": {
        "type": "string",
        "minLength": 1,
        "maxLength": 4096,
        "description": "A regular expression (RE2, linear time) found in the text.",
    },
    "exists": {"const": True, "description": "The value is there."},
    "absent": {"const": True, "description": "The value is not there."},
    "gt": {**_NUMBER, "description": "The number is greater than this."},
    "gte": {**_NUMBER, "description": "The number is at least this."},
    "lt": {**_NUMBER, "description": "The number is less than this."},
    "lte": {**_NUMBER, "description": "The number is at most this."},
    "length": {
        "type": "object",
        "properties": {"min": _BOUND, "max": _BOUND},
        "additionalProperties": False,
        "minProperties": 1,
        "description": "The length of a text, list or mapping lies in min..max.",
    },
    "json_schema": {
        "type": ["object", "boolean"],
        "description": "The value conforms to this JSON Schema (draft 7).",
    },
    "all": {**_PREDICATES, "description": "Every predicate holds."},
    "any": {**_PREDICATES, "description": "At least one predicate holds."},
    "not": {**_PREDICATES, "description": "No predicate of the list holds."},
}
PREDICATE_KEYS: tuple[str, ...] = tuple(OPERAND_SCHEMAS)
_KEYS = frozenset(PREDICATE_KEYS)


def is_predicate(value: Any) -> bool:
    """Whether ``value`` is a predicate mapping (only predicate keys, at least one).

    In ``record.fields``, ``arguments`` and ``final_response.json`` any other value
    means ``equals``.
    """
    return isinstance(value, dict) and bool(value) and _KEYS.issuperset(value)


def predicates_beside(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """The predicate keys of an outcome mapping (those beside its subject key)."""
    return {key: value for key, value in outcome.items() if key in _KEYS}


def pattern_problem(pattern: str) -> str | None:
    """Why the linear-time engine cannot take ``pattern``, or ``None``."""
    from artemiskit._common._matching import PatternSyntaxError, compile_linear

    try:
        compile_linear(pattern)
    except PatternSyntaxError as exc:
        return f"is not a regular expression the linear-time engine (RE2) takes: {exc}"
    return None


@functools.cache
def _operand_validator(key: str) -> Callable[[Any], Any]:
    import fastjsonschema

    validator: Callable[[Any], Any] = fastjsonschema.compile(dict(OPERAND_SCHEMAS[key]))
    return validator


def _operand_problems(
    key: str, operand: Any, doc: ParsedYaml, path: KeyPath
) -> list[Problem]:
    from artemiskit.workflow._schema import schema_problems

    return schema_problems(_operand_validator(key), operand, doc, path)


def _text_problem(key: str, operand: Any) -> str | None:
    """Why ``key: operand`` can never apply to text, or ``None``."""
    if key in NUMERIC_KEYS:
        return f"{key} compares numbers, and this value is text"
    if key in ("equals", "not_equals") and not isinstance(operand, str):
        return f"{key} needs a string here: the value is text"
    items = operand if isinstance(operand, list) else [operand]
    if key in ("one_of", "contains", "not_contains") and not all(
        isinstance(item, str) for item in items
    ):
        return f"{key} needs strings here: the value is text"
    return None


def predicate_problems(
    predicate: Mapping[str, Any],
    doc: ParsedYaml,
    path: KeyPath,
    *,
    subject: Subject,
    operands_checked: bool = False,
) -> list[Problem]:
    """Check one predicate mapping: its keys, operands and semantic rules.

    Args:
        predicate: The predicate keys and operands (other keys are not looked at
            when ``operands_checked``: they belong to the outcome).
        doc: The parsed document, for positions.
        path: Where the keys sit (the outcome, or the predicate mapping).
        subject: What the predicate applies to.
        operands_checked: Whether the schema already checked the top-level
            operands (predicates beside an outcome's subject key).

    Returns:
        Every problem, each at the key path of the key or operand at fault.
    """
    found: list[Problem] = []
    for key, operand in predicate.items():
        here = (*path, key)
        if key not in _KEYS:
            known = ", ".join(PREDICATE_KEYS)
            message = f"is not a predicate (predicates: {known})"
            found.append(doc.problem(message, here, at_key=True))
            continue
        if not operands_checked:
            problems = _operand_problems(key, operand, doc, here)
            if problems:
                found += problems
                continue
        found += _semantic_problems(key, operand, doc, here, subject)
    return found


def _semantic_problems(
    key: str, operand: Any, doc: ParsedYaml, here: KeyPath, subject: Subject
) -> list[Problem]:
    if subject == "text":
        problem = _text_problem(key, operand)
        if problem is not None:
            return [doc.problem(problem, here)]
    if key == "matches":
        problem = pattern_problem(operand)
        return [] if problem is None else [doc.problem(problem, here)]
    if key == "json_schema":
        problem = json_schema_problem(operand)
        return [] if problem is None else [doc.problem(problem, here)]
    if key == "length":
        low, high = operand.get("min"), operand.get("max")
        if low is not None and high is not None and low > high:
            return [doc.problem("must be ≥ min", (*here, "max"))]
        return []
    if key in COMBINATORS:
        if isinstance(operand, list):
            pairs = [(item, (*here, i)) for i, item in enumerate(operand)]
        else:
            pairs = [(operand, here)]
        found: list[Problem] = []
        for item, where in pairs:
            if not isinstance(item, dict) or not item:
                message = "must be a predicate mapping (e.g. {gt: 10})"
                found.append(doc.problem(message, where))
                continue
            found += predicate_problems(item, doc, where, subject=subject)
        return found
    return []


def expected_value_problems(
    value: Any, doc: ParsedYaml, path: KeyPath, *, subject: Subject = "value"
) -> list[Problem]:
    """Check an expected value of ``fields``/``arguments``/``json``.

    A mapping made only of predicate keys is checked as a predicate; a mapping
    that mixes predicate keys with others is refused (it would silently mean
    ``equals``); anything else is a literal value to equal.
    """
    if is_predicate(value):
        return predicate_problems(value, doc, path, subject=subject)
    if isinstance(value, dict) and _KEYS.intersection(value):
        mixed = ", ".join(sorted(_KEYS.intersection(value)))
        message = (
            f"mixes predicate keys ({mixed}) with other keys: give a predicate "
            "mapping, or a value to equal as {equals: ...}"
        )
        return [doc.problem(message, path)]
    return []
