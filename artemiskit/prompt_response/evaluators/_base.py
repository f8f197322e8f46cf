"""What every expectation type shares: the result, the context, field checking.

An expectation is kept as the plain mapping the TypeScript schema produced (keys in
schema order, defaults filled in, unknown keys dropped), because that mapping is
what a manifest stores under ``expected``. Each type module declares its fields as
`Field` values and evaluates a response against the normalised mapping.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

import attrs

from artemiskit._common._yaml import KeyPath

__all__ = [
    "Embedder",
    "Evaluation",
    "EvaluationContext",
    "Field",
    "Grader",
    "Report",
    "normalize_fields",
]

Report = Callable[[KeyPath, str], None]
"""Told the key path and rule of each problem found while checking."""

Grader = Callable[[str, "str | None", int], Awaitable[str]]
"""Sends one prompt to the judge (prompt, model or None, max tokens); its text."""


class Embedder(Protocol):
    """Turns a text into an embedding vector through an embeddings endpoint."""

    async def embed(self, text: str, model: str | None) -> list[float]:
        """Return the embedding of ``text`` (``model`` None: the default)."""
        ...


@attrs.frozen(kw_only=True)
class Evaluation:
    """The verdict of one expectation on one response.

    Attributes:
        passed: Whether the response meets the expectation.
        score: 0.0 to 1.0 (the type's own scoring rule).
        reason: Why, in the TypeScript wording.
    """

    passed: bool
    score: float
    reason: str | None = None


@attrs.frozen(kw_only=True)
class EvaluationContext:
    """What an expectation may use beside the response.

    Attributes:
        grader: The judge (``llm_grader`` and ``similarity`` in LLM mode), or
            ``None`` when no judge configuration was given.
        embedder: The embeddings endpoint for ``similarity``, or ``None``.
    """

    grader: Grader | None = None
    embedder: Embedder | None = None


@attrs.frozen(kw_only=True)
class Field:
    """One field of an expectation type.

    Attributes:
        name: The YAML key.
        kind: ``str``, ``bool``, ``unit`` (a number 0..1), ``strings`` (a list of
            strings), ``object`` (a mapping) or ``choice``.
        required: Whether the key must be present.
        default: Filled in when absent (``None``: stays absent).
        choices: The accepted values of a ``choice``.
    """

    name: str
    kind: str
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()


def _check(field: Field, value: Any) -> str | None:
    if field.kind == "str":
        return None if isinstance(value, str) else "must be a string"
    if field.kind == "bool":
        return None if isinstance(value, bool) else "must be a boolean"
    if field.kind == "unit":
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return None if ok and 0 <= value <= 1 else "must be a number from 0 to 1"
    if field.kind == "strings":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return None if ok else "must be a list of strings"
    if field.kind == "object":
        return None if isinstance(value, dict) else "must be a mapping"
    if value in field.choices:
        return None
    return f"must be one of: {', '.join(field.choices)}"


def normalize_fields(
    kind: str,
    raw: Mapping[str, Any],
    fields: tuple[Field, ...],
    path: KeyPath,
    report: Report,
) -> dict[str, Any]:
    """Check ``raw`` against ``fields`` and return the stored form.

    Args:
        kind: The expectation's ``type`` (first key of the result).
        raw: The expectation as written.
        fields: The type's fields, in schema order.
        path: The expectation's key path, for problems.
        report: Told each problem.

    Returns:
        ``{"type": kind, ...}`` with the fields in schema order, defaults filled
        in and unknown keys dropped.
    """
    out: dict[str, Any] = {"type": kind}
    for field in fields:
        if field.name not in raw:
            if field.required:
                report((*path, field.name), "is required")
            elif field.default is not None:
                out[field.name] = field.default
            continue
        value = raw[field.name]
        problem = _check(field, value)
        if problem is not None:
            report((*path, field.name), problem)
            continue
        out[field.name] = value
    return out
