"""``regex``: a search with the pattern and JS flags on the raw response."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "compile_js_regex", "evaluate"]

FIELDS = (
    Field(name="pattern", kind="str", required=True),
    Field(name="flags", kind="str"),
)
_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "g": 0, "u": 0, "y": 0}
_NAMED_GROUP = re.compile(r"\(\?<(?=[A-Za-z_])")


def compile_js_regex(pattern: str, flags: str = "") -> tuple[re.Pattern[str], bool]:
    r"""Compile a JavaScript regular expression for Python.

    ``\d``, ``\w`` and ``\b`` stay ASCII as in JS, named groups ``(?<n>...)``
    become Python's ``(?P<n>...)``.

    Returns:
        The pattern and whether it is sticky (``y``: anchored at index 0).

    Raises:
        re.error: The pattern or a flag is invalid.
    """
    value = re.ASCII
    for flag in flags:
        if flag not in _FLAGS or flags.count(flag) > 1:
            raise re.error(f"Invalid flags supplied to RegExp constructor '{flags}'")
        value |= _FLAGS[flag]
    return re.compile(_NAMED_GROUP.sub("(?P<", pattern), value), "y" in flags


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Search the raw (untrimmed) response for the pattern."""
    pattern = expected["pattern"]
    try:
        compiled, sticky = compile_js_regex(pattern, expected.get("flags") or "")
    except re.error as exc:
        return Evaluation(passed=False, score=0, reason=f"Invalid regex pattern: {exc}")
    found = compiled.match(response) if sticky else compiled.search(response)
    if found:
        return Evaluation(passed=True, score=1, reason=f"Matched pattern: {pattern}")
    return Evaluation(passed=False, score=0, reason=f"Did not match pattern: {pattern}")
