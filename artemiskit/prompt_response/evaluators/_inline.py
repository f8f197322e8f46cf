"""``inline``: a fixed set of recognised expression forms, never evaluated as code.

Recognised atoms: ``response.includes("t")`` (and ``!``), ``startsWith``,
``endsWith``, ``response.toLowerCase().includes("t")``, ``response.match(/re/f)``
(and ``!``), ``length|response.length|words.length|lines.length OP N`` (``response.
length`` is an alias of ``length``), ``json.a.b OP literal``,
``json != null``, ``response == expected``, ``response.trim() == expected``. Atoms
join with ``&&`` (mean score, all must pass) and ``||`` (max score, any passes);
``&&`` is split first, so it binds looser than ``||``, as in the TypeScript version.
Anything else fails with "Unsupported expression pattern". Every pattern here,
the expression's own ``/re/`` included, runs in linear time (RE2).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from artemiskit._common._matching import PatternSyntaxError, compile_linear
from artemiskit.prompt_response.evaluators._base import Evaluation, Field
from artemiskit.prompt_response.evaluators._regex import compile_js_regex

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "evaluate", "evaluate_expression", "expression_problem"]

FIELDS = (
    Field(name="expression", kind="str", required=True),
    Field(name="value", kind="str"),
)
_STRING = r"""(?:"([^"]+)"|'([^']+)')"""
_CALL = compile_linear(
    rf"(!?)response\.(includes|startsWith|endsWith)\(\s*{_STRING}\s*\)"
)
_LOWER = compile_linear(rf"response\.toLowerCase\(\)\.includes\(\s*{_STRING}\s*\)")
_MATCH = compile_linear(r"(!?)response\.match\(\s*/(.+)/([gimsuy]*)\s*\)")
_COUNT = compile_linear(
    r"(length|response\.length|words\.length|lines\.length)\s*"
    r"(>=|<=|==|!=|>|<)\s*(\d+)"
)
_JSON = compile_linear(
    r"json((?:\.\w+)+)\s*(>=|<=|==|!=|>|<)\s*"
    r"""("[^"]*"|'[^']*'|-?\d+(?:\.\d+)?|true|false|null)"""
)
_COMPARE = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}
_MISSING = object()


class _UnsupportedError(Exception):
    pass


def _split(expression: str, operator: str) -> list[str]:
    parts, current, quote, index = [], "", None, 0
    while index < len(expression):
        char = expression[index]
        if quote is None and expression.startswith(operator, index):
            parts.append(current.strip())
            current, index = "", index + 2
            continue
        if char in "'\"":
            quote = None if quote == char else (char if quote is None else quote)
        current += char
        index += 1
    parts.append(current.strip())
    return parts


def _strict_equal(left: Any, right: Any) -> bool:
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    numeric = (int, float)
    if isinstance(left, numeric) and isinstance(right, numeric):
        return bool(left == right)
    return type(left) is type(right) and left == right


def _literal(text: str) -> Any:
    if text[0] in "'\"":
        return text[1:-1]
    if text in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[text]
    return float(text)


def _json_atom(match: tuple[str | None, ...], parsed: Any) -> bool:
    _, names, operator, text = (str(part) for part in match)
    field: Any = parsed
    for name in names.split(".")[1:]:
        field = field.get(name, _MISSING) if isinstance(field, dict) else _MISSING
    literal = _literal(text)
    if operator == "==":
        return field is not _MISSING and _strict_equal(field, literal)
    if operator == "!=":
        return field is _MISSING or not _strict_equal(field, literal)
    numeric = isinstance(field, int | float) and not isinstance(field, bool)
    if not numeric or not isinstance(literal, float):
        return False
    return bool(_COMPARE[operator](field, literal))


def _atom(expression: str, response: str, expected: str | None) -> bool:
    if found := _CALL.find(expression, whole=True):
        _, negated, method, double, single = found
        needle = str(double or single)
        if method == "includes":
            result = needle in response
        elif method == "startsWith":
            result = response.startswith(needle)
        else:
            result = response.endswith(needle)
        return not result if negated else result
    if found := _LOWER.find(expression, whole=True):
        return str(found[1] or found[2]).lower() in response.lower()
    if found := _MATCH.find(expression, whole=True):
        _, negated, pattern, flags = found
        try:
            compiled = compile_js_regex(str(pattern), str(flags))
        except PatternSyntaxError as exc:
            raise _UnsupportedError(f"Invalid regular expression: {exc}") from None
        hit = compiled.search(response)
        return not hit if negated else hit
    if found := _COUNT.find(expression, whole=True):
        _, measure, operator, number = (str(part) for part in found)
        if measure in ("length", "response.length"):
            size = len(response.encode("utf-16-le", "surrogatepass")) // 2
        elif measure == "words.length":
            size = len(response.split())
        else:
            size = sum(1 for line in response.split("\n") if line.strip())
        return bool(_COMPARE[operator](size, int(number)))
    parsed = _parse_json(response)
    if parsed is not _MISSING and (found := _JSON.find(expression, whole=True)):
        return _json_atom(found, parsed)
    if expression == "json != null":
        return parsed is not _MISSING and parsed is not None
    if expected is not None and expression == "response == expected":
        return response == expected
    if expected is not None and expression == "response.trim() == expected":
        return response.strip() == expected
    raise _UnsupportedError(f"Unsupported expression pattern: {expression}")


def _atoms(expression: str) -> list[str]:
    """The atoms of ``expression``, split as `evaluate_expression` splits it."""
    expression = expression.strip()
    for operator in ("&&", "||"):
        parts = _split(expression, operator)
        if len(parts) > 1:
            return [atom for part in parts for atom in _atoms(part)]
    return [expression]


def expression_problem(expression: str) -> str | None:
    """Why a ``/re/`` of ``expression`` cannot run (for validation), or ``None``."""
    for atom in _atoms(expression):
        found = _MATCH.find(atom, whole=True)
        if found is None:
            continue
        try:
            compile_js_regex(str(found[2]), str(found[3]))
        except PatternSyntaxError as exc:
            return f"holds a regular expression that cannot be used: {exc}"
    return None


def _parse_json(response: str) -> Any:
    try:
        parsed = json.loads(response)
    except (ValueError, RecursionError):
        return _MISSING
    return _MISSING if parsed is None else parsed


def evaluate_expression(
    expression: str, response: str, expected: str | None = None
) -> tuple[bool, float]:
    """Evaluate ``expression`` on ``response``.

    Returns:
        Whether it passed and its score.

    Raises:
        ValueError: The expression (or a part of it) is not a recognised form.
    """
    expression = expression.strip()
    try:
        parts = _split(expression, "&&")
        if len(parts) > 1:
            results = [evaluate_expression(part, response, expected) for part in parts]
            return all(r[0] for r in results), sum(r[1] for r in results) / len(results)
        parts = _split(expression, "||")
        if len(parts) > 1:
            results = [evaluate_expression(part, response, expected) for part in parts]
            return any(r[0] for r in results), max(r[1] for r in results)
        passed = _atom(expression, response, expected)
    except (_UnsupportedError, ValueError) as exc:
        raise ValueError(f"Expression evaluation failed: {exc}") from None
    return passed, 1.0 if passed else 0.0


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Evaluate the expression; an unrecognised form fails the case."""
    expression = expected["expression"]
    try:
        passed, score = evaluate_expression(expression, response, expected.get("value"))
    except ValueError as exc:
        return Evaluation(passed=False, score=0, reason=f"Inline matcher error: {exc}")
    verdict = "passed" if passed else "failed"
    return Evaluation(
        passed=passed, score=score, reason=f"Expression {verdict}: {expression}"
    )
