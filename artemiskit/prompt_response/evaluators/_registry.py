"""Expectation types by name: how each is checked and evaluated.

`normalize_expectation` turns an expectation as written into the stored form (the
manifest's ``expected``), reporting every problem; `evaluate_expectation` runs one.
``combined`` lives here because it dispatches back into the registry.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from artemiskit.prompt_response.evaluators import (
    _contains,
    _custom,
    _exact,
    _fuzzy,
    _inline,
    _json_schema,
    _llm_grader,
    _regex,
    _similarity,
)
from artemiskit.prompt_response.evaluators._base import (
    Evaluation,
    EvaluationContext,
    Field,
    normalize_fields,
)

if TYPE_CHECKING:
    from artemiskit._common._yaml import KeyPath
    from artemiskit.prompt_response.evaluators._base import Report

__all__ = ["EXPECTATION_TYPES", "evaluate_expectation", "normalize_expectation"]

Evaluate = Callable[[str, Mapping[str, Any], EvaluationContext], Awaitable[Evaluation]]

_TYPES: dict[str, tuple[tuple[Field, ...], Evaluate]] = {
    "exact": (_exact.FIELDS, _exact.evaluate),
    "regex": (_regex.FIELDS, _regex.evaluate),
    "fuzzy": (_fuzzy.FIELDS, _fuzzy.evaluate),
    "llm_grader": (_llm_grader.FIELDS, _llm_grader.evaluate),
    "contains": (_contains.FIELDS, _contains.evaluate),
    "not_contains": (_contains.FIELDS, _contains.evaluate_absent),
    "json_schema": (_json_schema.FIELDS, _json_schema.evaluate),
    "custom": (_custom.FIELDS, _custom.evaluate),
    "similarity": (_similarity.FIELDS, _similarity.evaluate),
    "inline": (_inline.FIELDS, _inline.evaluate),
}
#: Every expectation type, ``combined`` included, in the fact sheet's order.
EXPECTATION_TYPES = (*_TYPES, "combined")
_COMBINED_FIELDS = (
    Field(name="operator", kind="choice", required=True, choices=("and", "or")),
)


def normalize_expectation(
    raw: Any,
    path: KeyPath,
    report: Report,
    *,
    nested: bool = False,
    evaluators: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """Check one expectation and return its stored form.

    Args:
        raw: The expectation as written.
        path: Its key path, for problems.
        report: Told each problem.
        nested: Inside ``combined`` (which may not nest).
        evaluators: The registered ``custom`` evaluator names (``None``: look
            them up).

    Returns:
        The stored form: keys in schema order, defaults filled in.
    """
    if not isinstance(raw, dict):
        report(path, "must be a mapping with a type")
        return {}
    kind = raw.get("type")
    allowed = [t for t in EXPECTATION_TYPES if not (nested and t == "combined")]
    if kind not in allowed:
        report((*path, "type"), f"must be one of: {', '.join(allowed)}")
        return {}
    if kind == "combined":
        out = normalize_fields(kind, raw, _COMBINED_FIELDS, path, report)
        items = raw.get("expectations")
        if not isinstance(items, list) or not items:
            report((*path, "expectations"), "must be a non-empty list of expectations")
            return out
        out["expectations"] = [
            normalize_expectation(
                item,
                (*path, "expectations", index),
                report,
                nested=True,
                evaluators=evaluators,
            )
            for index, item in enumerate(items)
        ]
        return out
    fields, _ = _TYPES[kind]
    out = normalize_fields(kind, raw, fields, path, report)
    _check_patterns(out, path, report)
    if kind == "custom" and isinstance(out.get("evaluator"), str):
        known = _custom.registered_evaluators() if evaluators is None else evaluators
        if out["evaluator"] not in known:
            listing = ", ".join(known) or "none installed"
            report(
                (*path, "evaluator"),
                f"is not registered in the entry-point group "
                f"{_custom.ENTRY_POINT_GROUP} (registered: {listing})",
            )
    return out


def _check_patterns(expected: dict[str, Any], path: KeyPath, report: Report) -> None:
    """Report a pattern that cannot run in linear time (or at all) before any run."""
    kind = expected["type"]
    if kind == "regex" and isinstance(expected.get("pattern"), str):
        flags = expected.get("flags")
        problem = _regex.pattern_problem(
            expected["pattern"], flags if isinstance(flags, str) else ""
        )
        if problem is not None:
            report((*path, "pattern"), problem)
    elif kind == "inline" and isinstance(expected.get("expression"), str):
        problem = _inline.expression_problem(expected["expression"])
        if problem is not None:
            report((*path, "expression"), problem)


async def _combined(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    results = [
        await evaluate_expectation(response, item, context)
        for item in expected["expectations"]
    ]
    count, passed = len(results), sum(1 for r in results if r.passed)
    if expected["operator"] == "and":
        score = sum(r.score for r in results) / count
        if passed == count:
            return Evaluation(
                passed=True, score=score, reason=f"All {count} expectations passed"
            )
        reason = f"{passed}/{count} expectations passed (all required)"
        return Evaluation(passed=False, score=score, reason=reason)
    score = max(r.score for r in results)
    if passed:
        reason = f"{passed}/{count} expectations passed (at least one required)"
        return Evaluation(passed=True, score=score, reason=reason)
    reason = "No expectations passed (at least one required)"
    return Evaluation(passed=False, score=score, reason=reason)


async def evaluate_expectation(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Evaluate the response against one stored expectation."""
    kind = expected["type"]
    if kind == "combined":
        return await _combined(response, expected, context)
    return await _TYPES[kind][1](response, expected, context)
