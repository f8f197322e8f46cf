"""The one predicate evaluator: does a value satisfy a predicate, and if not, why.

Predicates were validated with the workflow (``artemiskit.workflow._predicates``);
here they are applied to values of the final state, the final response and tool
arguments. A failed check gives a reason code, never the value. Patterns run on the
linear-time engine (RE2), so no text can stall a check; a pattern that does not
match is a failed check, never an unavailable one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from artemiskit._common._json_schema import compile_json_schema
from artemiskit._common._matching import compile_linear
from artemiskit.workflow._predicates import is_predicate

__all__ = [
    "expected",
    "failed_check",
    "parse_arguments",
    "resolve_path",
    "same",
]

_MISSING = "value_missing"
_WRONG_TYPE = "wrong_type"


def resolve_path(data: Any, dotted: str) -> tuple[bool, Any]:
    """Follow a dotted path (mapping keys, list indexes) into ``data``.

    Returns:
        Whether the path exists, and the value there.
    """
    value = data
    for part in dotted.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif (
            isinstance(value, list | tuple)
            and part.isdigit()
            and int(part) < len(value)
        ):
            value = value[int(part)]
        else:
            return False, None
    return True, value


def expected(value: Any) -> Mapping[str, Any]:
    """The predicate an expected value stands for: itself, or ``{equals: value}``."""
    return value if is_predicate(value) else {"equals": value}


def parse_arguments(text: str | None) -> dict[str, Any] | None:
    """A tool call's original arguments as an object, or ``None`` when they are not."""
    if text is None:
        return None
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) else None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def same(left: Any, right: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1`` is ``1.0``, containers deeply."""
    if _is_number(left) and _is_number(right):
        return bool(left == right)
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        return left.keys() == right.keys() and all(
            same(v, right[k]) for k, v in left.items()
        )
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        return len(left) == len(right) and all(
            same(a, b) for a, b in zip(left, right, strict=True)
        )
    return type(left) is type(right) and bool(left == right)


def _equals(operand: Any, value: Any) -> str | None:
    return None if same(value, operand) else "value_differs"


def _not_equals(operand: Any, value: Any) -> str | None:
    return "value_equal" if same(value, operand) else None


def _one_of(operand: Any, value: Any) -> str | None:
    return None if any(same(value, o) for o in operand) else "value_not_listed"


def _holds_item(value: Any, item: Any) -> bool | None:
    """Whether ``value`` contains ``item``; ``None`` when it cannot contain it."""
    if isinstance(value, str):
        return item in value if isinstance(item, str) else None
    if isinstance(value, list | tuple):
        return any(same(element, item) for element in value)
    if isinstance(value, Mapping):
        return item in value if isinstance(item, str) else None
    return None


def _contains(operand: Any, value: Any) -> str | None:
    for item in operand if isinstance(operand, list) else [operand]:
        held = _holds_item(value, item)
        if held is None:
            return _WRONG_TYPE
        if not held:
            return "missing_content"
    return None


def _not_contains(operand: Any, value: Any) -> str | None:
    for item in operand if isinstance(operand, list) else [operand]:
        held = _holds_item(value, item)
        if held is None:
            return _WRONG_TYPE
        if held:
            return "unwanted_content"
    return None


def _matches(operand: Any, value: Any) -> str | None:
    if not isinstance(value, str):
        return _WRONG_TYPE
    return None if compile_linear(operand).search(value) else "pattern_not_matched"


def _compare(holds: Callable[[Any, Any], bool], code: str) -> _Check:
    def check(operand: Any, value: Any) -> str | None:
        if not _is_number(value):
            return _WRONG_TYPE
        return None if holds(value, operand) else code

    return check


def _length(operand: Any, value: Any) -> str | None:
    if not isinstance(value, str | list | tuple | Mapping):
        return _WRONG_TYPE
    low, high = operand.get("min"), operand.get("max")
    size = len(value)
    if (low is not None and size < low) or (high is not None and size > high):
        return "length_out_of_range"
    return None


def _json_schema(operand: Any, value: Any) -> str | None:
    validator = compile_json_schema(json.dumps(operand, sort_keys=True))
    try:
        validator(_thawed(value))
    except Exception:  # a value that breaks the validator does not conform
        return "schema_mismatch"
    return None


def _thawed(value: Any) -> Any:
    """Plain dicts and lists (the validator checks ``dict``/``list`` types)."""
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_thawed(v) for v in value]
    return value


def _predicates(operand: Any) -> list[Mapping[str, Any]]:
    return list(operand) if isinstance(operand, list) else [operand]


_Check = Callable[[Any, Any], "str | None"]
_VALUE_CHECKS: dict[str, _Check] = {
    "equals": _equals,
    "not_equals": _not_equals,
    "one_of": _one_of,
    "contains": _contains,
    "not_contains": _not_contains,
    "matches": _matches,
    "gt": _compare(lambda v, o: v > o, "too_small"),
    "gte": _compare(lambda v, o: v >= o, "too_small"),
    "lt": _compare(lambda v, o: v < o, "too_large"),
    "lte": _compare(lambda v, o: v <= o, "too_large"),
    "length": _length,
    "json_schema": _json_schema,
}


def failed_check(
    predicate: Mapping[str, Any], value: Any = None, *, present: bool = True
) -> str | None:
    """Apply a validated predicate to a value.

    Args:
        predicate: Predicate keys and operands; every key must hold.
        value: The value checked.
        present: Whether there is a value at all (a missing path, file, field or
            argument is not present).

    Returns:
        ``None`` when the predicate holds, else the reason code of the first key
        that does not (``value_missing``, ``wrong_type``, ``value_differs`` ...).
    """
    for key, operand in predicate.items():
        code = _failed_key(key, operand, value, present)
        if code is not None:
            return code
    return None


def _failed_key(key: str, operand: Any, value: Any, present: bool) -> str | None:
    if key == "exists":
        return None if present else _MISSING
    if key == "absent":
        return "value_present" if present else None
    if key == "all":
        for item in _predicates(operand):
            code = failed_check(item, value, present=present)
            if code is not None:
                return code
        return None
    if key == "any":
        held = any(
            failed_check(item, value, present=present) is None
            for item in _predicates(operand)
        )
        return None if held else "no_alternative_held"
    if key == "not":
        held = any(
            failed_check(item, value, present=present) is None
            for item in _predicates(operand)
        )
        return "negated_predicate_held" if held else None
    if not present:
        return _MISSING
    return _VALUE_CHECKS[key](operand, value)
