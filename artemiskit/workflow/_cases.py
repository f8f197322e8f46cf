"""Dataset cases (SPEC section 19): rows of a JSONL or CSV text, with ids and lines.

A case is a mapping of values with an ``id``: the row's own (matching
``[A-Za-z0-9][A-Za-z0-9._-]{0,127}``, unique in the dataset) or, without one,
its 1-based position zero-padded to 4 digits. Each case keeps the line it was
read from so errors can name ``FILE:LINE``; errors never quote case values.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Final

import attrs

from artemiskit._common._json import (
    DuplicateKeyError,
    duplicate_key_position,
    unique_keys,
)

__all__ = [
    "MAX_CASES",
    "Case",
    "CaseError",
    "cases_from_csv",
    "cases_from_jsonl",
    "duplicate_key_error",
    "number_cases",
]

MAX_CASES: Final = 100_000
_CASE_ID: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}\Z")


class CaseError(ValueError):
    """A dataset row that cannot be a case, with the line it is on.

    Attributes:
        line: The 1-based line in the dataset file.
        column: The 1-based column, when known.
    """

    def __init__(self, message: str, *, line: int, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


@attrs.frozen(kw_only=True)
class Case:
    """One case of a dataset.

    Attributes:
        id: The case id.
        values: The case's values (including ``id`` when the row had one).
        line: The 1-based line of the dataset file the case starts on.
        column: The 1-based column it starts at, where the format has one
            (YAML and JSON lists); ``None`` for line-based formats.
    """

    id: str
    values: Mapping[str, object]
    line: int
    column: int | None = None


def number_cases(
    rows: Iterable[tuple[int, object]],
    columns: Mapping[int, int] | None = None,
) -> tuple[Case, ...]:
    """Cases from ``(line, row)`` pairs: ids checked, defaulted and unique.

    Args:
        rows: Each row's line and its parsed value, in dataset order.
        columns: The column each row starts at, by its 1-based position
            (formats with columns); rows without one have ``None``.

    Returns:
        The cases in order.

    Raises:
        CaseError: A row that is not a mapping, a bad or repeated id, a value
            holding a number that is not finite (``NaN``, an infinity, ``1e400``:
            no JSON can write it into a conversation or a record), or more than
            `MAX_CASES` rows.
    """
    cases: list[Case] = []
    seen: dict[str, int] = {}
    for position, (line, row) in enumerate(rows, start=1):
        column = None if columns is None else columns.get(position)
        if position > MAX_CASES:
            raise CaseError(
                f"a dataset holds at most {MAX_CASES} cases", line=line, column=column
            )
        if not isinstance(row, Mapping) or not all(isinstance(k, str) for k in row):
            raise CaseError(
                "a case must be a mapping of names to values", line=line, column=column
            )
        raw_id = row.get("id", f"{position:04d}")
        if not isinstance(raw_id, str) or _CASE_ID.match(raw_id) is None:
            raise CaseError(
                "a case id is 1-128 letters, digits, '.', '_' or '-', starting with a"
                " letter or digit",
                line=line,
                column=column,
            )
        if raw_id in seen:
            raise CaseError(
                f"case id {raw_id!r} repeats the case on line {seen[raw_id]}",
                line=line,
                column=column,
            )
        if not _finite(row):
            raise CaseError(
                "a case value holds a number that is not finite (NaN or infinite)",
                line=line,
                column=column,
            )
        seen[raw_id] = line
        cases.append(Case(id=raw_id, values=dict(row), line=line, column=column))
    return tuple(cases)


def _finite(row: Mapping[str, object]) -> bool:
    """Whether every number in ``row`` (at any depth) is finite."""
    pending: list[object] = list(row.values())
    while pending:
        value = pending.pop()
        if isinstance(value, float):
            if not math.isfinite(value):
                return False
        elif isinstance(value, Mapping):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return True


def duplicate_key_error(text: str, first_line: int = 1) -> CaseError:
    """The refusal of JSON ``text`` whose object repeats a key, at that key.

    ``first_line`` is the file line ``text`` starts on (a JSON Lines row).
    """
    line, column = duplicate_key_position(text) or (1, None)
    return CaseError(
        "duplicate key: a key appears once in an object",
        line=first_line + line - 1,
        column=column,
    )


def _jsonl_rows(text: str) -> Iterable[tuple[int, object]]:
    for line_number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield line_number, json.loads(line, object_pairs_hook=unique_keys)
        except DuplicateKeyError:
            raise duplicate_key_error(line, line_number) from None
        except json.JSONDecodeError as exc:
            raise CaseError(
                f"invalid JSON on this line ({exc.msg})",
                line=line_number,
                column=exc.colno,
            ) from None
        except (ValueError, RecursionError):
            raise CaseError("invalid JSON on this line", line=line_number) from None


def cases_from_jsonl(text: str) -> tuple[Case, ...]:
    """Cases from JSON Lines text: one object per non-blank line.

    Args:
        text: The decoded dataset file.

    Returns:
        The cases, each with its file line.

    Raises:
        CaseError: Invalid JSON on a line, or a row `number_cases` refuses.
    """
    return number_cases(_jsonl_rows(text))


def _csv_rows(text: str) -> Iterable[tuple[int, object]]:
    reader = csv.reader(text.splitlines(keepends=True), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            return
        if len(set(header)) != len(header) or not all(header):
            raise CaseError(
                "the header row needs distinct, non-empty column names", line=1
            )
        start = reader.line_num + 1
        for row in reader:
            if len(row) != len(header):
                raise CaseError(
                    f"this row has {len(row)} fields; the header has {len(header)}",
                    line=start,
                )
            yield start, dict(zip(header, row, strict=True))
            start = reader.line_num + 1
    except csv.Error:
        raise CaseError("malformed CSV", line=reader.line_num or 1) from None


def cases_from_csv(text: str) -> tuple[Case, ...]:
    """Cases from CSV text with a header row; every value is a string.

    Args:
        text: The decoded dataset file.

    Returns:
        The cases, each with its file line (the header is line 1).

    Raises:
        CaseError: A ragged row, a bad header, malformed CSV, or a row
            `number_cases` refuses.
    """
    return number_cases(_csv_rows(text))
