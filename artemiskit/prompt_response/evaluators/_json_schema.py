"""``json_schema``: the response parses as JSON that fits the schema's subset.

Like the TypeScript version, the first fenced block (```` ``` ```` or
```` ```json ````) is used when there is one, and the schema understands only
``type`` (string, number, integer, boolean, null, array with ``items``, object with
``properties`` and ``required``); other keywords are ignored and extra properties
are allowed (docs/migrating.md).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from artemiskit._common._matching import compile_linear
from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "evaluate", "extract_json", "schema_issues"]

FIELDS = (Field(name="schema", kind="object", required=True),)
_FENCE = compile_linear(r"```(?:json)?\s*([\s\S]*?)```")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"Unexpected token {name}")


def extract_json(response: str) -> Any:
    """Parse the first fenced block (else the whole trimmed response) as JSON.

    Raises:
        ValueError: The text is not JSON.
    """
    fenced = _FENCE.find(response)
    text = str(fenced[1]).strip() if fenced else response.strip()
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def schema_issues(
    schema: Any, value: Any, path: tuple[str | int, ...] = ()
) -> list[tuple[tuple[str | int, ...], str]]:
    """Check ``value`` against the understood subset of ``schema``.

    Returns:
        Each issue as (path, zod-style message), in document order.
    """
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind not in (
        "string",
        "number",
        "integer",
        "boolean",
        "null",
        "array",
        "object",
    ):
        return []
    got = _kind(value)
    want = "number" if kind == "integer" else kind
    if got != want:
        return [(path, f"Expected {want}, received {got}")]
    if kind == "integer" and not float(value).is_integer():
        return [(path, "Expected integer, received float")]
    issues: list[tuple[tuple[str | int, ...], str]] = []
    if kind == "array" and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            issues += schema_issues(schema["items"], item, (*path, index))
    if kind == "object" and isinstance(schema.get("properties"), dict):
        required = schema.get("required") or []
        for name, sub in schema["properties"].items():
            if name not in value:
                if name in required:
                    issues.append(((*path, name), "Required"))
                continue
            issues += schema_issues(sub, value[name], (*path, name))
    return issues


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Parse and check the response."""
    try:
        parsed = extract_json(response)
    except ValueError as exc:
        return Evaluation(passed=False, score=0, reason=f"Failed to parse JSON: {exc}")
    issues = schema_issues(expected["schema"], parsed)
    if not issues:
        return Evaluation(passed=True, score=1, reason="Response matches JSON schema")
    listing = ", ".join(
        f"{'.'.join(str(p) for p in where)}: {message}" for where, message in issues
    )
    return Evaluation(
        passed=False, score=0, reason=f"Schema validation failed: {listing}"
    )
