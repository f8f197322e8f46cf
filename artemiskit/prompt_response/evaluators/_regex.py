r"""``regex``: a search with the pattern and JS flags on the raw response.

Patterns run in linear time (RE2 through `compile_linear`), never by backtracking:
the JavaScript syntax is translated (``\uXXXX``, ``\u{X}``, ``\/``, ``[^]``,
``\s``), and what RE2 cannot take (backreferences, look-around) is refused when
the scenario is checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit._common._matching import PatternSyntaxError, compile_linear
from artemiskit.prompt_response.evaluators._base import Evaluation, Field

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit._common._matching import LinearPattern
    from artemiskit.prompt_response.evaluators._base import EvaluationContext

__all__ = ["FIELDS", "compile_js_regex", "evaluate"]

FIELDS = (
    Field(name="pattern", kind="str", required=True),
    Field(name="flags", kind="str"),
)
_FLAGS = frozenset("gimsuy")
_HEX = frozenset("0123456789abcdefABCDEF")
# JavaScript's \s: Unicode white space and line terminators (RE2's is ASCII only).
_NOTHING = r"[^\x00-\x{10ffff}]"
_JS_SPACE = (
    r"\t\n\x0b\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}"
    r"\x{205f}\x{3000}\x{feff}"
)


def _unicode_escape(pattern: str, index: int) -> tuple[str, int] | None:
    r"""The RE2 form of a ``\u`` escape at ``index`` (the ``u``), and where it ends."""
    if pattern.startswith("{", index + 1):
        end = pattern.find("}", index + 2)
        digits = pattern[index + 2 : end] if end > 0 else ""
        if digits and len(digits) <= 6 and set(digits) <= _HEX:
            return f"\\x{{{digits}}}", end + 1
        return None
    digits = pattern[index + 1 : index + 5]
    if len(digits) == 4 and set(digits) <= _HEX:
        return f"\\x{{{digits}}}", index + 5
    return None


def _translate(pattern: str) -> str:
    r"""Rewrite the JavaScript-only syntax of ``pattern`` in RE2's."""
    out: list[str] = []
    index, in_class = 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            follower = pattern[index + 1]
            unicode = _unicode_escape(pattern, index + 1) if follower == "u" else None
            if unicode is not None:
                out.append(unicode[0])
                index = unicode[1]
                continue
            if follower == "/":
                out.append("/")
            elif follower == "s":
                out.append(_JS_SPACE if in_class else f"[{_JS_SPACE}]")
            elif follower == "S" and not in_class:
                out.append(f"[^{_JS_SPACE}]")
            else:
                out.append(pattern[index : index + 2])
            index += 2
            continue
        if not in_class and pattern.startswith("[^]", index):
            out.append(r"[\s\S]")
            index += 3
            continue
        if not in_class and pattern.startswith("[]", index):
            out.append(_NOTHING)  # JS: an empty class, which never matches
            index += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        if char == "]" and in_class:
            in_class = False
        out.append(char)
        index += 1
    return "".join(out)


def compile_js_regex(pattern: str, flags: str = "") -> LinearPattern:
    r"""Compile a JavaScript regular expression for linear-time matching.

    ``\d``, ``\w`` and ``\b`` stay ASCII as in JS; ``i``, ``m`` and ``s`` map to
    RE2's flags; ``y`` (sticky) anchors the search at index 0; ``g`` and ``u``
    change nothing for a search (patterns always match code points).

    Returns:
        The compiled pattern.

    Raises:
        PatternSyntaxError: The pattern or a flag is invalid, or the pattern needs
            backtracking (backreferences, look-around).
    """
    for flag in flags:
        if flag not in _FLAGS or flags.count(flag) > 1:
            raise PatternSyntaxError(f"invalid regular expression flags {flags!r}")
    source = _translate(pattern)
    if "y" in flags:
        source = rf"\A(?:{source})"
    return compile_linear(
        source, ignore_case="i" in flags, multiline="m" in flags, dot_all="s" in flags
    )


def pattern_problem(pattern: str, flags: str = "") -> str | None:
    """Why ``pattern`` cannot run (for validation), or ``None`` when it can."""
    try:
        compile_js_regex(pattern, flags)
    except PatternSyntaxError as exc:
        return f"is not a usable regular expression: {exc}"
    return None


async def evaluate(
    response: str, expected: Mapping[str, Any], context: EvaluationContext
) -> Evaluation:
    """Search the raw (untrimmed) response for the pattern."""
    pattern = expected["pattern"]
    try:
        compiled = compile_js_regex(pattern, expected.get("flags") or "")
    except PatternSyntaxError as exc:
        return Evaluation(passed=False, score=0, reason=f"Invalid regex pattern: {exc}")
    if compiled.search(response):
        return Evaluation(passed=True, score=1, reason=f"Matched pattern: {pattern}")
    return Evaluation(passed=False, score=0, reason=f"Did not match pattern: {pattern}")
