"""Strict JSON for saved evidence: what a hand-edited file may not hold.

Python's ``json`` reads more than JSON: ``NaN`` and ``Infinity``, numbers such as
``1e400`` that become infinite, integers of any length (until the interpreter's
digit limit raises a bare `ValueError`), nesting until a `RecursionError`, and
strings with lone surrogates that no UTF-8 writer can encode. Evidence files
(records, suite records, transcripts) are read with `load_strict_json`, which
refuses all of these with one `StrictJsonError` saying what is wrong.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = [
    "MAX_EVIDENCE_DEPTH",
    "MAX_EVIDENCE_INTEGER",
    "StrictJsonError",
    "load_strict_json",
]

MAX_EVIDENCE_DEPTH = 256
"""The deepest nesting of arrays and objects accepted."""

MAX_EVIDENCE_INTEGER = 2**63 - 1
"""The largest integer magnitude accepted (every count and duration fits in 64 bits)."""

# More digits than this cannot be an integer within MAX_EVIDENCE_INTEGER; checked
# before converting, so a 5,000-digit integer costs nothing.
_MAX_DIGITS = len(str(MAX_EVIDENCE_INTEGER))


class StrictJsonError(ValueError):
    """The text is not strict JSON; ``message`` says what is wrong (no content).

    Attributes:
        message: What is wrong, without quoting the text.
        line: The line of a syntax error (from 1), else ``None``.
        column: The column of a syntax error (from 1), else ``None``.
    """

    def __init__(
        self, message: str, *, line: int | None = None, column: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def _refuse_constant(name: str) -> object:
    raise StrictJsonError(f"holds {name}, which is not a JSON number")


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_DIGITS or abs(int(digits)) > MAX_EVIDENCE_INTEGER:
        raise StrictJsonError("holds an integer outside the 64-bit range")
    return int(digits)


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise StrictJsonError("holds a number too large to represent")
    return value


_DECODER = json.JSONDecoder(
    parse_constant=_refuse_constant, parse_int=_integer, parse_float=_number
)


def _check_shape(value: Any, *, surrogates: bool) -> None:
    """Refuse nesting past `MAX_EVIDENCE_DEPTH` and strings no writer can encode."""
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if not surrogates:
                _check_string(item)
        elif isinstance(item, dict | list):
            if depth >= MAX_EVIDENCE_DEPTH:
                raise StrictJsonError(
                    f"nests deeper than {MAX_EVIDENCE_DEPTH} arrays or objects"
                )
            if isinstance(item, dict):
                if not surrogates:
                    for key in item:
                        _check_string(key)
                children = list(item.values())
            else:
                children = item
            pending += [(child, depth + 1) for child in children]


def _check_string(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise StrictJsonError(
            "holds a string with a lone surrogate (not Unicode text)"
        ) from None


def load_strict_json(text: str, *, lone_surrogates: bool = False) -> Any:
    """The JSON value of ``text``, refusing what strict JSON does not allow.

    Args:
        text: The JSON text.
        lone_surrogates: Accept strings with lone surrogate escapes. The
            prompt-response store keeps what models answered, and a model can
            answer one (its manifests escape it as a JSON escape); evidence of
            the workflow runner never holds one.

    Raises:
        StrictJsonError: Not JSON, or it holds ``NaN``/``Infinity``, a number
            that overflows, an integer outside 64 bits, nesting deeper than
            `MAX_EVIDENCE_DEPTH`, or (unless ``lone_surrogates``) a lone
            surrogate.
    """
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise StrictJsonError(
            f"not JSON ({exc.msg})", line=exc.lineno, column=exc.colno
        ) from None
    except RecursionError:
        raise StrictJsonError(
            f"nests deeper than {MAX_EVIDENCE_DEPTH} arrays or objects"
        ) from None
    _check_shape(value, surrogates=lone_surrogates)
    return value
