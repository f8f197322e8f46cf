"""A server's JSON Schema, made safe to run on model arguments.

A schema an MCP server lists is trusted host code's, but it runs against the
model's arguments, so two things are refused or replaced before it is compiled:

- a ``$ref`` that leaves the document (a remote or file reference is never fetched:
  the schema is refused, and the compiled validator has no way to fetch either);
- ``pattern``: fastjsonschema would run it with Python's backtracking ``re``; each
  one is compiled with the linear-time engine (`compile_linear`) instead and
  checked as a custom format. A pattern that engine cannot take (backreferences,
  look-around) refuses the schema; so does ``patternProperties``.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import fastjsonschema

from artemiskit._common._digests import json_digest
from artemiskit._common._matching import PatternSyntaxError, compile_linear

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from artemiskit._common._matching import LinearPattern

__all__ = ["SchemaRefused", "linear_validator", "schema_digest"]

_FORMAT = "artemiskit-linear-pattern-"


class SchemaRefused(ValueError):
    """A schema that cannot run safely; the message says why (no schema content)."""


def schema_digest(
    input_schema: Mapping[str, Any], output_schema: Mapping[str, Any] | None
) -> str:
    """The sha256 a workflow pins: over the listed input and output schemas."""
    return json_digest(
        {
            "input_schema": dict(input_schema),
            "output_schema": None if output_schema is None else dict(output_schema),
        }
    )


def _refuse_fetch(uri: str) -> Any:
    raise SchemaRefused("a schema reference outside the document is refused")


_NO_FETCH = dict.fromkeys(("http", "https", "file", "ftp"), _refuse_fetch)


def linear_validator(schema: Mapping[str, Any]) -> Callable[[Any], Any]:
    """Compile ``schema`` with every ``pattern`` checked in linear time.

    Raises:
        SchemaRefused: A remote ``$ref``, ``patternProperties``, a pattern the
            linear engine cannot take, or a schema fastjsonschema cannot compile.
    """
    counter = itertools.count()
    formats: dict[str, Callable[[Any], bool]] = {}
    rewritten = _rewrite(dict(schema), counter, formats, top=True)
    try:
        return fastjsonschema.compile(rewritten, handlers=_NO_FETCH, formats=formats)
    except SchemaRefused:
        raise
    except (fastjsonschema.JsonSchemaDefinitionException, TypeError, ValueError):
        raise SchemaRefused("the schema is not a valid JSON Schema") from None
    except RecursionError:
        raise SchemaRefused("the schema is nested too deeply") from None


def _searcher(pattern: LinearPattern) -> Callable[[Any], bool]:
    def check(text: Any) -> bool:
        return not isinstance(text, str) or pattern.search(text)

    return check


def _rewrite(
    node: Any,
    counter: itertools.count[int],
    formats: dict[str, Callable[[Any], bool]],
    *,
    top: bool = False,
) -> Any:
    if isinstance(node, list):
        return [_rewrite(item, counter, formats) for item in node]
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    extra: list[dict[str, Any]] = []
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str):
            if not value.startswith("#"):
                raise SchemaRefused(
                    "a schema reference outside the document is refused"
                )
            result[key] = value
        elif key in ("$id", "$schema") and top:
            continue  # compiled as draft-07, as its own document
        elif key == "$id" and isinstance(value, str):
            raise SchemaRefused("a schema that changes its base URI is refused")
        elif key == "patternProperties":
            raise SchemaRefused("patternProperties is not supported")
        elif key == "pattern" and isinstance(value, str):
            try:
                compiled = compile_linear(value)
            except PatternSyntaxError as exc:
                raise SchemaRefused(
                    f"a pattern cannot run in linear time: {exc}"
                ) from None
            name = f"{_FORMAT}{next(counter)}"
            formats[name] = _searcher(compiled)
            extra.append({"format": name})
        elif key in ("properties", "$defs", "definitions", "dependencies") and (
            isinstance(value, dict)
        ):
            result[key] = {k: _rewrite(v, counter, formats) for k, v in value.items()}
        elif key in ("const", "enum", "default", "examples"):
            result[key] = value
        else:
            result[key] = _rewrite(value, counter, formats)
    if extra:
        result["allOf"] = [*result.get("allOf", []), *extra]
    return result
