"""JSON Schemas written by users: checked, then compiled once, never fetching anything.

A ``json_schema`` predicate and a scorer's ``params_schema`` are JSON Schemas (draft
7) that run on model output or user data. They may refer only inside themselves
(no remote ``$ref``, no ``$id``), and may not use ``pattern``, ``patternProperties``
or ``format``: the validator would run Python's backtracking regular expressions on
that data (a ``matches`` predicate runs in linear time instead).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["compile_json_schema", "json_schema_problem"]

#: Keywords a user's schema may not use: they would run Python's backtracking
#: regular expressions on the data.
_REGEX_KEYWORDS = ("pattern", "patternProperties", "format")
_SCHEMA_MAPS = ("properties", "definitions", "$defs", "dependencies")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "items")
_SCHEMA_ONE = (
    "items",
    "additionalItems",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
)


class _NoRemote(Mapping[str, Callable[[str], Any]]):
    """Handlers for every URI scheme: each refuses (no schema is fetched)."""

    def __getitem__(self, scheme: str) -> Callable[[str], Any]:
        return _refuse_remote

    def __contains__(self, scheme: object) -> bool:
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def _refuse_remote(uri: str) -> Any:
    raise ValueError("a json_schema may refer only inside itself")


_NO_REMOTE = _NoRemote()


def _forbidden_keyword(schema: Any) -> str | None:
    if isinstance(schema, list):
        return next(filter(None, map(_forbidden_keyword, schema)), None)
    if not isinstance(schema, dict):
        return None
    for keyword in _REGEX_KEYWORDS:
        if keyword in schema:
            return keyword
    ref = schema.get("$ref")
    if ref is not None and not (isinstance(ref, str) and ref.startswith("#")):
        return "$ref"
    if "$id" in schema:
        return "$id"
    nested: list[Any] = [schema[k] for k in _SCHEMA_ONE if k in schema]
    nested += [schema[k] for k in _SCHEMA_LISTS if isinstance(schema.get(k), list)]
    nested += [
        list(schema[k].values())
        for k in _SCHEMA_MAPS
        if isinstance(schema.get(k), dict)
    ]
    return next(filter(None, map(_forbidden_keyword, nested)), None)


def json_schema_problem(schema: Any) -> str | None:
    """Why ``schema`` cannot serve as a ``json_schema`` predicate, or ``None``."""
    keyword = _forbidden_keyword(schema)
    if keyword in _REGEX_KEYWORDS:
        return (
            f"is a JSON Schema using '{keyword}', which would run a backtracking "
            "regular expression on model output (use a matches predicate)"
        )
    if keyword is not None:
        return "is a JSON Schema that refers outside itself ($ref/$id)"
    try:
        compile_json_schema(json.dumps(schema, sort_keys=True))
    except Exception as exc:  # any failure to compile means an invalid schema
        detail = getattr(exc, "message", None) or type(exc).__name__
        return f"is not a valid JSON Schema ({str(detail)[:200]})"
    return None


@functools.lru_cache(maxsize=256)
def compile_json_schema(canonical: str) -> Callable[[Any], Any]:
    """The validator of a ``json_schema`` operand, given as canonical JSON text.

    Args:
        canonical: ``json.dumps(schema, sort_keys=True)``.

    Returns:
        A function that raises ``fastjsonschema.JsonSchemaValueException`` for a
        value that does not conform.
    """
    import fastjsonschema

    validator: Callable[[Any], Any] = fastjsonschema.compile(
        json.loads(canonical), handlers=_NO_REMOTE, use_formats=False
    )
    return validator
