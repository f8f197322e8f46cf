"""Tool-call admission, in the contract's order: declared → input schema → allow.

Every refusal here is a policy denial decided before any execution and before any
fault applies. Reasons are stable codes; nothing of the arguments is kept.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from artemiskit._common._limits import MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_STRING_BYTES

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.targets._protocol import ToolCall
    from artemiskit.tools._tool import Tool
    from artemiskit.workflow._model import ToolDeclaration

__all__ = [
    "MAX_VERDICTS",
    "MAX_VERDICT_TEXT",
    "Admission",
    "ArgumentVerdicts",
    "admit_tool_call",
]

#: How many argument texts a run remembers the verdict on, and their longest.
MAX_VERDICTS = 256
MAX_VERDICT_TEXT = 1024

#: Python's default limit for converting digits to an int; kept even when an
#: application lifts the interpreter's own limit.
_MAX_INTEGER_DIGITS = 4300


class Admission:
    """The verdict on one tool call: the decoded arguments, or a denial reason.

    A per-call scratch object, never kept: a plain slotted class.
    """

    __slots__ = ("arguments", "denial")

    def __init__(
        self, *, arguments: dict[str, Any] | None = None, denial: str | None = None
    ) -> None:
        self.arguments = arguments
        self.denial = denial


def _decode(text: str) -> object:
    """The arguments' JSON value; ``None`` stands for an empty argument text.

    Raises:
        ValueError: The text is not strict JSON (``NaN`` and ``Infinity`` are
            refused, and so are integers of more than `_MAX_INTEGER_DIGITS`
            digits, whatever the interpreter's own limit).
        RecursionError: The text nests deeper than the parser can follow.
    """
    if not text.strip():
        return {}
    return _DECODER.decode(text)


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_INTEGER_DIGITS:
        raise ValueError("integer too long")
    return int(digits)


#: One decoder for every call (``json.loads`` with hooks builds one per call).
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_int=_integer)


def _value_problem(arguments: dict[str, Any]) -> str | None:
    """Walk the decoded arguments without recursion; the first denial reason.

    Any legal JSON may arrive here, so the walk itself must not fail: strings
    that are not valid Unicode (lone surrogates), non-finite numbers and nesting
    deeper than `MAX_ARGUMENT_DEPTH` are invalid arguments; a string over
    `MAX_ARGUMENT_STRING_BYTES` is too large.
    """
    if all(_plain_text(key) and _plain_text(value) for key, value in arguments.items()):
        return None  # the common flat case: ASCII text within the limit
    too_large = False
    pending: list[tuple[object, int]] = [(arguments, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            try:
                size = len(value.encode("utf-8"))
            except UnicodeEncodeError:
                return "invalid_arguments"
            too_large = too_large or size > MAX_ARGUMENT_STRING_BYTES
        elif isinstance(value, float) and not math.isfinite(value):
            return "invalid_arguments"
        elif isinstance(value, dict | list):
            if depth > MAX_ARGUMENT_DEPTH:
                return "invalid_arguments"
            if isinstance(value, dict):
                pending.extend((key, depth) for key in value)
                pending.extend((item, depth + 1) for item in value.values())
            else:
                pending.extend((item, depth + 1) for item in value)
    return "argument_too_large" if too_large else None


def _plain_text(value: object) -> bool:
    """An ASCII string short enough that it cannot break a rule of the walk."""
    return (
        type(value) is str
        and value.isascii()
        and len(value) <= MAX_ARGUMENT_STRING_BYTES
    )


def admit_tool_call(
    call: ToolCall,
    declared: Mapping[str, ToolDeclaration],
    catalogue: Mapping[str, Tool],
    allow: Mapping[str, Mapping[str, tuple[str, ...]]] | None = None,
    *,
    verdicts: ArgumentVerdicts | None = None,
) -> Admission:
    """Decide whether ``call`` may execute.

    Args:
        call: The call exactly as the model produced it.
        declared: The workflow's tool declarations by name.
        catalogue: The run's tools (built-in and registered) by name.
        allow: Each declaration's ``allow`` as a mapping, by tool name, when
            the caller keeps them (else it is built from the declaration).
        verdicts: The run's remembered argument checks, when it keeps them.

    Returns:
        The decoded arguments when admitted, else the denial reason code.
    """
    declaration = declared.get(call.name)
    if declaration is None:
        return Admission(denial="undeclared_tool")
    try:
        arguments = _decode(call.arguments)
    except (ValueError, RecursionError):
        return Admission(denial="invalid_arguments")
    if not isinstance(arguments, dict):
        return Admission(denial="invalid_arguments")
    tool = catalogue[call.name]
    if verdicts is None:
        problem = _argument_problem(tool, arguments)
    else:
        problem = verdicts.problem(tool, call.arguments, arguments)
    if problem is not None:
        return Admission(denial=problem)
    rules = declaration.allow.as_mapping() if allow is None else allow[call.name]
    denial = tool.allow_problem(rules, arguments)
    if denial is not None:
        return Admission(denial=denial)
    return Admission(arguments=arguments)


def _argument_problem(tool: Tool, arguments: dict[str, Any]) -> str | None:
    """The denial reason of decoded arguments that break a value rule or the schema."""
    problem = _value_problem(arguments)
    if problem is not None:
        return problem
    if tool.schema_problem("input", arguments) is not None:
        return "invalid_arguments"
    return None


class ArgumentVerdicts:
    """One run's remembered argument checks (value rules and input schema).

    The decoded arguments are a function of their JSON text, and both checks a
    function of the decoded arguments and the tool, so the verdict on a text
    the same tool already received is reused (a model calls the same tool with
    the same arguments again and again). Only short texts are kept, and only
    `MAX_VERDICTS` of them; the ``allow`` check is always made.
    """

    __slots__ = ("_known",)

    def __init__(self) -> None:
        self._known: dict[tuple[str, str], str | None] = {}

    def problem(self, tool: Tool, text: str, arguments: dict[str, Any]) -> str | None:
        """`_argument_problem` of ``arguments``, decoded from ``text``."""
        key = (tool.name, text)
        try:
            return self._known[key]
        except KeyError:
            pass
        problem = _argument_problem(tool, arguments)
        if len(text) <= MAX_VERDICT_TEXT and len(self._known) < MAX_VERDICTS:
            self._known[key] = problem
        return problem
