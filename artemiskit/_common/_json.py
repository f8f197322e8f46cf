"""Strict JSON for saved evidence: what a hand-edited file may not hold.

Python's ``json`` reads more than JSON: ``NaN`` and ``Infinity``, numbers such as
``1e400`` that become infinite, integers of any length (until the interpreter's
digit limit raises a bare `ValueError`), nesting until a `RecursionError`, and
strings with lone surrogates that no UTF-8 writer can encode. Evidence files
(records, suite records, transcripts) are read with `load_strict_json`, which
refuses all of these with one `StrictJsonError` saying what is wrong.

Python's ``json`` also keeps the last of repeated keys in an object. User files
(datasets, fixtures) are read with `unique_keys` as the object hook, which refuses
them as the YAML reader does; `duplicate_key_position` then says where.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = [
    "MAX_EVIDENCE_DEPTH",
    "MAX_EVIDENCE_INTEGER",
    "DuplicateKeyError",
    "StrictJsonError",
    "duplicate_key_position",
    "load_strict_json",
    "unique_keys",
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
# Numbers as Python reads them (an overflowing float is infinite, an integer of
# any length up to the interpreter's digit limit is read): for a caller whose
# schema bounds every number it uses.
_UNBOUNDED_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


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


def load_strict_json(
    text: str, *, lone_surrogates: bool = False, bounded_numbers: bool = True
) -> Any:
    """The JSON value of ``text``, refusing what strict JSON does not allow.

    Args:
        text: The JSON text.
        lone_surrogates: Accept strings with lone surrogate escapes. The
            prompt-response store keeps what models answered, and a model can
            answer one (its manifests escape it as a JSON escape); so does a
            replay cassette; evidence of the workflow runner never holds one.
        bounded_numbers: Refuse integers outside 64 bits and numbers that
            overflow (the default). ``False`` leaves number ranges to the
            caller's schema, which must then bound every number it uses: each
            number costs a call less (a suite reads thousands of cassette
            lines).

    Raises:
        StrictJsonError: Not JSON, or it holds ``NaN``/``Infinity``, a number
            that overflows, an integer outside 64 bits, nesting deeper than
            `MAX_EVIDENCE_DEPTH`, or (unless ``lone_surrogates``) a lone
            surrogate.
    """
    decoder = _DECODER if bounded_numbers else _UNBOUNDED_DECODER
    try:
        value = decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise StrictJsonError(
            f"not JSON ({exc.msg})", line=exc.lineno, column=exc.colno
        ) from None
    except RecursionError:
        raise StrictJsonError(
            f"nests deeper than {MAX_EVIDENCE_DEPTH} arrays or objects"
        ) from None
    except StrictJsonError:
        raise
    except ValueError:
        # unbounded numbers: an integer past the interpreter's digit limit
        raise StrictJsonError("holds an integer too long to read") from None
    if not _may_break_shape(text):
        return value
    _check_shape(value, surrogates=lone_surrogates)
    return value


def _may_break_shape(text: str) -> bool:
    r"""Whether the value of ``text`` could nest too deep or hold a lone surrogate.

    Without a ``\u`` escape and without a raw surrogate in the text, no string
    of its value holds a surrogate; with fewer brackets than the depth bound, it
    cannot nest that deep. Most evidence is like that, and then the walk over
    every value (`_check_shape`) is not needed.
    """
    if "\\u" in text or text.count("[") + text.count("{") >= MAX_EVIDENCE_DEPTH:
        return True
    if text.isascii():  # known for every str without looking at it again
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class DuplicateKeyError(ValueError):
    """An object of the JSON text repeats a key (`unique_keys`); no content."""

    def __init__(self) -> None:
        super().__init__("duplicate key")


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An ``object_pairs_hook`` for `json.loads` that refuses repeated keys.

    Raises:
        DuplicateKeyError: A key appears twice in one object.
    """
    result = dict(pairs)
    if len(result) != len(pairs):
        raise DuplicateKeyError
    return result


def _string_end(text: str, start: int) -> int:
    """The index after the JSON string that opens at ``start``."""
    cursor = start + 1
    while True:
        quote = text.find('"', cursor)
        if quote < 0:
            return len(text)
        backslashes = 0
        while text[quote - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return quote + 1
        cursor = quote + 1


def duplicate_key_position(text: str) -> tuple[int, int] | None:
    r"""The (line, column) of the first key repeating a key of its object, if any.

    One linear pass over ``text``, a JSON text valid at least up to that key
    (`unique_keys` refused it there); keys are compared decoded, so ``"id"``
    and ``"\u0069d"`` are the same key. Lines and columns count from 1.
    """
    # per open container: the keys of an object so far, None for an array
    open_: list[set[str] | None] = []
    expect_key = False
    line, line_start = 1, 0
    cursor, size = 0, len(text)
    while cursor < size:
        char = text[cursor]
        if char == '"':
            end = _string_end(text, cursor)
            keys = open_[-1] if open_ else None
            if expect_key and keys is not None:
                try:
                    key = json.loads(text[cursor:end])
                except ValueError:
                    return None
                if key in keys:
                    return line, cursor - line_start + 1
                keys.add(key)
                expect_key = False
            cursor = end
            continue
        if char == "\n":
            line, line_start = line + 1, cursor + 1
        elif char == "{":
            open_.append(set())
            expect_key = True
        elif char == "[":
            open_.append(None)
        elif char in "]}":
            if open_:
                open_.pop()
            expect_key = False
        elif char == ",":
            expect_key = bool(open_) and open_[-1] is not None
        cursor += 1
    return None
