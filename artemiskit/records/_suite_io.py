"""The suite record's schema and encoding: typed record to ``suite.json`` bytes.

Reading a saved ``suite.json`` (with version 1 migrated and the numbers checked
against each other) is `artemiskit.suites.read_suite_record`: migrating a
version-1 file recomputes statistics that belong to suites.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

import attrs
import fastjsonschema

from artemiskit._common._converter import CONVERTER
from artemiskit.records._suite import (
    SUITE_SCHEMA_VERSION,
    SuiteRecord,
    SuiteRunInfo,
    SuiteWorkflowInfo,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

__all__ = [
    "SUITE_SCHEMA_FILES",
    "encode_suite_record",
    "suite_record_chunks",
    "suite_record_schema",
    "suite_record_to_dict",
]

SUITE_SCHEMA_FILES = {
    1: "suite-record.v1.schema.json",
    2: "suite-record.v2.schema.json",
}


@functools.cache
def suite_record_schema(version: int = SUITE_SCHEMA_VERSION) -> dict[str, Any]:
    """The JSON Schema of ``suite.json`` version ``version`` as shipped."""
    text = (
        resources.files(__package__)
        .joinpath(SUITE_SCHEMA_FILES[version])
        .read_text("utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator() -> Callable[[Any], Any]:
    return fastjsonschema.compile(suite_record_schema())


def suite_record_to_dict(record: SuiteRecord) -> dict[str, Any]:
    """Unstructure ``record`` and validate it against the current schema.

    Raises:
        RuntimeError: The record fails its own schema (a bug).
    """
    data: dict[str, Any] = CONVERTER.unstructure(record)
    try:
        _validator()(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        raise RuntimeError(f"suite record fails its own schema: {exc.message}") from exc
    return data


def encode_suite_record(
    record: SuiteRecord | Mapping[str, Any],
    runs: dict[tuple[Any, ...], str] | None = None,
) -> bytes:
    """``suite.json``'s bytes: a field per line, and each run on a line of its own.

    Every value is encoded compact by the C encoder (an indented dump goes
    through the pure-Python one and costs more than an instant run per run).

    Args:
        record: The suite record (typed, or as plain data).
        runs: Each run entry's encoding by (workflow, case, target,
            repetition), filled as runs are encoded and reused by later
            encodings (a finished run's entry never changes, so it is neither
            unstructured nor encoded again).
    """
    return b"".join(suite_record_chunks(record, cache=runs))


def suite_record_chunks(
    record: SuiteRecord | Mapping[str, Any],
    *,
    units: Iterable[bytes] | None = None,
    runs: Callable[[int], Iterable[bytes]] | None = None,
    cache: dict[tuple[Any, ...], str] | None = None,
) -> Iterator[bytes]:
    """``suite.json``'s bytes in pieces (`encode_suite_record` joins them).

    A suite streams its record to disk with it, so that no rewrite holds the
    whole file: its units and its workflows' runs can come already encoded,
    from wherever the writer keeps them.

    Args:
        record: The suite record (typed, or as plain data).
        units: Each unit's entry as ``json.dumps`` encodes it, in order, in
            place of the record's ``units``.
        runs: The lines of the workflow at an index (each run's entry as
            ``json.dumps`` encodes it, in order), in place of the entry's
            ``runs``.
        cache: See `encode_suite_record`'s ``runs``.
    """
    if isinstance(record, SuiteRecord):
        data: dict[str, Any] = CONVERTER.unstructure(attrs.evolve(record, workflows=()))
        entries = [_workflow_fields(entry) for entry in record.workflows]
    else:
        data = dict(record)
        entries = [
            (dict(entry), entry["name"], entry["runs"])
            for entry in data.get("workflows", ())
        ]
    yield b"{\n"
    for number, (key, value) in enumerate(data.items()):
        head = f"{',' if number else ''}\n  {json.dumps(key)}: "
        if number == 0:
            head = head[1:]
        yield head.encode("utf-8")
        if key == "workflows" and entries:
            yield b"[\n"
            for index, entry in enumerate(entries):
                if index:
                    yield b",\n"
                lines = (
                    runs(index)
                    if runs is not None
                    else _run_lines(entry[1], entry[2], cache)
                )
                yield from _encode_workflow(entry[0], lines)
            yield b"\n  ]"
        elif key == "units" and units is not None:
            yield b"["
            for index, unit in enumerate(units):
                yield b", " + unit if index else unit
            yield b"]"
        else:
            yield json.dumps(value).encode("utf-8")
    yield b"\n}\n"


def _workflow_fields(
    entry: SuiteWorkflowInfo,
) -> tuple[dict[str, Any], str, Sequence[SuiteRunInfo]]:
    fields: dict[str, Any] = CONVERTER.unstructure(attrs.evolve(entry, runs=()))
    return fields, entry.name, entry.runs


def _run_key(run: SuiteRunInfo | Mapping[str, Any]) -> tuple[Any, ...]:
    if isinstance(run, SuiteRunInfo):
        return (run.case, run.target, run.repetition)
    return (run.get("case"), run.get("target"), run["repetition"])


def _run_lines(
    name: str,
    entry_runs: Sequence[SuiteRunInfo | Mapping[str, Any]],
    cache: dict[tuple[Any, ...], str] | None,
) -> Iterator[bytes]:
    """Each run's entry of a workflow, encoded (or taken from ``cache``)."""
    for run in entry_runs:
        at = (name, *_run_key(run))
        text = None if cache is None else cache.get(at)
        if text is None:
            data = run if isinstance(run, Mapping) else CONVERTER.unstructure(run)
            text = json.dumps(data)
            if cache is not None:
                cache[at] = text
        yield text.encode("utf-8")


def _encode_workflow(
    entry: Mapping[str, Any], lines: Iterable[bytes]
) -> Iterator[bytes]:
    yield b"    {\n"
    for number, (key, value) in enumerate(entry.items()):
        if number:
            yield b",\n"
        yield f"      {json.dumps(key)}: ".encode()
        if key != "runs":
            yield json.dumps(value).encode("utf-8")
            continue
        listed = iter(lines)
        first = next(listed, None)
        if first is None:
            yield json.dumps(value).encode("utf-8")
            continue
        yield b"[\n        " + first
        for line in listed:
            yield b",\n        " + line
        yield b"\n      ]"
    yield b"\n    }"
