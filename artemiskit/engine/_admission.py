"""Tool-call admission, in the contract's order: declared → input schema → allow.

Every refusal here is a policy denial decided before any execution and before any
fault applies. Reasons are stable codes; nothing of the arguments is kept.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._limits import MAX_ARGUMENT_STRING_BYTES
from artemiskit.tools._allow import allow_problem
from artemiskit.tools._catalogue import schema_problem

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.targets._protocol import ToolCall
    from artemiskit.workflow._model import ToolDeclaration

__all__ = ["Admission", "admit_tool_call"]


@attrs.frozen(kw_only=True)
class Admission:
    """The verdict on one tool call: the decoded arguments, or a denial reason."""

    arguments: dict[str, Any] | None = None
    denial: str | None = None


def _oversize(value: Any) -> bool:
    if isinstance(value, str):
        return len(value.encode("utf-8")) > MAX_ARGUMENT_STRING_BYTES
    if isinstance(value, dict):
        return any(_oversize(k) or _oversize(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_oversize(v) for v in value)
    return False


def admit_tool_call(
    call: ToolCall, declared: Mapping[str, ToolDeclaration]
) -> Admission:
    """Decide whether ``call`` may execute.

    Args:
        call: The call exactly as the model produced it.
        declared: The workflow's tool declarations by name.

    Returns:
        The decoded arguments when admitted, else the denial reason code.
    """
    declaration = declared.get(call.name)
    if declaration is None:
        return Admission(denial="undeclared_tool")
    try:
        arguments = json.loads(call.arguments) if call.arguments.strip() else {}
    except ValueError:
        return Admission(denial="invalid_arguments")
    if not isinstance(arguments, dict):
        return Admission(denial="invalid_arguments")
    if _oversize(arguments):
        return Admission(denial="argument_too_large")
    if schema_problem(call.name, "input", arguments) is not None:
        return Admission(denial="invalid_arguments")
    denial = allow_problem(call.name, declaration.allow, arguments)
    if denial is not None:
        return Admission(denial=denial)
    return Admission(arguments=arguments)
