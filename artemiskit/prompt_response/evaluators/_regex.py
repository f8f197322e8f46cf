"""``regex``: a search with the pattern and JS flags on the raw response.

Patterns run on the linear-time engine (RE2), like every pattern the product runs on
model text: no response can stall a run. Backreferences and look-around, which need
backtracking, are refused as an invalid pattern.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from artemiskit._common._matching import LinearPattern, compile_linear
from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "compile_js_regex", "evaluate"]

FIELDS = (
    Field(name="pattern", kind="str", required=True),
    Field(name="flags", kind="str"),
)
_FLAGS = frozenset("imsguy")
_NAMED_GROUP = re.compile(r"\(\?<(?=[A-Za-z_])")


def compile_js_regex(pattern: str, flags: str = "") -> LinearPattern:
    r"""Compile a JavaScript regular expression for the linear-time engine.

    ``\d``, ``\w`` and ``\b`` are ASCII as in JS, named groups ``(?<n>...)``
    become ``(?P<n>...)``, and the sticky flag ``y`` anchors the pattern at index 0.

    Returns:
        The compiled pattern; ``search`` it.

    Raises:
        re.error: The pattern or a flag is invalid, or needs backtracking.
    """
    from artemiskit._common._matching import PatternSyntaxError

    for flag in flags:
        if flag not in _FLAGS or flags.count(flag) > 1:
            raise re.error(f"Invalid flags supplied to RegExp constructor '{flags}'")
    source = _NAMED_GROUP.sub("(?P<", pattern)
    if "y" in flags:
        source = f"\\A(?:{source})"
    try:
        return compile_linear(
            source,
            ignore_case="i" in flags,
            multiline="m" in flags,
            dot_all="s" in flags,
        )
    except PatternSyntaxError as exc:
        raise re.error(str(exc)) from None


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Search the raw (untrimmed) response for the pattern."""
    pattern = expected["pattern"]
    try:
        compiled = compile_js_regex(pattern, expected.get("flags") or "")
    except re.error as exc:
        return Evaluation(passed=False, score=0, reason=f"Invalid regex pattern: {exc}")
    if compiled.search(response):
        return Evaluation(passed=True, score=1, reason=f"Matched pattern: {pattern}")
    return Evaluation(passed=False, score=0, reason=f"Did not match pattern: {pattern}")
