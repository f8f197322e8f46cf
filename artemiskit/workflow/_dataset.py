"""A workflow's cases (SPEC section 19): inline ``cases:`` or a ``dataset:`` file.

A dataset is a file under the fixture root: ``.jsonl`` (one object a line),
``.json`` (a list), ``.yaml``/``.yml`` (a list) or ``.csv`` (a header row; every
value a string). It is read whole, at most 64 MiB and 100,000 cases, before
anything runs; every refusal is a `WorkflowError` whose problem names the dataset
file and the line (and column where the format has one), never a case value.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Final

from artemiskit._common._json import DuplicateKeyError, unique_keys
from artemiskit._common._reading import decode_text, read_file_below_now
from artemiskit._errors import WorkflowError
from artemiskit.workflow._cases import (
    MAX_CASES,
    Case,
    CaseError,
    cases_from_csv,
    cases_from_jsonl,
    duplicate_key_error,
    number_cases,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit._common._yaml import ParsedYaml
    from artemiskit._errors import Problem

__all__ = [
    "DATASET_SUFFIXES",
    "MAX_DATASET_BYTES",
    "dataset_source",
    "inline_cases",
    "parse_dataset",
    "read_dataset",
]

#: The largest dataset file read, in bytes.
MAX_DATASET_BYTES: Final = 64 * 1024 * 1024
#: The file name endings a dataset may have.
DATASET_SUFFIXES: Final = (".jsonl", ".json", ".yaml", ".yml", ".csv")


def _problem(
    message: str, source: str, line: int | None = None, column: int | None = None
) -> Problem:
    from artemiskit._errors import Problem  # attrs, only once a problem exists

    return Problem(message=message, path="$", source=source, line=line, column=column)


def _invalid(source: str, problems: Sequence[Problem]) -> WorkflowError:
    return WorkflowError(f"{source}: invalid dataset", list(problems))


def dataset_source(root: str | os.PathLike[str], reference: str) -> str:
    """How problems name a dataset file: the fixture root joined with the reference."""
    return os.path.join(os.fspath(root), reference)


def _json_item_starts(text: str) -> list[tuple[int, int]]:
    """The (line, column) where each item of a top-level JSON array starts.

    One linear pass that tracks strings, escapes and nesting depth; ``text`` is
    already known to be a valid JSON array.
    """
    starts: list[tuple[int, int]] = []
    line, line_start = 1, 0
    depth = 0
    in_string = escaped = False
    expect_item = False
    for index, char in enumerate(text):
        if char == "\n":
            line, line_start = line + 1, index + 1
            continue
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char in " \t\r\ufeff":
            continue
        if expect_item and char != "]":
            starts.append((line, index - line_start + 1))
        expect_item = False
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth == 1:
                expect_item = True
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 1:
            expect_item = True
    return starts


def _cases_from_json(text: str) -> tuple[Case, ...]:
    try:
        data = json.loads(text, object_pairs_hook=unique_keys)
    except DuplicateKeyError:
        raise duplicate_key_error(text) from None
    except json.JSONDecodeError as exc:
        raise CaseError(
            f"invalid JSON ({exc.msg})", line=exc.lineno, column=exc.colno
        ) from None
    except (ValueError, RecursionError):
        raise CaseError("invalid JSON", line=1) from None
    if not isinstance(data, list):
        raise CaseError("a .json dataset holds a list of cases", line=1, column=1)
    if len(data) > MAX_CASES:
        raise CaseError(f"a dataset holds at most {MAX_CASES} cases", line=1, column=1)
    starts = _json_item_starts(text)
    columns = {position: column for position, (_, column) in enumerate(starts, start=1)}
    rows = [(line, row) for (line, _), row in zip(starts, data, strict=True)]
    return number_cases(rows, columns)


def _cases_from_yaml(text: str, source: str) -> tuple[Case, ...]:
    from artemiskit._common._yaml import parse_yaml_plain

    doc = parse_yaml_plain(text, source=source)  # its problems name the dataset
    if not isinstance(doc.data, list):
        position = doc.position(()) or (1, 1)
        raise CaseError(
            "a YAML dataset holds a list of cases", line=position[0], column=position[1]
        )
    if len(doc.data) > MAX_CASES:
        raise CaseError(f"a dataset holds at most {MAX_CASES} cases", line=1, column=1)
    rows: list[tuple[int, object]] = []
    columns: dict[int, int] = {}
    for index, row in enumerate(doc.data):
        line, column = doc.position((index,)) or (1, 1)
        rows.append((line, row))
        columns[index + 1] = column
    return number_cases(rows, columns)


def parse_dataset(text: str, suffix: str, *, source: str) -> tuple[Case, ...]:
    """Cases from a dataset's text.

    Args:
        text: The decoded file.
        suffix: Its file name ending, one of `DATASET_SUFFIXES` (any case).
        source: The file name used in problems.

    Returns:
        The cases in file order, each with the line (and column) it starts at.

    Raises:
        WorkflowError: Invalid JSON, a ragged CSV row, a repeated or bad id, a
            row that is not a mapping, more than 100,000 cases; the problem names
            the file and line.
    """
    suffix = suffix.lower()
    try:
        if suffix == ".jsonl":
            cases = cases_from_jsonl(text)
        elif suffix == ".csv":
            cases = cases_from_csv(text)
        elif suffix == ".json":
            cases = _cases_from_json(text)
        else:
            cases = _cases_from_yaml(text, source)
    except CaseError as exc:
        raise _invalid(
            source, [_problem(str(exc), source, exc.line, exc.column)]
        ) from None
    if not cases:
        raise _invalid(source, [_problem("the dataset holds no cases", source)])
    return cases


def read_dataset(root: str | os.PathLike[str], reference: str) -> tuple[Case, ...]:
    """Read and parse the dataset a workflow names, below its fixture root.

    Args:
        root: The fixture root (the workflow file's folder by default).
        reference: The workflow's ``dataset:`` value (path rules of SPEC 3).

    Returns:
        The cases in file order.

    Raises:
        WorkflowError: The file is missing, not a regular file, larger than
            64 MiB, not UTF-8, of an unknown suffix, or its content is refused
            (`parse_dataset`). Nothing is read from outside the root.
    """
    source = dataset_source(root, reference)
    suffix = os.path.splitext(reference)[1].lower()
    if suffix not in DATASET_SUFFIXES:
        message = "a dataset is a .jsonl, .json, .yaml, .yml or .csv file"
        raise _invalid(source, [_problem(message, source)])

    def refuse(message: str) -> WorkflowError:
        return _invalid(source, [_problem(message, source)])

    raw = read_file_below_now(
        root, reference, what="dataset", limit=MAX_DATASET_BYTES, refuse=refuse
    )
    text = decode_text(
        raw,
        what="dataset",
        limit=MAX_DATASET_BYTES,
        source=source,
        invalid=lambda problem: _invalid(source, [problem]),
    )
    return parse_dataset(text, suffix, source=source)


def inline_cases(doc: ParsedYaml) -> tuple[Case, ...]:
    """The cases a workflow writes inline under ``cases:``, with their lines.

    Args:
        doc: The parsed workflow; ``doc.data["cases"]`` is a list.

    Returns:
        The cases, each with the line and column of its item in the workflow.

    Raises:
        WorkflowError: An item that is not a mapping, a bad or repeated id, or
            more than 100,000 cases; the problem has the workflow's position.
    """
    items = doc.data["cases"]
    rows: list[tuple[int, object]] = []
    columns: dict[int, int] = {}
    for index, item in enumerate(items):
        line, column = doc.position(("cases", index)) or (1, 1)
        rows.append((line, item))
        columns[index + 1] = column
    try:
        return number_cases(rows, columns)
    except CaseError as exc:
        from artemiskit._common._yaml import format_path

        where = {(line, columns[i + 1]): i for i, (line, _) in enumerate(rows)}
        found = where.get((exc.line, exc.column or 1))
        path = format_path(("cases",) if found is None else ("cases", found))
        from artemiskit._errors import Problem

        problem = Problem(
            message=str(exc),
            path=path,
            source=doc.source,
            line=exc.line,
            column=exc.column,
        )
        raise WorkflowError(f"{doc.source}: invalid workflow", [problem]) from None
