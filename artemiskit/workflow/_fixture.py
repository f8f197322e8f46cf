"""Referenced fixtures: extra files and state loaded from under a fixture root.

A fixture is a JSON or YAML file ``{documents?, records?, files?}`` with the shapes of
``environment.state`` and ``environment.files``. It is resolved below the fixture root
by `read_file_below` (no ``..``, no symbolic link, regular files only). Offline
validation never calls this.
"""

from __future__ import annotations

import json
import os
from typing import Any

import attrs
import cattrs

from artemiskit._common._converter import CONVERTER
from artemiskit._common._json import (
    DuplicateKeyError,
    duplicate_key_position,
    unique_keys,
)
from artemiskit._common._limits import MAX_ENVIRONMENT_BYTES
from artemiskit._common._paths import normalize_path, path_problem
from artemiskit._common._reading import read_file_below
from artemiskit._common._yaml import (
    MAX_INTEGER_DIGITS,
    ParsedYaml,
    format_path,
    parse_yaml_plain,
)
from artemiskit._errors import FixtureError, Problem, WorkflowError
from artemiskit.workflow._checks import (
    FIXTURE_SUFFIXES,
    check_environment_content,
    value_problems,
)
from artemiskit.workflow._loader import workflow_schema_checker
from artemiskit.workflow._model import Document, EnvironmentSpec, InitialState

__all__ = [
    "MAX_FIXTURE_FILE_BYTES",
    "FixtureContents",
    "load_fixture_state",
    "merge_fixture",
]

#: A fixture file larger than the whole environment may be is refused unread.
MAX_FIXTURE_FILE_BYTES = MAX_ENVIRONMENT_BYTES


@attrs.frozen(kw_only=True, repr=False)
class FixtureContents:
    """What a fixture adds to the environment.

    Attributes:
        documents: Documents by id.
        records: Records by table, then id.
        files: Text files by normalized relative path.
    """

    documents: dict[str, Document] = attrs.field(factory=dict)
    records: dict[str, dict[str, dict[str, Any]]] = attrs.field(factory=dict)
    files: dict[str, str] = attrs.field(factory=dict)

    def __repr__(self) -> str:
        return (
            f"FixtureContents(documents={len(self.documents)}, "
            f"tables={len(self.records)}, files={len(self.files)})"
        )


def _refuse(reference: str, message: str) -> FixtureError:
    return FixtureError(
        f"fixture {reference}: {message}",
        [Problem(message=message, path="$.environment.fixture", source=reference)],
    )


def _refuse_at(
    reference: str, source: str, rule: str, line: int | None, column: int | None
) -> FixtureError:
    message = f"fixture is not valid JSON ({rule})"
    problem = Problem(
        message=message,
        path="$.environment.fixture",
        source=source,
        line=line,
        column=column,
    )
    return FixtureError(f"fixture {reference}: {message}", [problem])


def _decode(raw: bytes, reference: str, source: str) -> ParsedYaml:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _refuse(reference, "fixture is not valid UTF-8") from None
    if not reference.lower().endswith(".json"):
        try:
            return parse_yaml_plain(text, source=source)
        except WorkflowError as exc:
            raise FixtureError(
                f"fixture {reference}: not valid YAML", exc.problems
            ) from None

    def no_constants(name: str) -> Any:
        raise ValueError("NaN and Infinity are not JSON")

    def bounded_int(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INTEGER_DIGITS:
            raise ValueError(
                f"integer is too large (at most {MAX_INTEGER_DIGITS} decimal digits)"
            )
        return int(digits)

    try:
        data = json.loads(
            text,
            object_pairs_hook=unique_keys,
            parse_constant=no_constants,
            parse_int=bounded_int,
        )
    except DuplicateKeyError:
        line, column = duplicate_key_position(text) or (None, None)
        raise _refuse_at(reference, source, "duplicate key", line, column) from None
    except json.JSONDecodeError as exc:
        raise _refuse_at(reference, source, exc.msg, exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:
        rule = str(exc) if isinstance(exc, ValueError) else "nested too deeply"
        raise _refuse(reference, f"fixture is not valid JSON ({rule})") from None
    return ParsedYaml(data=data, source=source, positions={}, key_positions={})


async def load_fixture_state(
    reference: str, *, fixture_root: str | os.PathLike[str]
) -> FixtureContents:
    """Load and validate a fixture referenced by ``environment.fixture``.

    Args:
        reference: The relative path from the workflow.
        fixture_root: The directory it resolves under (trusted; by default the
            workflow file's folder).

    Returns:
        The fixture's documents, records and files (paths normalized).

    Raises:
        FixtureError: The reference breaks the path rules or escapes the root, a
            component is a symbolic link, the file is missing, too large, not JSON/
            YAML, or its contents break the contract.
    """
    problem = path_problem(reference)
    if problem is not None:
        raise _refuse(reference, problem)
    if not reference.lower().endswith(FIXTURE_SUFFIXES):
        raise _refuse(reference, "fixture must be a .json, .yaml or .yml file")
    raw = await read_file_below(
        fixture_root,
        reference,
        what="fixture",
        limit=MAX_FIXTURE_FILE_BYTES,
        refuse=lambda message: _refuse(reference, message),
    )
    # Problems inside the fixture name the file as the user can open it.
    doc = _decode(raw, reference, os.path.join(os.fspath(fixture_root), reference))
    checker = workflow_schema_checker()
    found = checker.problems(doc.data, doc, node=checker.definition("fixture_contents"))
    if not found:
        files = doc.data.get("files", {})
        state = {k: doc.data[k] for k in ("documents", "records") if k in doc.data}
        found = check_environment_content(files, state, doc, ())
        found += value_problems(doc.data, doc, files_at=("files",))
    if found:
        raise FixtureError(f"fixture {reference}: invalid contents", found)
    data = dict(doc.data)
    data["files"] = {normalize_path(k): v for k, v in data.get("files", {}).items()}
    try:
        return CONVERTER.structure(data, FixtureContents)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        raise _refuse(reference, "fixture contents do not fit the model") from exc


def merge_fixture(
    environment_spec: EnvironmentSpec, fixture: FixtureContents
) -> EnvironmentSpec:
    """Combine inline files and state with a loaded fixture.

    Args:
        environment_spec: The workflow's environment.
        fixture: What `load_fixture_state` returned.

    Returns:
        The environment with the fixture's files, documents and records added.

    Raises:
        FixtureError: A file, document or record is defined both inline and in the
            fixture, or the merged environment is larger than 64 MiB.
    """
    conflicts: list[Problem] = []
    files = {normalize_path(k): v for k, v in environment_spec.files.items()}
    for path, content in fixture.files.items():
        if path in files:
            conflicts.append(_conflict(("environment", "files", path)))
        files[path] = content
    documents = dict(environment_spec.state.documents)
    for doc_id, document in fixture.documents.items():
        if doc_id in documents:
            conflicts.append(_conflict(("environment", "state", "documents", doc_id)))
        documents[doc_id] = document
    records = {t: dict(rows) for t, rows in environment_spec.state.records.items()}
    for table, rows in fixture.records.items():
        merged = records.setdefault(table, {})
        for row_id, fields in rows.items():
            if row_id in merged:
                where = ("environment", "state", "records", table, row_id)
                conflicts.append(_conflict(where))
            merged[row_id] = fields
    if conflicts:
        raise FixtureError(
            "the fixture redefines inline environment entries", conflicts
        )
    merged_state = InitialState(documents=documents, records=records)
    size = sum(_size(k) + _size(v) for k, v in files.items())
    size += _size(json.dumps(CONVERTER.unstructure(merged_state), ensure_ascii=False))
    if size > MAX_ENVIRONMENT_BYTES:
        message = f"files and state are larger than {MAX_ENVIRONMENT_BYTES} bytes"
        raise FixtureError(message, [Problem(message=message, path="$.environment")])
    return attrs.evolve(environment_spec, files=files, state=merged_state)


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _conflict(path: tuple[str, ...]) -> Problem:
    return Problem(
        message="is defined both inline and in the fixture", path=format_path(path)
    )
