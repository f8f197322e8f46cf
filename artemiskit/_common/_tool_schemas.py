"""Compiling a tool's JSON Schemas: offline, and every pattern in linear time.

A tool's input schema checks arguments a model chose, so nothing in it may stall a
run or reach the network:

- a ``$ref`` must be local (``#...``): a reference to a URL or another file is
  refused when the tool is made, and the compiler is given resolvers that refuse
  every scheme, so no schema is ever fetched;
- every ``pattern`` and ``patternProperties`` key is compiled by the linear-time
  engine (`artemiskit._common._matching`), which also runs them; a pattern it
  cannot take (backreferences, look-around) is refused when the tool is made;
- the string ``format`` checks fastjsonschema would run with Python's ``re`` run in
  linear time too.
"""

from __future__ import annotations

import functools
import inspect
import re
from typing import TYPE_CHECKING, Any, Literal, Protocol

import fastjsonschema

from artemiskit._common._matching import PatternSyntaxError, compile_linear
from artemiskit._errors import ToolDefinitionError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

__all__ = [
    "DeclaresSchemas",
    "compile_tool_schema",
    "schema_problem",
    "schema_validators",
]

#: Keywords whose values are data, not schemas: nothing inside them is a keyword.
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})
#: Every scheme Python's URL opener serves; each resolves to a refusal.
_SCHEMES = ("", "http", "https", "file", "ftp", "data")


class _RemoteReferenceError(fastjsonschema.JsonSchemaDefinitionException):
    """A schema asked for a document that is not itself."""


def _no_fetch(uri: str) -> Any:
    raise _RemoteReferenceError("remote schema references are refused")


_OFFLINE = dict.fromkeys(_SCHEMES, _no_fetch)


def _email(value: str) -> bool:
    """The ``email`` format of fastjsonschema, without its look-around patterns."""
    local, at, domain = value.partition("@")
    return (
        bool(at)
        and bool(local)
        and "@" not in domain
        and not local.startswith(".")
        and not local.endswith(".")
        and ".." not in local
        and "." in domain[1:-1]
    )


def _linear_formats() -> dict[str, Callable[[str], bool]]:
    """The format patterns of fastjsonschema, run by the linear-time engine."""
    from fastjsonschema.draft04 import CodeGeneratorDraft04

    formats: dict[str, Callable[[str], bool]] = {"email": _email}
    for name, pattern in CodeGeneratorDraft04.FORMAT_REGEXS.items():
        if name in formats:
            continue
        linear = compile_linear(pattern.replace(r"\Z", r"\z").replace("{,", "{0,"))
        formats[name] = linear.search
    return formats


_FORMATS: dict[str, Callable[[str], bool]] | None = None


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    """Every (keyword, value) of ``node`` and its subschemas, data values skipped."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, list):
            stack.extend(current)
            continue
        if not isinstance(current, dict):
            continue
        for key, value in current.items():
            yield key, value
            if key not in _DATA_KEYWORDS:
                stack.append(value)


def _refused(name: str, what: str, message: str) -> ToolDefinitionError:
    return ToolDefinitionError(
        f"tool {name!r}: the {what} schema {message}", reason="invalid_tool"
    )


def _linear_patterns(schema: Mapping[str, Any], name: str, what: str) -> set[str]:
    """Every pattern of ``schema``, checked; refuses a remote reference."""
    patterns: set[str] = set()
    for key, value in _walk(schema):
        if key == "$ref" and isinstance(value, str) and not value.startswith("#"):
            raise _refused(
                name,
                what,
                "has a $ref that is not local (only '#...' references are "
                "allowed; nothing is fetched)",
            )
        if key == "pattern" and isinstance(value, str):
            patterns.add(value)
        elif key == "patternProperties" and isinstance(value, dict):
            patterns.update(k for k in value if isinstance(k, str))
    for pattern in patterns:
        try:
            compile_linear(pattern)
        except PatternSyntaxError as exc:
            message = f"is not a valid JSON Schema: a pattern is refused ({exc})"
            raise _refused(name, what, message) from None
    return patterns


def compile_tool_schema(
    schema: Mapping[str, Any], *, name: str, what: str
) -> Callable[[Any], Any]:
    """Compile one of tool ``name``'s schemas into a validator.

    Args:
        schema: The JSON Schema.
        name: The tool's name, for messages.
        what: ``input`` or ``output``, for messages.

    Returns:
        fastjsonschema's validator, its patterns and formats run in linear time.

    Raises:
        ToolDefinitionError: The schema is invalid, has a non-local ``$ref``, or a
            pattern the linear-time engine cannot take.
    """
    global _FORMATS
    patterns = _linear_patterns(schema, name, what)
    if _FORMATS is None:
        _FORMATS = _linear_formats()
    try:
        validate = fastjsonschema.compile(
            dict(schema), handlers=_OFFLINE, formats=_FORMATS
        )
    except _RemoteReferenceError:
        raise _refused(name, what, "refers to a document that is not itself") from None
    except (
        fastjsonschema.JsonSchemaDefinitionException,
        TypeError,
        ValueError,
        RecursionError,
        re.error,  # a pattern Python's compiler refuses (it is never run there)
    ):
        raise _refused(name, what, "is not a valid JSON Schema") from None
    table: dict[str, Any] = inspect.unwrap(validate).__globals__.get(
        "REGEX_PATTERNS", {}
    )
    for pattern in list(table):
        if pattern not in patterns:  # fastjsonschema keeps nothing else here
            raise _refused(name, what, "uses a pattern that cannot be checked")
        table[pattern] = compile_linear(pattern)
    return validate


class DeclaresSchemas(Protocol):
    """A tool or tool interface: a name and its two schemas."""

    @property
    def name(self) -> str:
        """The tool's name, for messages."""

    @property
    def input_schema(self) -> Mapping[str, Any]:
        """JSON Schema of the arguments."""

    @property
    def output_schema(self) -> Mapping[str, Any]:
        """JSON Schema of a successful output."""


@functools.cache
def schema_validators(
    tool: DeclaresSchemas,
) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """The tool's input and output validators, compiled once per tool object.

    Raises:
        ToolDefinitionError: A schema cannot be compiled (see `compile_tool_schema`).
    """
    return (
        compile_tool_schema(tool.input_schema, name=tool.name, what="input"),
        compile_tool_schema(tool.output_schema, name=tool.name, what="output"),
    )


def schema_problem(
    validators: tuple[Callable[[Any], Any], Callable[[Any], Any]],
    which: Literal["input", "output"],
    value: Any,
) -> str | None:
    """Check arguments or an output with a tool's validators.

    Args:
        validators: The tool's input and output validators.
        which: ``input`` for arguments, ``output`` for a result.
        value: The decoded JSON value.

    Returns:
        ``None`` when the value conforms, else a one-line description that names
        the offending key but never repeats the value.
    """
    check = validators[0 if which == "input" else 1]
    try:
        check(value)
    except fastjsonschema.JsonSchemaValueException as exc:
        return f"{exc.rule} rule broken at {exc.name}"
    return None
